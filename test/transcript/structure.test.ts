import { describe, expect, it } from 'vitest';
import { countSteps, deriveGroups, deriveSteps, findGroup, firstVisibleStep } from '../../src/transcript/structure.js';
import type { MessageEvent, Role, TranscriptEvent } from '../../src/transcript/types.js';

/** A compact event notation: `s1` system, `u1` user, `a1` assistant, `r1` tool result, `T` task, `P` probe. */
function events(...codes: string[]): TranscriptEvent[] {
  const roles: Record<string, Role> = { s: 'system', u: 'user', a: 'assistant', r: 'tool' };
  return codes.map((code): TranscriptEvent => {
    if (code === 'T') return { type: 'task', id: 't', status: 'in_progress' };
    if (code === 'P') return { type: 'probe', probe: { id: 'p', kind: 'recall', question: 'q', expected: { anyOf: ['x'] }, evidence: [], ask: ['end'] } };
    const role = roles[code.charAt(0)] ?? 'user';
    const message: MessageEvent = { type: 'message', id: code, role, text: code };
    return role === 'tool' ? { ...message, toolCallId: 'c' } : message;
  });
}

type GroupRow = [start: number, end: number, user: string | undefined, ids: string[]];

const cases: { name: string; events: TranscriptEvent[]; groups: GroupRow[]; steps: string[] }[] = [
  { name: 'empty', events: [], groups: [], steps: [] },
  {
    name: 'system prompt joins the first user group',
    events: events('s1', 'u1', 'a1', 'r1', 'a2', 'u2', 'a3'),
    groups: [
      [0, 5, 'u1', ['s1', 'u1', 'a1', 'r1', 'a2']],
      [5, 7, 'u2', ['u2', 'a3']],
    ],
    steps: ['a1', 'a2', 'a3'],
  },
  {
    name: 'a transcript that starts with a user message',
    events: events('u1', 'a1', 'u2', 'u3', 'a2'),
    groups: [
      [0, 2, 'u1', ['u1', 'a1']],
      [2, 3, 'u2', ['u2']],
      [3, 5, 'u3', ['u3', 'a2']],
    ],
    steps: ['a1', 'a2'],
  },
  {
    name: 'assistant messages before the first user message stay in group 0',
    events: events('s1', 'a0', 'u1', 'a1'),
    groups: [[0, 4, 'u1', ['s1', 'a0', 'u1', 'a1']]],
    steps: ['a0', 'a1'],
  },
  {
    name: 'no user message: one group',
    events: events('s1', 'a1', 'r1', 'a2'),
    groups: [[0, 4, undefined, ['s1', 'a1', 'r1', 'a2']]],
    steps: ['a1', 'a2'],
  },
  {
    name: 'non-message events belong to the group they fall in',
    events: events('T', 's1', 'u1', 'T', 'a1', 'u2', 'T', 'P'),
    groups: [
      [0, 5, 'u1', ['s1', 'u1', 'a1']],
      [5, 8, 'u2', ['u2']],
    ],
    steps: ['a1'],
  },
];

describe('deriveGroups / deriveSteps', () => {
  it.each(cases)('$name', ({ events: list, groups, steps }) => {
    const derived = deriveGroups(list);
    expect(derived.map((g) => [g.start, g.end, g.userMessageId, g.messageIds])).toEqual(groups);
    expect(derived.map((g) => g.index)).toEqual(groups.map((_, i) => i));
    const stepRefs = deriveSteps(list);
    expect(stepRefs.map((s) => s.messageId)).toEqual(steps);
    for (const step of stepRefs) {
      expect(list[step.eventIndex]).toMatchObject({ type: 'message', role: 'assistant', id: step.messageId });
    }
    expect(stepRefs.map((s) => s.index)).toEqual(steps.map((_, i) => i));
    expect(countSteps(list)).toBe(steps.length);
  });

  it('covers every event exactly once with contiguous groups', () => {
    const list = events('s1', 'T', 'u1', 'a1', 'r1', 'u2', 'a2', 'P');
    const groups = deriveGroups(list);
    list.forEach((_, i) => expect(groups.filter((g) => i >= g.start && i < g.end)).toHaveLength(1));
    expect(findGroup(groups, 6)?.userMessageId).toBe('u2');
    expect(findGroup(groups, 99)).toBeUndefined();
  });
});

describe('firstVisibleStep', () => {
  const list = events('s1', 'u1', 'a1', 'r1', 'a2', 'u2', 'a3');
  it.each([
    [0, 0, 'the system prompt is in the first context'],
    [1, 0, 'a user message is in the context of the next step'],
    [2, 1, 'an assistant message is visible from the step after it'],
    [3, 1, 'a tool result is visible from the step after its call'],
    [5, 2, 'a later user message'],
    [6, 3, 'the last completion is never sent (step 3 does not exist)'],
  ])('event %i → step %i (%s)', (eventIndex, step) => {
    expect(firstVisibleStep(list, eventIndex)).toBe(step);
  });
});
