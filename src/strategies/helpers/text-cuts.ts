/**
 * Deterministic text cuts shared by the compacting strategies: a token-bounded prefix, a
 * token-bounded head + tail, and a head / middle / tail preview.
 */

type Count = (text: string) => number;

/** The largest n in [0, max] for which `fits(n)` holds, given `fits` is monotone (true, then false). */
function largestFitting(max: number, fits: (n: number) => boolean): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The longest prefix of `text` that counts at most `maxTokens`. */
export function truncateToTokens(text: string, maxTokens: number, count: Count): string {
  if (count(text) <= maxTokens) return text;
  if (maxTokens <= 0) return '';
  const n = largestFitting(text.length, (len) => count(text.slice(0, len)) <= maxTokens);
  return text.slice(0, n);
}

/**
 * `text` within `maxTokens`, keeping its beginning and its end around a marker that says how many
 * characters were cut (the start states the request, the end often the latest detail). Falls back
 * to a plain prefix when even the marker does not fit.
 */
export function truncateMiddleToTokens(text: string, maxTokens: number, count: Count): string {
  if (count(text) <= maxTokens) return text;
  const join = (keep: number): string => {
    const head = text.slice(0, Math.ceil(keep / 2));
    const tail = text.slice(text.length - Math.floor(keep / 2));
    return `${head}\n[… ${text.length - keep} characters truncated …]\n${tail}`;
  };
  if (count(join(0)) > maxTokens) return truncateToTokens(text, maxTokens, count);
  const keep = largestFitting(text.length - 1, (k) => count(join(k)) <= maxTokens);
  return join(keep);
}

/**
 * A preview of a long payload: its head, a slice from the middle and its tail (about 40 / 20 / 40
 * per cent of `chars`), with markers where text was left out. Short text is returned whole.
 */
export function previewText(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const head = Math.floor(chars * 0.4);
  const tail = Math.floor(chars * 0.4);
  const middle = Math.max(0, chars - head - tail);
  const midStart = Math.floor((text.length - middle) / 2);
  return [
    text.slice(0, head),
    `[… ${midStart - head} characters …]`,
    text.slice(midStart, midStart + middle),
    `[… ${text.length - tail - (midStart + middle)} characters …]`,
    text.slice(text.length - tail),
  ].join('\n');
}

/** The longest prefix (or, with `fromEnd`, suffix) of `text` whose UTF-8 size is at most `maxBytes`. */
function withinBytes(text: string, maxBytes: number, fromEnd: boolean): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const piece = (n: number): string => (fromEnd ? text.slice(text.length - n) : text.slice(0, n));
  return piece(largestFitting(text.length, (n) => Buffer.byteLength(piece(n)) <= maxBytes));
}

/**
 * Codex's rule for tool output entering the history: above `maxLines` lines or `maxBytes` bytes,
 * the first and last half of each budget are kept around a marker line saying what was cut.
 * Returns the text unchanged when it fits (or when both limits are 0).
 */
export function truncateHeadTail(text: string, maxBytes: number, maxLines: number): string {
  const lines = text.split('\n');
  const overLines = maxLines > 0 && lines.length > maxLines;
  const overBytes = maxBytes > 0 && Buffer.byteLength(text) > maxBytes;
  if (!overLines && !overBytes) return text;
  const keepLines = maxLines > 0 ? Math.floor(maxLines / 2) : lines.length;
  const headLines = overLines ? lines.slice(0, keepLines) : lines;
  const tailLines = overLines ? lines.slice(lines.length - keepLines) : [];
  const half = maxBytes > 0 ? Math.floor(maxBytes / 2) : Number.POSITIVE_INFINITY;
  let head = headLines.join('\n');
  let tail = tailLines.join('\n');
  if (overLines) {
    head = withinBytes(head, half, false);
    tail = withinBytes(tail, half, true);
  } else {
    // One block over the byte budget: its head and its tail.
    head = withinBytes(text, half, false);
    tail = withinBytes(text, half, true);
  }
  const cutChars = text.length - head.length - tail.length;
  const keptLines = head.split('\n').length + (tail === '' ? 0 : tail.split('\n').length);
  const marker = `[… output truncated: ${Math.max(0, lines.length - keptLines)} of ${lines.length} lines, ${cutChars} of ${text.length} characters omitted …]`;
  return [head, marker, tail].filter((part, i) => i === 1 || part !== '').join('\n');
}
