import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestMemos, openTestMemos } from './helpers/test-memos.js';
import {
  createMemoStore,
  createTextMemo,
  currentMemoStore,
  memosEnabled,
  runTextMemo,
  runLogMemo,
  runWeakMap,
  withMemoStore,
  withOwnMemos,
  withRunMemos,
  createListMemo,
  type MemoStore,
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

describe('the memos of a test file', () => {
  it('are on: test/setup.ts gives each file a store of its own, so that oracle tests compare warm memos with computing from scratch', async () => {
    const store = currentMemoStore();
    expect([store?.enabled, memosEnabled()]).toEqual([true, true]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(currentMemoStore()).toBe(store);
  });
});

describe('memos owned by the run', () => {
  // Out of the store test/setup.ts gives this file.
  beforeAll(closeTestMemos);
  afterAll(openTestMemos);
  const counter = () => {
    let computed = 0;
    return { length: (text: string) => (computed++, text.length), computed: () => computed };
  };

  it('keep nothing outside a run; work started inside one joins its store, and a store of its own is dropped when it ends', async () => {
    const memo = runTextMemo<number>('strategy-hints');
    const objects = runWeakMap<object, number>();
    const key = {};
    const { length, computed } = counter();
    memo.get('outside', length);
    memo.get('outside', length);
    objects.set(key, 1);
    expect([computed(), memo.size, objects.has(key), memosEnabled(), currentMemoStore()]).toEqual([2, 0, false, false, undefined]);
    const run = createMemoStore();
    await withOwnMemos(run, async () => {
      // A unit or probe generation inside the run joins its store: the switch stays the run's.
      await withRunMemos({ enabled: false }, async () => {
        memo.get('inside', length);
        memo.get('inside', length);
        objects.set(key, 2);
      });
      expect([computed(), memo.size, objects.get(key), currentMemoStore()]).toEqual([3, 1, 2, run]);
    });
    // Dropped with the run: nothing held, and nothing made if work of the run goes on after it.
    expect([run.tables, memo.size, objects.get(key), memosEnabled()]).toEqual([0, 0, undefined, false]);
    withMemoStore(run, () => memo.get('after', length));
    expect([computed(), run.tables]).toEqual([4, 0]);
    // On its own, synchronous work (probe generation) has a store of its own for as long as it runs.
    const own = withRunMemos({}, () => [memo.get('own', length), memo.get('own', length), memo.size]);
    expect([own, computed(), memo.size]).toEqual([[3, 3, 1], 5, 0]);
  });

  it('give each of two runs interleaved in one thread its own store and switch', async () => {
    const memo = runTextMemo<number>('strategy-hints');
    const objects = runWeakMap<object, number>();
    const key = {};
    const on = createMemoStore();
    const off = createMemoStore({ enabled: false });
    const counts = { on: 0, off: 0 };
    const run = (store: MemoStore, name: 'on' | 'off') =>
      withOwnMemos(store, async () => {
        const seen: unknown[] = [];
        for (let i = 0; i < 5; i++) {
          // Each await lets the other run go on in between.
          await new Promise((resolve) => setImmediate(resolve));
          seen.push(
            memo.get('shared text', (text) => (counts[name]++, text.length)),
            objects.get(key),
            memosEnabled(),
          );
          objects.set(key, i);
          await Promise.resolve();
          seen.push(store.tables);
        }
        return seen;
      });
    const [seenOn, seenOff] = await Promise.all([run(on, 'on'), run(off, 'off')]);
    // The memo run computed once and found its own map; the other computed every time and made no table.
    expect(counts).toEqual({ on: 1, off: 5 });
    expect(seenOn).toEqual([11, undefined, true, 2, ...[0, 1, 2, 3].flatMap((i) => [11, i, true, 2])]);
    expect(seenOff).toEqual(Array.from({ length: 5 }, () => [11, undefined, false, 0]).flat());
  });

  it('empty their unbounded memos on demand while the run goes on (a corpus between its logs), and keep the text memos', async () => {
    const memo = runTextMemo<number>('strategy-hints');
    const objects = runWeakMap<object, number>();
    const key = {};
    const { length, computed } = counter();
    const store = createMemoStore();
    await withOwnMemos(store, async () => {
      memo.get('log one', length);
      objects.set(key, 1);
      store.emptyRun();
      expect([memo.size, objects.has(key), memosEnabled()]).toEqual([1, false, true]);
      memo.get('log one', length);
      objects.set(key, 2);
    });
    expect(computed()).toBe(1);
  });

  it('keep the per-log memos when emptied between logs, and drop them with the store', async () => {
    const perLog = runLogMemo<object, number>();
    const perObject = runWeakMap<object, number>();
    const log = {};
    const store = createMemoStore();
    await withOwnMemos(store, async () => {
      perLog.set(log, 1);
      perObject.set(log, 1);
      store.emptyRun();
      expect([perLog.get(log), perObject.has(log)]).toEqual([1, false]);
    });
    expect(perLog.has(log)).toBe(false);
    await withOwnMemos(createMemoStore({ enabled: false }), async () => {
      perLog.set(log, 2);
      expect(perLog.has(log)).toBe(false);
    });
  });

  it('hold the text memos to a smaller share of the budget when asked (a corpus larger than they hold), and say which corpora they hold', async () => {
    // 'secret-spans' holds about 2 million characters at the whole budget (two generations of 1 million).
    const memo = runTextMemo<number>('secret-spans');
    const { length, computed } = counter();
    const texts = Array.from({ length: 6 }, (_, i) => `${String(i)}${'x'.repeat(199_999)}`);
    const store = createMemoStore();
    await withOwnMemos(store, async () => {
      for (const text of texts) memo.get(text, length);
      expect(memo.size).toBe(6);
      store.scaleTextMemos(0.25);
      // Let go when the scale changes; then at most two generations of about 250,000 characters.
      expect(memo.size).toBe(0);
      for (const text of texts) memo.get(text, length);
      expect(memo.size).toBeLessThanOrEqual(2);
      store.scaleTextMemos(1);
      for (const text of texts) memo.get(text, length);
      expect(memo.size).toBe(6);
    });
    expect(computed()).toBe(18);
    expect(memo.size).toBe(0);
  });

  it('compute every value each time in a run with memos off, with the same values, and make no table', async () => {
    const memo = runTextMemo<number>('strategy-hints');
    const list = createListMemo<string, number>();
    const { length, computed } = counter();
    const off = createMemoStore({ enabled: false });
    const values = await withMemoStore(off, async () => [memo.get('abc', length), memo.get('abc', length), list.map(['a', 'bc'], length)]);
    expect(values).toEqual([3, 3, [1, 2]]);
    expect([computed(), off.tables]).toEqual([4, 0]);
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
