import { describe, expect, it } from 'vitest';
import { createTextMemo } from '../src/memo.js';

describe('createTextMemo', () => {
  it('computes each text once, undefined included, and starts over past its characters', () => {
    const memo = createTextMemo<number | undefined>(10);
    let computed = 0;
    const length = (text: string) => (computed++, text.length);
    expect(memo.get('abcd', length)).toBe(4);
    expect(memo.get('abcd', length)).toBe(4);
    expect(computed).toBe(1);
    memo.get('none', () => (computed++, undefined));
    memo.get('none', () => (computed++, undefined));
    expect(computed).toBe(2);
    expect(memo.size).toBe(2);
    // 4 + 4 + 3 = 11 characters > 10: the memo starts over with the new text alone.
    expect(memo.get('xyz', length)).toBe(3);
    expect(memo.size).toBe(1);
    expect(memo.get('abcd', length)).toBe(4);
    expect(computed).toBe(4);
  });

  it('can hold copies of its texts, found again by equal texts', () => {
    const memo = createTextMemo<number>(100, { copyKeys: true });
    const long = 'a slice of a longer text';
    let computed = 0;
    expect(memo.get(long.slice(2, 7), (t) => (computed++, t.length))).toBe(5);
    expect(memo.get('slice', (t) => (computed++, t.length))).toBe(5);
    expect(computed).toBe(1);
  });
});
