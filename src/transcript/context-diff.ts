import { memosEnabled } from '../memo.js';
import type { ContextMessage } from './types.js';

/**
 * What changed from one request's messages to the next: the step loop computes one per step,
 * between the context sent at the last step and the one the strategy prepared now, and hands it
 * to every consumer that keeps per-message work from one step to the next (the step's token
 * count and hidden tokens, the prompt cache's parts, the follow-up check, retention; see
 * docs/performance.md for what no step diff reaches and memoises instead). Messages are frozen
 * once they enter a run (freeze.ts), so the same object is the same message: they compare by
 * identity.
 *
 * A step's context is `before` with the messages from `shared` to `before.length - kept` replaced
 * by `added`: a step that appends has `kept` 0 and nothing removed; a strategy that drops the head
 * has `shared` 0 and keeps the tail; one that rewrites a message in the middle removes and adds
 * that one. Both lists are snapshots (a strategy may change its own arrays after a step).
 *
 * In a run without memos (`--no-memo`) a diff shares nothing: every consumer takes the whole of
 * `before` out and the whole of `after` in, which is computing the step from scratch.
 */
export interface ContextDiff {
  /** The messages of the last request (the consumers' state stands for this list). */
  readonly before: readonly ContextMessage[];
  /** The messages of this request. */
  readonly after: readonly ContextMessage[];
  /** How many leading messages both lists share: the same objects in the same order. */
  readonly shared: number;
  /** How many trailing messages both share after those. */
  readonly kept: number;
}

/** The diff from `before` to `after`; both are copied (see `ContextDiff`). */
export function diffContexts(before: readonly ContextMessage[], after: readonly ContextMessage[]): ContextDiff {
  const limit = memosEnabled() ? Math.min(before.length, after.length) : 0;
  let shared = 0;
  while (shared < limit && before[shared] === after[shared]) shared++;
  let kept = 0;
  while (kept < limit - shared && before[before.length - 1 - kept] === after[after.length - 1 - kept]) kept++;
  return { before: snapshot(before), after: snapshot(after), shared, kept };
}

const EMPTY: readonly ContextMessage[] = Object.freeze([]);

/** The diff that builds `after` from nothing (a consumer's first step). */
export function wholeContext(after: readonly ContextMessage[]): ContextDiff {
  return diffContexts(EMPTY, after);
}

/** `list` as a frozen array of its own (a frozen list is its own snapshot). */
function snapshot(list: readonly ContextMessage[]): readonly ContextMessage[] {
  return Object.isFrozen(list) ? list : Object.freeze(list.slice());
}

/** Where the removed messages are in `before`: from `shared` to this end (exclusive). */
export function removedEnd(diff: ContextDiff): number {
  return diff.before.length - diff.kept;
}

/** Where the added messages are in `after`: from `shared` to this end (exclusive). */
export function addedEnd(diff: ContextDiff): number {
  return diff.after.length - diff.kept;
}

/**
 * `diff` as seen by a consumer whose state stands for `held` (the `after` of the last diff it
 * applied): the diff itself, or the diff from `held` when the consumer skipped a step (retention
 * measures only the steps sent without a crash).
 */
export function diffFrom(held: readonly ContextMessage[], diff: ContextDiff): ContextDiff {
  return diff.before === held ? diff : diffContexts(held, diff.after);
}

/**
 * Per-message values aligned with a context, carried along its diffs: the values of `diff.before`
 * (`values`, changed in place) become those of `diff.after`; only added messages are computed.
 * `drop` is told each removed value (to take it out of a sum or counts).
 */
export function carryValues<V>(values: V[], diff: ContextDiff, compute: (message: ContextMessage) => V, drop?: (value: V) => void): V[] {
  const { shared, after } = diff;
  const end = removedEnd(diff);
  if (drop !== undefined) for (let i = shared; i < end; i++) drop(values[i] as V);
  const added: V[] = [];
  for (let i = shared; i < addedEnd(diff); i++) added.push(compute(after[i] as ContextMessage));
  if (end === values.length) {
    values.length = shared;
    for (const value of added) values.push(value);
    return values;
  }
  const tail = values.slice(end);
  values.length = shared;
  for (const value of added) values.push(value);
  for (const value of tail) values.push(value);
  return values;
}
