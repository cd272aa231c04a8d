import { openRunMemos } from '../../src/memo.js';

/**
 * Each test file is one run for the memos (memo.ts): test/setup.ts opens them before its tests and
 * closes them after, so the oracle tests compare warm memos with computing from scratch, and what
 * one file memoized is dropped before the next. A test of the memos' owner closes them first.
 */
let close: (() => void) | undefined;

export function openTestMemos(): void {
  close ??= openRunMemos();
}

export function closeTestMemos(): void {
  close?.();
  close = undefined;
}
