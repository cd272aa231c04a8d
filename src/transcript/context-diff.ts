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
 * A step's context is `before` with each of `changes` applied: a run of messages removed and a
 * run added in their place, the messages between two changes the same objects in the same order.
 * A step that appends has one change at the end that removes nothing; a strategy that drops the
 * head has one at the start that adds nothing; one that rewrites a message in the middle and
 * appends the step's messages (observation masking, clearing a tool result, condensing) has two,
 * and every message between them is left as it was. Both lists are snapshots (a strategy may
 * change its own arrays after a step).
 *
 * In a run without memos (`--no-memo`) a diff shares nothing: one change removes the whole of
 * `before` and adds the whole of `after`, which is computing the step from scratch.
 */
export interface ContextDiff {
  /** The messages of the last request (the consumers' state stands for this list). */
  readonly before: readonly ContextMessage[];
  /** The messages of this request. */
  readonly after: readonly ContextMessage[];
  /** The changed runs, in order (none: the lists are the same). */
  readonly changes: readonly ContextChange[];
  /** How many leading messages both lists share (where the first change is; the length of both when none). */
  readonly shared: number;
}

/**
 * One changed run: `removed` messages of `before` from `from` replaced by `added` messages of
 * `after` from `to`. Changes never touch: between two, at least one message is the same in both.
 */
export interface ContextChange {
  readonly from: number;
  readonly removed: number;
  readonly to: number;
  readonly added: number;
}

/** The diff from `before` to `after`; both are copied (see `ContextDiff`). */
export function diffContexts(before: readonly ContextMessage[], after: readonly ContextMessage[]): ContextDiff {
  const frozenBefore = snapshot(before);
  const frozenAfter = snapshot(after);
  if (!memosEnabled()) {
    const changes = before.length + after.length === 0 ? [] : [{ from: 0, removed: before.length, to: 0, added: after.length }];
    return { before: frozenBefore, after: frozenAfter, changes, shared: 0 };
  }
  const limit = Math.min(before.length, after.length);
  let shared = 0;
  while (shared < limit && before[shared] === after[shared]) shared++;
  let kept = 0;
  while (kept < limit - shared && before[before.length - 1 - kept] === after[after.length - 1 - kept]) kept++;
  const changes = changesBetween(before, after, shared, before.length - kept, after.length - kept);
  return { before: frozenBefore, after: frozenAfter, changes, shared };
}

/**
 * The changes that make `after[start, afterEnd)` of `before[start, beforeEnd)`: each message of
 * `after` is matched, in order, to its first occurrence in `before` past the last one matched
 * (a common subsequence, not always the longest: a message moved forward is removed where it was
 * and added again). Whatever lies between two matches is a change.
 */
function changesBetween(
  before: readonly ContextMessage[],
  after: readonly ContextMessage[],
  start: number,
  beforeEnd: number,
  afterEnd: number,
): ContextChange[] {
  if (start === beforeEnd && start === afterEnd) return [];
  if (start === beforeEnd || start === afterEnd) return [{ from: start, removed: beforeEnd - start, to: start, added: afterEnd - start }];
  // Each message's first position in the span not yet passed, and each position's next one of the
  // same message (a message may be there twice): a lookup passes each position once at most.
  const nextAt = new Map<ContextMessage, number>();
  const next = new Int32Array(beforeEnd - start);
  for (let k = beforeEnd - 1; k >= start; k--) {
    const message = before[k] as ContextMessage;
    next[k - start] = nextAt.get(message) ?? -1;
    nextAt.set(message, k);
  }
  const changes: ContextChange[] = [];
  let i = start;
  let j = start;
  let runFrom = start;
  let runTo = start;
  for (; j < afterEnd && i < beforeEnd; j++) {
    const message = after[j] as ContextMessage;
    let at = nextAt.get(message) ?? -1;
    while (at >= 0 && at < i) at = next[at - start] as number;
    if (at < 0) continue;
    nextAt.set(message, at);
    if (at > runFrom || j > runTo) changes.push({ from: runFrom, removed: at - runFrom, to: runTo, added: j - runTo });
    i = at + 1;
    runFrom = i;
    runTo = j + 1;
  }
  if (runFrom < beforeEnd || runTo < afterEnd) changes.push({ from: runFrom, removed: beforeEnd - runFrom, to: runTo, added: afterEnd - runTo });
  return changes;
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

/** How many messages the diff adds (those its consumers compute). */
export function addedCount(diff: ContextDiff): number {
  return diff.changes.reduce((n, change) => n + change.added, 0);
}

/** How many messages the diff removes. */
export function removedCount(diff: ContextDiff): number {
  return diff.changes.reduce((n, change) => n + change.removed, 0);
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
 * (`values`, which may be changed in place) become those of `diff.after`, returned; only added
 * messages are computed. `drop` is told each removed value and the message it was of (to take it
 * out of a sum or counts), before any added one is computed.
 */
export function carryValues<V>(
  values: V[],
  diff: ContextDiff,
  compute: (message: ContextMessage) => V,
  drop?: (value: V, message: ContextMessage) => void,
): V[] {
  const { changes, before, after } = diff;
  if (drop !== undefined) {
    for (const { from, removed } of changes) for (let i = from; i < from + removed; i++) drop(values[i] as V, before[i] as ContextMessage);
  }
  const last = changes[changes.length - 1];
  if (last === undefined) return values;
  // The common step: one change at the end (an append, a cut tail) is made in place.
  if (changes.length === 1 && last.from + last.removed === values.length) {
    values.length = last.from;
    for (let i = last.to; i < last.to + last.added; i++) values.push(compute(after[i] as ContextMessage));
    return values;
  }
  const carried: V[] = [];
  let at = 0;
  for (const { from, removed, to, added } of changes) {
    for (let i = at; i < from; i++) carried.push(values[i] as V);
    for (let i = to; i < to + added; i++) carried.push(compute(after[i] as ContextMessage));
    at = from + removed;
  }
  for (let i = at; i < values.length; i++) carried.push(values[i] as V);
  return carried;
}
