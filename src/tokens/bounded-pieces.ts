/**
 * Pieces of one long segment (segments.ts) small enough to hand to the tokenizer's WASM one at a
 * time. One call on an unbounded text grows the WASM memory to several times the text (it never
 * shrinks: a 60 MB tool output took 2.7 GB), and BPE on one unbroken pre-token is quadratic in
 * its length (1 MB without white space ended in `RuntimeError: unreachable`).
 *
 * Exactness. A piece ends, where it can, where tiktoken's pre-tokenizer (o200k_base and
 * cl100k_base) always starts a chunk: before a space that follows a character other than white
 * space and precedes a letter (only the first character of a word or punctuation chunk may be a
 * space, and no white-space alternative starts after a non-space), or before the first digit of
 * a run that follows neither white space nor a number (no word or punctuation chunk holds a
 * digit, and `\p{N}{1,3}` counts its threes from the run's start). The encoder never merges
 * across chunks, so the count of the pieces is the count of the segment; base64 blobs, with a
 * digit every few characters, are cut exactly too. A stretch of `HARD_PIECE` characters with no
 * such place (a base64 blob, a run of one letter) is cut there anyway: the BPE merges across that
 * cut are lost, at most about one token per cut: 0.15 % more tokens on 64 KB of random letters,
 * none on random CJK characters (each is a token of its own).
 */

/** Segments up to this many characters are counted whole; longer ones are cut into pieces up to this long. */
export const LONG_SEGMENT = 2048;
/**
 * A stretch with no exact cut is cut every this many characters: BPE on one pre-token is
 * quadratic in its bytes (1,024 CJK characters took 46 ms, 256 take 3 ms).
 */
const HARD_PIECE = 256;
const LETTER = /\p{L}/u;

/** The pieces of `segment`, in order; they join back to it. One forward pass over its characters. */
export function boundedPieces(segment: string): string[] {
  if (segment.length <= LONG_SEGMENT) return [segment];
  const pieces: string[] = [];
  let start = 0;
  let cut = -1;
  let scanned = 1;
  while (segment.length - start > LONG_SEGMENT) {
    const limit = start + LONG_SEGMENT;
    for (; scanned < limit; scanned++) if (isExactCut(segment, scanned)) cut = scanned;
    const end = cut > start ? cut : codePointCut(segment, start + HARD_PIECE);
    pieces.push(segment.slice(start, end));
    start = end;
  }
  pieces.push(segment.slice(start));
  return pieces;
}

/** Whether a chunk always starts at `at` (see above): a space before a word, or a digit run's first digit. */
function isExactCut(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code === 0x20) return isWordAfter(text, at + 1) && !isWhite(text.charCodeAt(at - 1));
  if (code >= 0x30 && code <= 0x39) {
    const before = text.charCodeAt(at - 1);
    return !isWhite(before) && !isNumber(before);
  }
  return false;
}

/** `\p{N}`, as the digit alternative (`\p{N}{1,3}`) reads it. */
function isNumber(code: number): boolean {
  if (code >= 0x30 && code <= 0x39) return true;
  return code > 0x7f && /\p{N}/u.test(String.fromCharCode(code));
}

function isWordAfter(text: string, at: number): boolean {
  const code = text.codePointAt(at);
  if (code === undefined) return false;
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)) return true;
  return code > 0x7f && LETTER.test(String.fromCodePoint(code));
}

/** White space as either reading of the pre-tokenizer's `\s` sees it. */
function isWhite(code: number): boolean {
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return true;
  if (code < 0x7f) return false;
  return /[\s\p{White_Space}\u0085\ufeff]/u.test(String.fromCharCode(code));
}

/** `at`, or one before it when `at` would split a surrogate pair. */
function codePointCut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}
