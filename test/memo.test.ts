import { describe, expect, it } from 'vitest';
import { createTextMemo } from '../src/memo.js';

describe('createTextMemo', () => {
  it('computes each text once, undefined included, and keeps two generations of half its characters', () => {
    const memo = createTextMemo<number | undefined>(20);
    let computed = 0;
    const length = (text: string) => (computed++, text.length);
    expect(memo.get('abcd', length)).toBe(4);
    expect(memo.get('abcd', length)).toBe(4);
    expect(computed).toBe(1);
    memo.get('none', () => (computed++, undefined));
    memo.get('none', () => (computed++, undefined));
    expect(computed).toBe(2);
    expect(memo.size).toBe(2);
    // 4 + 4 + 3 = 11 characters > 10: a new generation starts with the new text alone; the
    // previous one still answers, and what it answers moves to the new one.
    expect(memo.get('xyz', length)).toBe(3);
    expect(memo.size).toBe(3);
    expect(memo.get('abcd', length)).toBe(4);
    expect(computed).toBe(3);
    // 3 + 4 + 5 = 12 > 10: the generation of 'none' is let go ('abcd' had moved out of it).
    expect(memo.get('12345', length)).toBe(5);
    expect(memo.get('abcd', length)).toBe(4);
    memo.get('none', () => (computed++, undefined));
    expect(computed).toBe(5);
    // Never more than 20 characters held: at most two generations of 10.
    for (let i = 0; i < 100; i++) memo.get(`t${i}`.padEnd(7, '.'), length);
    expect(memo.size).toBeLessThanOrEqual(4);
  });

  it('can hold copies of its texts, found again by equal texts', () => {
    const memo = createTextMemo<number>(100, { copyKeys: true });
    const long = 'a slice of a longer text';
    let computed = 0;
    expect(memo.get(long.slice(2, 7), (t) => (computed++, t.length))).toBe(5);
    expect(memo.get('slice', (t) => (computed++, t.length))).toBe(5);
    expect(computed).toBe(1);
  });

  it('finds a copied text again when it holds a lone surrogate (no UTF-8 round trip)', () => {
    const memo = createTextMemo<number>(100, { copyKeys: true });
    const text = `a broken pair \ud800 in a line`;
    let computed = 0;
    memo.get(text.slice(0, 20), (t) => (computed++, t.length));
    memo.get(text.slice(0, 20), (t) => (computed++, t.length));
    expect(computed).toBe(1);
  });
});
