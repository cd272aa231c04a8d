import { describe, expect, it } from 'vitest';
import { addedCount, carryValues, diffContexts, diffFrom, wholeContext, type ContextDiff } from '../../src/transcript/context-diff.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import { createMemoStore, withOwnMemos, withRunMemos } from '../../src/memo.js';
import { editedLists } from '../helpers/list-edits.js';

const m = (id: string): ContextMessage => ({ type: 'message', id, role: 'user', text: id });
const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map(m) as [ContextMessage, ContextMessage, ContextMessage, ContextMessage, ContextMessage];

/** The diff as ids: the shared run, and each change as what it removes and what it adds. */
function shape(diff: ContextDiff): { shared: number; changes: { removed: string[]; added: string[] }[] } {
  const ids = (list: readonly ContextMessage[], from: number, n: number) => list.slice(from, from + n).map((x) => x.id);
  return {
    shared: diff.shared,
    changes: diff.changes.map((change) => ({ removed: ids(diff.before, change.from, change.removed), added: ids(diff.after, change.to, change.added) })),
  };
}

/** `diff.before` with the diff's changes made (should be `diff.after`), checking that they are in order and never touch. */
function applied(diff: ContextDiff): readonly ContextMessage[] {
  const out: ContextMessage[] = [];
  let at = 0;
  for (const [k, { from, removed, to, added }] of diff.changes.entries()) {
    if (k > 0 && from <= at) throw new Error(`change ${k} touches the one before`);
    if (removed + added === 0) throw new Error(`change ${k} changes nothing`);
    out.push(...diff.before.slice(at, from));
    if (out.length !== to) throw new Error(`change ${k} adds at ${to}, the list is at ${out.length}`);
    out.push(...diff.after.slice(to, to + added));
    at = from + removed;
  }
  return [...out, ...diff.before.slice(at)];
}

const one = (removed: string[], added: string[]) => ({ removed, added });

describe('diffContexts', () => {
  it.each([
    { name: 'append', before: [a, b], after: [a, b, c, d], expected: { shared: 2, changes: [one([], ['c', 'd'])] } },
    { name: 'replace in the middle', before: [a, b, c, d], after: [a, e, c, d], expected: { shared: 1, changes: [one(['b'], ['e'])] } },
    { name: 'drop the head', before: [a, b, c, d], after: [c, d], expected: { shared: 0, changes: [one(['a', 'b'], [])] } },
    { name: 'a summary in place of the head', before: [a, b, c, d], after: [e, d], expected: { shared: 0, changes: [one(['a', 'b', 'c'], ['e'])] } },
    { name: 'identical', before: [a, b, c], after: [a, b, c], expected: { shared: 3, changes: [] } },
    { name: 'empty before', before: [], after: [a, b], expected: { shared: 0, changes: [one([], ['a', 'b'])] } },
    { name: 'empty after', before: [a, b], after: [], expected: { shared: 0, changes: [one(['a', 'b'], [])] } },
    { name: 'both empty', before: [], after: [], expected: { shared: 0, changes: [] } },
    // A copy with the same text is another message: messages compare by identity.
    { name: 'a copy is a replacement', before: [a, b], after: [a, { ...b }], expected: { shared: 1, changes: [one(['b'], ['b'])] } },
    // Observation masking: an old result rewritten, the step's messages appended; what is between stays.
    { name: 'rewrite in the middle and append', before: [a, b, c], after: [a, e, c, d], expected: { shared: 1, changes: [one(['b'], ['e']), one([], ['d'])] } },
    { name: 'two removals', before: [a, b, c, d, e], after: [a, c, e], expected: { shared: 1, changes: [one(['b'], []), one(['d'], [])] } },
    {
      name: 'a message moved to the end is removed and added',
      before: [a, b, c],
      after: [a, c, b],
      expected: { shared: 1, changes: [one(['b'], []), one([], ['b'])] },
    },
    { name: 'a message sent twice', before: [a, b, a, c], after: [a, a, c, b], expected: { shared: 1, changes: [one(['b'], []), one([], ['b'])] } },
  ])('$name', ({ before, after, expected }) => withRunMemos({}, async () => expect(shape(diffContexts(before, after))).toEqual(expected)));

  it('keeps frozen snapshots: the strategy may go on changing its own arrays', () =>
    withRunMemos({}, async () => {
      const list = [a, b];
      const diff = diffContexts([], list);
      list.push(c);
      expect(diff.after.map((x) => x.id)).toEqual(['a', 'b']);
      expect(Object.isFrozen(diff.after)).toBe(true);
      // The next step's diff starts from the snapshot, not from the array as the strategy left it.
      expect(shape(diffContexts(diff.after, list))).toEqual({ shared: 2, changes: [one([], ['c'])] });
    }));

  it('shares nothing when memos are off (--no-memo: every consumer computes the step from scratch)', () =>
    // A run with memos off has a store of its own, in place of the one test/setup.ts gives this file.
    withOwnMemos(createMemoStore({ enabled: false }), async () => {
      expect(shape(diffContexts([a, b, c], [a, b, c, d]))).toEqual({ shared: 0, changes: [one(['a', 'b', 'c'], ['a', 'b', 'c', 'd'])] });
      expect(shape(diffContexts([], []))).toEqual({ shared: 0, changes: [] });
    }));

  it('diffFrom takes the diff again from what a consumer holds when it is not the diff`s before', () =>
    withRunMemos({}, async () => {
      const step1 = diffContexts([], [a, b]);
      const step2 = diffContexts(step1.after, [a, b, c]);
      expect(diffFrom(step1.after, step2)).toBe(step2);
      // A consumer that skipped step 1 still holds nothing.
      expect(shape(diffFrom([], step2))).toEqual({ shared: 0, changes: [one([], ['a', 'b', 'c'])] });
      expect(shape(wholeContext([d]))).toEqual({ shared: 0, changes: [one([], ['d'])] });
    }));
});

describe('diffContexts over random edits', () => {
  it('its changes make `after` of `before`, and add no more than the run between the shared head and tail', () =>
    withRunMemos({}, async () => {
      const pool = Array.from({ length: 30 }, (_, i) => m(`m${i}`));
      let held: readonly ContextMessage[] = [];
      let several = 0;
      for (const list of editedLists(pool, 2000, 11, { severalAtOnce: true })) {
        const diff = diffContexts(held, list);
        expect(applied(diff)).toEqual(list);
        expect(diff.changes[0]?.from ?? Math.min(held.length, list.length)).toBe(diff.shared);
        let kept = 0;
        while (kept < Math.min(held.length, list.length) - diff.shared && held[held.length - 1 - kept] === list[list.length - 1 - kept]) kept++;
        expect(addedCount(diff)).toBeLessThanOrEqual(Math.max(0, list.length - diff.shared - kept));
        if (diff.changes.length > 1) several += 1;
        held = diff.after;
      }
      expect(several).toBeGreaterThan(200);
    }));
});

describe('carryValues', () => {
  it('gives the values a map of each list gives, list after list, whatever the edits', () =>
    withRunMemos({}, async () => {
      const pool = Array.from({ length: 12 }, (_, i) => m(`m${i}`));
      let values: string[] = [];
      let held: readonly ContextMessage[] = [];
      let sum = 0;
      let computed = 0;
      let items = 0;
      const length = (x: ContextMessage) => x.text.length;
      for (const list of editedLists(pool, 400, 5, { severalAtOnce: true })) {
        const diff = diffContexts(held, list);
        values = carryValues(
          values,
          diff,
          (x) => {
            computed += 1;
            sum += length(x);
            return x.id;
          },
          (id, message) => {
            // Each removed value comes with the message it was of.
            expect(message.id).toBe(id);
            sum -= id.length;
          },
        );
        held = diff.after;
        items += list.length;
        expect(values).toEqual(list.map((x) => x.id));
        expect(sum).toBe(list.reduce((n, x) => n + length(x), 0));
      }
      // Only what the diffs added was computed, not every item of every list (these edits often go
      // back to a list a few versions old, which a step never does).
      expect(computed).toBeLessThan(items * 0.75);
    }));
});
