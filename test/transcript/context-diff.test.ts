import { describe, expect, it } from 'vitest';
import { addedEnd, carryValues, diffContexts, diffFrom, removedEnd, wholeContext, type ContextDiff } from '../../src/transcript/context-diff.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import { createMemoStore, withOwnMemos, withRunMemos } from '../../src/memo.js';
import { editedLists } from '../helpers/list-edits.js';

const m = (id: string): ContextMessage => ({ type: 'message', id, role: 'user', text: id });
const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map(m) as [ContextMessage, ContextMessage, ContextMessage, ContextMessage, ContextMessage];

/** The diff as ids: the shared run, what it removes and what it adds. */
function shape(diff: ContextDiff): { shared: number; kept: number; removed: string[]; added: string[] } {
  const ids = (list: readonly ContextMessage[], from: number, to: number) => list.slice(from, to).map((x) => x.id);
  return {
    shared: diff.shared,
    kept: diff.kept,
    removed: ids(diff.before, diff.shared, removedEnd(diff)),
    added: ids(diff.after, diff.shared, addedEnd(diff)),
  };
}

describe('diffContexts', () => {
  it.each([
    { name: 'append', before: [a, b], after: [a, b, c, d], expected: { shared: 2, kept: 0, removed: [], added: ['c', 'd'] } },
    { name: 'replace in the middle', before: [a, b, c, d], after: [a, e, c, d], expected: { shared: 1, kept: 2, removed: ['b'], added: ['e'] } },
    { name: 'drop the head', before: [a, b, c, d], after: [c, d], expected: { shared: 0, kept: 2, removed: ['a', 'b'], added: [] } },
    { name: 'a summary in place of the head', before: [a, b, c, d], after: [e, d], expected: { shared: 0, kept: 1, removed: ['a', 'b', 'c'], added: ['e'] } },
    { name: 'identical', before: [a, b, c], after: [a, b, c], expected: { shared: 3, kept: 0, removed: [], added: [] } },
    { name: 'empty before', before: [], after: [a, b], expected: { shared: 0, kept: 0, removed: [], added: ['a', 'b'] } },
    { name: 'empty after', before: [a, b], after: [], expected: { shared: 0, kept: 0, removed: ['a', 'b'], added: [] } },
    { name: 'both empty', before: [], after: [], expected: { shared: 0, kept: 0, removed: [], added: [] } },
    // A copy with the same text is another message: messages compare by identity.
    { name: 'a copy is a replacement', before: [a, b], after: [a, { ...b }], expected: { shared: 1, kept: 0, removed: ['b'], added: ['b'] } },
  ])('$name', ({ before, after, expected }) => withRunMemos({}, async () => expect(shape(diffContexts(before, after))).toEqual(expected)));

  it('keeps frozen snapshots: the strategy may go on changing its own arrays', () =>
    withRunMemos({}, async () => {
      const list = [a, b];
      const diff = diffContexts([], list);
      list.push(c);
      expect(diff.after.map((x) => x.id)).toEqual(['a', 'b']);
      expect(Object.isFrozen(diff.after)).toBe(true);
      // The next step's diff starts from the snapshot, not from the array as the strategy left it.
      expect(shape(diffContexts(diff.after, list))).toEqual({ shared: 2, kept: 0, removed: [], added: ['c'] });
    }));

  it('shares nothing when memos are off (--no-memo: every consumer computes the step from scratch)', () =>
    // A run with memos off has a store of its own, in place of the one test/setup.ts gives this file.
    withOwnMemos(createMemoStore({ enabled: false }), async () => {
      expect(shape(diffContexts([a, b, c], [a, b, c, d]))).toEqual({ shared: 0, kept: 0, removed: ['a', 'b', 'c'], added: ['a', 'b', 'c', 'd'] });
    }));

  it('diffFrom takes the diff again from what a consumer holds when it is not the diff`s before', () =>
    withRunMemos({}, async () => {
      const step1 = diffContexts([], [a, b]);
      const step2 = diffContexts(step1.after, [a, b, c]);
      expect(diffFrom(step1.after, step2)).toBe(step2);
      // A consumer that skipped step 1 still holds nothing.
      expect(shape(diffFrom([], step2))).toEqual({ shared: 0, kept: 0, removed: [], added: ['a', 'b', 'c'] });
      expect(shape(wholeContext([d]))).toEqual({ shared: 0, kept: 0, removed: [], added: ['d'] });
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
      for (const list of editedLists(pool, 400, 5)) {
        const diff = diffContexts(held, list);
        values = carryValues(
          values,
          diff,
          (x) => {
            computed += 1;
            sum += length(x);
            return x.id;
          },
          (id) => (sum -= id.length),
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
