/**
 * Cutting a text where tiktoken's pre-tokenizer always cuts it, so that the token count of the
 * text is exactly the sum of its segments' counts and each segment, once counted, is never
 * tokenized again: strategies re-send what the agent sent in new texts (a summary request holds
 * the span it summarizes, a cut result the head of the whole), and their lines were counted before.
 *
 * Why the cut is exact. Both BPE encodings ctxbench uses (o200k_base, cl100k_base) first split a
 * text with a regex into chunks and never merge across chunks. A position right after a run of
 * line breaks is a chunk boundary in both patterns when what follows is a character that is
 * neither white space nor `/`, or blanks (white space but line breaks) followed by any character
 * but a line break: no alternative that can hold a line break (`\s*[\r\n]+`, `\s+`, and
 * punctuation followed by `[\r\n/]*` or `[\r\n]*`) can continue into such a character or past
 * the breaks into blanks that no break follows, and no alternative looks behind. Blanks between
 * breaks are taken into the run (`\s*[\r\n]+` takes them). A chunk is matched from its own
 * start, so a segment alone splits into the same chunks as in the text; its last chunk, a run of
 * line breaks, ends the same with or without what followed it (`\s*[\r\n]+` is tried before the
 * look-ahead alternatives). Indented code is so cut line by line. A test holds the sums equal to
 * whole-text counts on real logs in fixtures/ and on texts made to defeat a naive cut.
 */

/** Texts shorter than this are counted whole: too few lines to be worth cutting. */
export const SEGMENT_MIN_TEXT = 512;

/** The segments of `text`, in order; they join back to `text`. */
export function segmentsOf(text: string): string[] {
  const segments: string[] = [];
  let start = 0;
  let at = text.indexOf('\n');
  while (at >= 0) {
    const end = breakRunEnd(text, at);
    if (end < text.length && cutsAfterBreaks(text, end)) {
      segments.push(text.slice(start, end));
      start = end;
    }
    at = text.indexOf('\n', end);
  }
  segments.push(text.slice(start));
  return segments;
}

/**
 * Where the run of line breaks at `at` ends, white space between breaks included: after breaks,
 * blanks followed by another break are one chunk with them (`\s*[\r\n]+`).
 */
function breakRunEnd(text: string, at: number): number {
  let end = at;
  for (;;) {
    while (end < text.length && isBreak(text.charCodeAt(end))) end += 1;
    let next = end;
    while (next < text.length && isBlank(text.charCodeAt(next))) next += 1;
    if (next === end || next === text.length || !isBreak(text.charCodeAt(next))) return end;
    end = next;
  }
}

/**
 * Whether a chunk starts at `end`, right after a run of breaks (and before the end of the text):
 * a character that is neither white space nor `/` does; so do blanks followed by such a character
 * or by `/` (the run's last chunk cannot take blanks, and `[\r\n/]*` cannot reach past them).
 */
function cutsAfterBreaks(text: string, end: number): boolean {
  const code = text.charCodeAt(end);
  if (!isBlank(code)) return isCutAfterBreaks(code);
  let next = end;
  while (next < text.length && isBlank(text.charCodeAt(next))) next += 1;
  return next < text.length;
}

const isBreak = (code: number): boolean => code === 0x0a || code === 0x0d;

/** White space that is not a line break: a space, a tab, and any kind either reading of `\s` counts. */
function isBlank(code: number): boolean {
  if (code === 0x20 || code === 0x09) return true;
  if (isBreak(code) || (code > 0x20 && code < 0x7f)) return false;
  return WHITE.test(String.fromCharCode(code));
}

/** Whether a character after line breaks starts a new chunk: not white space (any Unicode kind), not `/`. */
function isCutAfterBreaks(code: number): boolean {
  if (code === 0x2f) return false;
  if (code > 0x20 && code < 0x7f) return true;
  return !WHITE.test(String.fromCharCode(code));
}

/** White space as JavaScript and as Unicode's White_Space see it, with NEL and the BOM: either may be `\s`. */
const WHITE = /[\s\p{White_Space}\u0085\ufeff]/u;
