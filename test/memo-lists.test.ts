import { describe, expect, it } from 'vitest';
import { createListMemo, createPositionsMemo } from '../src/memo.js';
import { editedLists } from './helpers/list-edits.js';

describe('createListMemo', () => {
  it('maps a list as Array.map does, whatever the edits between calls (appends, cuts, swaps, earlier versions)', () => {
    const pool = Array.from({ length: 30 }, (_, i) => ({ id: i }));
    const memo = createListMemo<{ id: number }, string>();
    const f = (item: { id: number }): string => `v${item.id}`;
    for (const list of editedLists(pool, 2000, 11)) {
      expect(memo.values(list, f).slice(0, list.length)).toEqual(list.map((item) => `v${item.id}`));
      const mapped = memo.map(list, f);
      expect(mapped).toEqual(list.map((item) => `v${item.id}`));
      // The result is the caller's: changing it changes nothing remembered.
      mapped.push('x');
    }
  });

  it('computes only what follows the run a list shares with one before', () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ n: `m${i}` }));
    const memo = createListMemo<{ n: string }, string>();
    let computed = 0;
    const f = (item: { n: string }): string => {
      computed += 1;
      return item.n;
    };
    memo.map(items.slice(0, 40), f);
    expect(computed).toBe(40);
    memo.map(items.slice(0, 45), f);
    expect(computed).toBe(45);
    memo.map([...items.slice(0, 30), ...items.slice(31, 45)], f);
    expect(computed).toBe(45 + 14);
    memo.map(items.slice(0, 20), f);
    expect(computed).toBe(59);
  });

  it('keeps a remembered list intact when a later list branches off it', () => {
    const [a, b, c, x] = [{ n: 'a' }, { n: 'b' }, { n: 'c' }, { n: 'x' }];
    const memo = createListMemo<{ n: string }, string>();
    for (const list of [
      [a, b, c],
      [a, x],
      [a, b, c, x],
      [a, b],
      [a, b, x],
      [a, b, c, x],
    ])
      expect(memo.map(list, (i) => i.n)).toEqual(list.map((i) => i.n));
  });

  it('finds the positions of the items a test holds for, as a scan does, whatever the edits', () => {
    const pool = Array.from({ length: 30 }, (_, i) => ({ id: i }));
    const positions = createPositionsMemo((item: { id: number }) => item.id % 3 === 0);
    for (const list of editedLists(pool, 1000, 5)) {
      expect(positions(list)).toEqual(list.flatMap((item, i) => (item.id % 3 === 0 ? [i] : [])));
    }
  });
});
