import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestMemos, openTestMemos } from './helpers/test-memos.js';
import {
  createTextMemo,
  emptyRunMemos,
  memosEnabled,
  openRunMemos,
  runTextMemo,
  runLogMemo,
  runWeakMap,
  scaleTextMemos,
  textMemosHold,
  withRunMemos,
  createListMemo,
} from '../src/memo.js';

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

describe('memos owned by the run', () => {
  // Out of the run test/setup.ts opens for this file.
  beforeAll(closeTestMemos);
  afterAll(openTestMemos);
  const counter = () => {
    let computed = 0;
    return { length: (text: string) => (computed++, text.length), computed: () => computed };
  };

  it('keep nothing outside a run, and drop what they hold when the last run open closes', async () => {
    const memo = runTextMemo<number>('strategy-hints');
    const objects = runWeakMap<object, number>();
    const key = {};
    const { length, computed } = counter();
    memo.get('outside', length);
    memo.get('outside', length);
    objects.set(key, 1);
    expect([computed(), memo.size, objects.has(key), memosEnabled()]).toEqual([2, 0, false, false]);
    const closeOuter = openRunMemos();
    await withRunMemos({ enabled: false }, async () => {
      // A run opened inside another joins its store: the switch stays as the first run set it.
      memo.get('inside', length);
      memo.get('inside', length);
      objects.set(key, 2);
    });
    expect([computed(), memo.size, objects.get(key)]).toEqual([3, 1, 2]);
    closeOuter();
    closeOuter();
    expect([memo.size, objects.get(key), memosEnabled()]).toEqual([0, undefined, false]);
  });

  it('empty their unbounded memos on demand while the run stays open (a corpus between its logs), and keep the text memos', async () => {
    const memo = runTextMemo<number>('strategy-hints');
    const objects = runWeakMap<object, number>();
    const key = {};
    const { length, computed } = counter();
    await withRunMemos({}, async () => {
      memo.get('log one', length);
      objects.set(key, 1);
      emptyRunMemos();
      expect([memo.size, objects.has(key), memosEnabled()]).toEqual([1, false, true]);
      memo.get('log one', length);
      objects.set(key, 2);
    });
    expect(computed()).toBe(1);
    emptyRunMemos();
  });

  it('keep the per-log memos when emptied between logs, and drop them with the store', async () => {
    const perLog = runLogMemo<object, number>();
    const perObject = runWeakMap<object, number>();
    const log = {};
    await withRunMemos({}, async () => {
      perLog.set(log, 1);
      perObject.set(log, 1);
      emptyRunMemos();
      expect([perLog.get(log), perObject.has(log)]).toEqual([1, false]);
    });
    expect(perLog.has(log)).toBe(false);
    await withRunMemos({ enabled: false }, async () => {
      perLog.set(log, 2);
      expect(perLog.has(log)).toBe(false);
    });
  });

  it('hold the text memos to a smaller share of the budget when asked (a corpus larger than they hold), and say which corpora they hold', async () => {
    // 'secret-spans' holds about 2 million characters at the whole budget (two generations of 1 million).
    const memo = runTextMemo<number>('secret-spans');
    const { length, computed } = counter();
    const texts = Array.from({ length: 6 }, (_, i) => `${String(i)}${'x'.repeat(199_999)}`);
    await withRunMemos({}, async () => {
      for (const text of texts) memo.get(text, length);
      expect(memo.size).toBe(6);
      scaleTextMemos(0.25);
      // Let go when the scale changes; then at most two generations of about 250,000 characters.
      expect(memo.size).toBe(0);
      for (const text of texts) memo.get(text, length);
      expect(memo.size).toBeLessThanOrEqual(2);
      scaleTextMemos(1);
      for (const text of texts) memo.get(text, length);
      expect(memo.size).toBe(6);
    });
    expect(computed()).toBe(18);
    expect(memo.size).toBe(0);
    // The 100-log bench corpus (10.7 million characters of messages) is held; 477 logs (52 million) are not.
    expect([textMemosHold(10_700_000), textMemosHold(52_000_000)]).toEqual([true, false]);
  });

  it('compute every value each time in a run opened with memos off, with the same values', async () => {
    const memo = runTextMemo<number>('strategy-hints');
    const list = createListMemo<string, number>();
    const { length, computed } = counter();
    const values = await withRunMemos({ enabled: false }, async () => [memo.get('abc', length), memo.get('abc', length), list.map(['a', 'bc'], length)]);
    expect(values).toEqual([3, 3, [1, 2]]);
    expect(computed()).toBe(4);
    const memoized = await withRunMemos({}, async () => [
      memo.get('abc', length),
      memo.get('abc', length),
      list.map(['a', 'bc'], length),
      list.map(['a', 'bc'], length),
    ]);
    expect(memoized).toEqual([3, 3, [1, 2], [1, 2]]);
    expect(computed()).toBe(7);
  });
});
