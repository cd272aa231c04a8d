import { describe, expect, it } from 'vitest';
import { FactIndex, VerbatimMatcher } from '../../../src/probes/needed/fact-index.js';

/** What the matcher must find: every string the text holds, by `includes`. */
function byIncludes(values: readonly string[], text: string): number[] {
  return values.flatMap((value, i) => (text.includes(value) ? [i] : []));
}

describe('VerbatimMatcher', () => {
  const values = ['src/a.ts', 'src/ab.ts', 'sr', 'srcx', 'npm test', 'npm', 'x', 'a.ts', '日本語です', 'テスト', 'src/a.tsx'];
  const texts = ['edit src/a.ts and src/ab.ts', 'run npm test, then npm', 'srsrcsrcx', 'src/a.tsx only', '日本語ですテスト', '', 'sx', 'no match here'];

  it.each(texts)('finds in %j every string the text holds, and no other', (text) => {
    const found = new Set<number>();
    new VerbatimMatcher(values).addFound(text, found);
    expect([...found].sort((a, b) => a - b)).toEqual(byIncludes(values, text));
  });

  it('finds facts verbatim and with written-out escapes read as spaces, ascending', () => {
    const index = new FactIndex(['DEBUG_MODE', 'a b', 'x.y']);
    expect(index.factsInText('set\\nDEBUG_MODE; x.y')).toEqual([0, 2]);
    expect(index.factsInText('a\\nb')).toEqual([1]);
  });
});
