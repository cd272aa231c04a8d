import { createRandom } from '../../src/random.js';

/**
 * `rounds` lists of items from `pool`, each a small edit (append, removal, swap, cut) of one of
 * the few lists before it, as steps and strategies change a context: for checking a memo that
 * reuses earlier lists against the same values computed from scratch.
 */
export function* editedLists<T>(pool: readonly T[], rounds: number, seed: number): Generator<T[]> {
  const random = createRandom(seed);
  const pick = (n: number): number => Math.floor(random.next() * n);
  const versions: T[][] = [[]];
  for (let round = 0; round < rounds; round++) {
    const list = [...(versions[versions.length - 1 - pick(Math.min(versions.length, 6))] as T[])];
    const edit = pick(6);
    if (edit <= 1 || list.length === 0) list.push(...Array.from({ length: 1 + pick(3) }, () => pool[pick(pool.length)] as T));
    else if (edit === 2) list.splice(pick(list.length), 1);
    else if (edit === 3) list[pick(list.length)] = pool[pick(pool.length)] as T;
    else if (edit === 4) list.length = pick(list.length);
    versions.push(list);
    yield list;
  }
}
