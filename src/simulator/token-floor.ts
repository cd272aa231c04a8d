import type { Tokenizer } from '../tokens/types.js';

/**
 * A lower bound of a tokenizer's count of a one-line text, found without tokenizing it: the text's
 * words (runs of characters that are not white space). Both BPE encodings ctxbench uses
 * (o200k_base, cl100k_base) first cut a text into chunks with a regex and never merge across
 * chunks (tokens/segments.ts), and a chunk holds at most one white-space character before its other
 * characters and no white space after them but line breaks (and, in o200k_base, slashes after those)
 * — so in a text without line breaks no chunk holds parts of two words, and every chunk is at least
 * one token. A calibrated count is the raw count scaled and rounded, which keeps the order. None for
 * `chars4` (four characters a token: `a b c` is three words in two tokens).
 */
export function tokenFloor(tokenizer: Tokenizer): ((text: string) => number) | undefined {
  if (tokenizer.encoding !== 'o200k_base' && tokenizer.encoding !== 'cl100k_base') return undefined;
  const factor = tokenizer.calibration?.factor ?? 1;
  return (text) => {
    if (LINE_BREAK.test(text)) return 0;
    const words = text.match(WORD)?.length ?? 0;
    return factor === 1 ? words : Math.round(factor * words);
  };
}

/** White space as the encodings' patterns see it (`\s` in Rust's Unicode regex: the White_Space property). */
const WORD = /\P{White_Space}+/gu;
const LINE_BREAK = /[\r\n]/;
