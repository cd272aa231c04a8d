import { createRandom } from '../../src/random.js';

export interface ListEditOptions {
  /**
   * Make each list with one to three edits at once, a rewrite followed by an append among them (a
   * strategy that masks an old result as the step appends): lists that differ in several places.
   */
  severalAtOnce?: boolean;
}

/**
 * `rounds` lists of items from `pool`, each a small edit (append, removal, swap, cut) of one of
 * the few lists before it, as steps and strategies change a context: for checking a memo that
 * reuses earlier lists against the same values computed from scratch.
 */
export function* editedLists<T>(pool: readonly T[], rounds: number, seed: number, options: ListEditOptions = {}): Generator<T[]> {
  const random = createRandom(seed);
  const pick = (n: number): number => Math.floor(random.next() * n);
  const versions: T[][] = [[]];
  const edit = (list: T[], kind: number): void => {
    if (kind <= 1 || list.length === 0) list.push(...Array.from({ length: 1 + pick(3) }, () => pool[pick(pool.length)] as T));
    else if (kind === 2) list.splice(pick(list.length), 1);
    else if (kind === 3) list[pick(list.length)] = pool[pick(pool.length)] as T;
    else if (kind === 4) list.length = pick(list.length);
  };
  for (let round = 0; round < rounds; round++) {
    const list = [...(versions[versions.length - 1 - pick(Math.min(versions.length, 6))] as T[])];
    if (options.severalAtOnce === true) {
      const kinds = Array.from({ length: 1 + pick(3) }, () => pick(6));
      if (kinds.length > 1 && pick(2) === 0) kinds.splice(0, 2, 3, 0);
      for (const kind of kinds) edit(list, kind);
    } else edit(list, pick(6));
    versions.push(list);
    yield list;
  }
}
