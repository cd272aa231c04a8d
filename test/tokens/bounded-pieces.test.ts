import { describe, expect, it } from 'vitest';
import { get_encoding } from 'tiktoken';
import { LONG_SEGMENT, boundedPieces } from '../../src/tokens/bounded-pieces.js';
import { countTokens } from '../../src/tokens/tokenizer.js';
import { importTranscript } from '../../src/transcript/importers/index.js';

const encoders = { o200k_base: get_encoding('o200k_base'), cl100k_base: get_encoding('cl100k_base') };
const whole = (encoding: keyof typeof encoders, text: string): number => encoders[encoding].encode(text, [], []).length;
const summed = (encoding: keyof typeof encoders, text: string): number => boundedPieces(text).reduce((n, piece) => n + whole(encoding, piece), 0);

/** Seeded text from an alphabet: the same every run. */
function seeded(length: number, alphabet: string, seed = 12345): string {
  const chars = [...alphabet];
  let x = seed;
  let text = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    text += chars[(x >>> 12) % chars.length];
  }
  return text;
}

/** A real log's text as one long line: words, code, paths and punctuation without a line break. */
async function realLine(): Promise<string> {
  const transcript = await importTranscript(new URL('../../fixtures/real/claude-code/vibecoding-session.jsonl', import.meta.url).pathname);
  return transcript.events.flatMap((event) => (event.type === 'message' ? [event.text.replace(/[\r\n]+/g, ' ')] : [])).join(' ');
}

describe('bounded pieces of a long segment', () => {
  it('join back to the segment, each at most LONG_SEGMENT characters, a surrogate pair never split', () => {
    for (const text of [seeded(50_000, 'ab cd\u00e9f'), seeded(30_000, '😀x'), '.'.repeat(20_000), 'short']) {
      const pieces = boundedPieces(text);
      expect(pieces.join('')).toBe(text);
      for (const piece of pieces) {
        expect(piece.length).toBeLessThanOrEqual(LONG_SEGMENT);
        expect(piece.charCodeAt(0) >= 0xdc00 && piece.charCodeAt(0) <= 0xdfff, 'starts inside a pair').toBe(false);
      }
    }
  });

  it('count exactly where the text has words: a real log as one line, both encodings', async () => {
    const line = await realLine();
    expect(line.length).toBeGreaterThan(20 * LONG_SEGMENT);
    expect(boundedPieces(line).length).toBeGreaterThan(20);
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) expect(summed(encoding, line)).toBe(whole(encoding, line));
    // Texts made to defeat the cut (one line: segments.ts cuts at line breaks first): a space after
    // a space, before a digit or a mark, digits after other numbers.
    const tricky = seeded(200_000, 'ab  1.é\u00a0\u0301Z²');
    // A base64 blob (an encrypted reasoning item, a signature): cut before its digit runs.
    const blob = seeded(100_000, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
    for (const text of [tricky, blob])
      for (const encoding of ['o200k_base', 'cl100k_base'] as const) expect(summed(encoding, text)).toBe(whole(encoding, text));
  });

  it('where no exact cut exists, the count stays within 0.2 % (random letters: one pre-token), exact on CJK', () => {
    const letters = seeded(64 * 1024, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
    const exact = whole('o200k_base', letters);
    expect(Math.abs(summed('o200k_base', letters) - exact) / exact).toBeLessThan(0.002);
    const cjk = seeded(4 * 1024, '漢字仮名交じり文');
    expect(summed('o200k_base', cjk)).toBe(whole('o200k_base', cjk));
  });

  it('1 MB without white space is counted (one WASM call on it ends in RuntimeError: unreachable)', () => {
    const dots = '.'.repeat(2 ** 20);
    // Within 0.2 % of the count of its 2 KB slices, each counted whole.
    const reference = 512 * whole('o200k_base', dots.slice(0, 2048));
    expect(Math.abs(countTokens('o200k_base', dots) - reference) / reference).toBeLessThan(0.002);
  });
});
