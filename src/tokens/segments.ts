/**
 * Cutting a text where tiktoken's pre-tokenizer always cuts it, so that the token count of the
 * text is exactly the sum of its segments' counts and each segment, once counted, is never
 * tokenized again: strategies re-send what the agent sent in new texts (a summary request holds
 * the span it summarizes, a cut result the head of the whole), and their lines were counted before.
 *
 * Why the cut is exact. Both BPE encodings ctxbench uses (o200k_base, cl100k_base) first split a
 * text with a regex into chunks and never merge across chunks. A position right after a run of
 * line breaks whose next character is neither white space nor `/` is always a chunk boundary in
 * both patterns: no alternative that can hold a line break (`\s*[\r\n]+`, `\s+`, and punctuation
 * followed by `[\r\n/]*` or `[\r\n]*`) can continue into such a character, and no alternative
 * looks behind. A chunk is matched from its own start, so a segment alone splits into the same
 * chunks as in the text; its last chunk, a run of line breaks, ends the same with or without what
 * followed it (`\s*[\r\n]+` is tried before the look-ahead alternatives). A test holds the sums
 * equal to whole-text counts on every real log in fixtures/.
 */

/** Texts shorter than this are counted whole: too few lines to be worth cutting. */
export const SEGMENT_MIN_TEXT = 512;

/** The segments of `text`, in order; they join back to `text`. */
export function segmentsOf(text: string): string[] {
  const segments: string[] = [];
  let start = 0;
  let at = text.indexOf('\n');
  while (at >= 0) {
    let end = at + 1;
    while (end < text.length && (text[end] === '\n' || text[end] === '\r')) end += 1;
    if (end < text.length && isCutAfterBreaks(text.charCodeAt(end))) {
      segments.push(text.slice(start, end));
      start = end;
    }
    at = text.indexOf('\n', end);
  }
  segments.push(text.slice(start));
  return segments;
}

/** Whether a character after line breaks starts a new chunk: not white space (any Unicode kind), not `/`. */
function isCutAfterBreaks(code: number): boolean {
  if (code === 0x2f) return false;
  if (code > 0x20 && code < 0x7f) return true;
  return !WHITE.test(String.fromCharCode(code));
}

/** White space as JavaScript and as Unicode's White_Space see it, with NEL and the BOM: either may be `\s`. */
const WHITE = /[\s\p{White_Space}\u0085\ufeff]/u;
