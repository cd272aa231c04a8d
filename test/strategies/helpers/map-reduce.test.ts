import { describe, expect, it } from 'vitest';
import { mergeSummaries, splitIntoChunks } from '../../../src/strategies/helpers/map-reduce.js';
import { createTokenizer } from '../../../src/tokens/tokenizer.js';

const count = (text: string): number => createTokenizer('o200k_base').count(text);

describe('splitIntoChunks', () => {
  const table: { name: string; text: string; max: number; expected: string[] }[] = [
    { name: 'short text is one chunk', text: 'one line\nanother line', max: 100, expected: ['one line\nanother line'] },
    {
      name: 'splits at line boundaries',
      text: 'alpha beta gamma\ndelta epsilon zeta\neta theta iota',
      max: 8,
      expected: ['alpha beta gamma', 'delta epsilon zeta', 'eta theta iota'],
    },
    {
      name: 'splits a long line at sentence boundaries',
      text: 'First we read the file. Then we ran the tests! Did they pass? Yes.',
      max: 8,
      expected: ['First we read the file.', 'Then we ran the tests!', 'Did they pass?\nYes.'],
    },
    { name: 'empty text gives no chunk', text: '', max: 10, expected: [] },
  ];
  it.each(table)('$name', ({ text, max, expected }) => {
    expect(splitIntoChunks(text, max, count)).toEqual(expected);
  });

  it('cuts a sentence longer than a chunk hard, losing nothing', () => {
    const text = 'x'.repeat(400);
    const chunks = splitIntoChunks(text, 20, count);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(text);
    for (const chunk of chunks) expect(count(chunk)).toBeLessThanOrEqual(20);
  });
});

describe('mergeSummaries', () => {
  it('keeps each line once, in order, ignoring case, spacing and list markers', () => {
    expect(mergeSummaries(['- Read src/a.ts\nRan npm test', '* read  src/a.ts\n1. Fixed the bug', 'ran npm test\n\nFixed the bug'])).toBe(
      '- Read src/a.ts\nRan npm test\n1. Fixed the bug',
    );
  });
});
