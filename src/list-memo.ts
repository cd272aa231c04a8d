import { memosEnabled, runOwned } from './memo.js';

/**
 * Per-item values of lists that change little from one call to the next: a step's context is
 * mostly the previous step's message objects in the same order. The memo remembers the last few
 * lists it mapped (as copies: callers append to their own arrays) and, for a new list, reuses the
 * values of the longest run of identical leading items it shares with one of them, computing only
 * the rest. Items must never change once built (messages never do), and `f` must depend on the
 * item only (a memo per tokenizer, per format, and so on). With memos off (memo.ts) every call
 * maps the whole list.
 */
export interface ListMemo<T, V> {
  /** `items.map(f)`, as a new array the caller may change (the values themselves are shared). */
  map(items: readonly T[], f: (item: T) => V): V[];
  /**
   * The same values without the copy: the memo's own array, of which only the first
   * `items.length` are `items`' (it may hold more). Read it before the next call; never change it.
   */
  values(items: readonly T[], f: (item: T) => V): readonly V[];
}

/** How many lists a memo remembers: the engine, the strategy and the simulator each pass their own. */
const LISTS = 4;

export function createListMemo<T, V>(): ListMemo<T, V> {
  const lists: { items: T[]; values: V[] }[] = [];
  const values = (items: readonly T[], f: (item: T) => V): readonly V[] => {
    if (!memosEnabled()) return items.map(f);
    let best = -1;
    let shared = 0;
    // Most recently used first; a list that holds all of `items`, or that `items` extends, is the one.
    for (const [index, list] of lists.entries()) {
      const limit = Math.min(list.items.length, items.length);
      let k = 0;
      while (k < limit && list.items[k] === items[k]) k += 1;
      if (k > shared || best < 0) [best, shared] = [index, k];
      if (k === limit) break;
    }
    const base = best < 0 ? undefined : lists[best];
    if (base !== undefined && shared === items.length) {
      if (best > 0) lists.unshift(...lists.splice(best, 1));
      return base.values;
    }
    // Extend a remembered list in place when the call only appends to it; else start a new one.
    const extend = shared === base?.items.length;
    const list = extend ? base : { items: items.slice(0, shared), values: base === undefined ? [] : base.values.slice(0, shared) };
    for (let i = shared; i < items.length; i++) {
      const item = items[i] as T;
      list.items.push(item);
      list.values.push(f(item));
    }
    if (extend) lists.splice(best, 1);
    lists.unshift(list);
    if (lists.length > LISTS) lists.pop();
    return list.values;
  };
  return {
    values,
    map: (items, f) => values(items, f).slice(0, items.length),
  };
}

/**
 * The positions of the items `test` holds for (`test` depends on the item only), read from a list
 * memo: a history that grew by a message is tested at that message only.
 */
export function createPositionsMemo<T>(test: (item: T) => boolean): (items: readonly T[]) => number[] {
  // Module-level positions memos hold lists of messages: owned by the run, dropped with it.
  const memo = runOwned(() => createListMemo<T, boolean>());
  return (items) => {
    const holds = memo()?.values(items, test) ?? items.map(test);
    const positions: number[] = [];
    for (let i = 0; i < items.length; i++) if (holds[i] === true) positions.push(i);
    return positions;
  };
}
