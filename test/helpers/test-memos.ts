import { createMemoStore, enterMemoStore, type MemoStore } from '../../src/memo.js';

/**
 * Each test file is one run for the memos (memo.ts): test/setup.ts gives it a store of its own
 * before its tests and drops it after, so the oracle tests compare warm memos with computing from
 * scratch, and what one file memoized is dropped before the next. A test of the memos' owner
 * leaves it first.
 */
let store: MemoStore | undefined;

export function openTestMemos(): void {
  if (store !== undefined) return;
  store = createMemoStore();
  enterMemoStore(store);
}

export function closeTestMemos(): void {
  store?.drop();
  store = undefined;
  enterMemoStore(undefined);
}
