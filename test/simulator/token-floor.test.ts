import { describe, expect, it } from 'vitest';
import { createRandom } from '../../src/random.js';
import { tokenFloor } from '../../src/simulator/token-floor.js';
import { createTokenizer, tokenizerForModel } from '../../src/tokens/tokenizer.js';
import { importTranscript } from '../../src/transcript/importers/index.js';

/** Characters the encodings' patterns treat apart: white space of every kind, marks, apostrophes, slashes, digits, symbols. */
const ALPHABET = [
  ...'abcXYZéß日本語😀0123456789',
  ...'.,;:!?\'"()[]{}<>/\\-_=+*&^%$#@~`|',
  ' ',
  ' ',
  '\t',
  '\u00a0',
  '\u2003',
  '\u3000',
  '\ufeff',
  '\u200b',
  '\u0301',
  "'s",
  "'ll",
  ' /',
  '...',
];

function randomTexts(seed: number, n: number): string[] {
  const random = createRandom(seed);
  return Array.from({ length: n }, () => Array.from({ length: random.int(0, 40) }, () => random.pick(ALPHABET)).join(''));
}

/** Lines of real sessions' messages: prose, code, paths, JSON, tool output. */
async function realLines(): Promise<string[]> {
  const lines: string[] = [];
  for (const file of [
    'fixtures/real/claude-code/vibecoding-session.jsonl',
    'fixtures/real/codex/vibecoding-session.jsonl',
    'fixtures/real/mini-swe-agent/django__django-11138.traj.json',
  ]) {
    const transcript = await importTranscript(file, {});
    for (const event of transcript.events) if (event.type === 'message') lines.push(...event.text.split('\n'));
  }
  return lines;
}

describe('tokenFloor', () => {
  const tokenizers = [
    createTokenizer('o200k_base'),
    createTokenizer('cl100k_base'),
    tokenizerForModel('gemini-2.5-flash'),
    tokenizerForModel('claude-sonnet-4'),
  ];

  it('never exceeds the count, on real lines and on strings of every kind of white space and symbol', async () => {
    const texts = [...(await realLines()), ...randomTexts(1, 3000), 'a b c', "it's don't we'll", 'x /y', '   ', ''];
    expect(texts.length).toBeGreaterThan(3000);
    for (const tokenizer of tokenizers) {
      const floor = tokenFloor(tokenizer);
      expect(floor).toBeDefined();
      for (const text of texts) expect(floor?.(text), `${tokenizer.encoding} ${JSON.stringify(text)}`).toBeLessThanOrEqual(tokenizer.count(text));
    }
  });

  it('is most of the count on prose, and none for a text with line breaks or for chars4', () => {
    const floor = tokenFloor(createTokenizer('o200k_base'));
    expect(floor?.('Added a migration for the processed events table and reran the tests')).toBe(12);
    expect(floor?.('one\ntwo')).toBe(0);
    expect(tokenFloor(createTokenizer('chars4'))).toBeUndefined();
  });
});
