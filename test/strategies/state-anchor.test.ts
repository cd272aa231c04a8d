import { describe, expect, it } from 'vitest';
import { parseStateBlock, stateAnchor } from '../../src/strategies/state-anchor.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import type { ContextMessage, TranscriptEvent } from '../../src/transcript/types.js';

const STATE_1 = ['### STATE', 'Goal: fix the flaky warehouse test', 'Context: CI job `unit` on main', 'Resolved: none yet', 'Technical anchors: src/inventory/warehouse.ts:42'].join('\n');
const STATE_2 = ['Done with the first part.', '### STATE', 'Goal: fix the flaky warehouse test', 'Resolved: the race in countWarehouse', 'Anchors: WAREHOUSE_TIMEOUT=30s', '### NEXT', 'run the suite'].join('\n');

const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  msg.assistant('a1', STATE_1),
  msg.user('u2'),
  msg.call('a2', 'c2'),
  msg.tool('t2', 'c2'),
  msg.user('u3'),
  msg.assistant('a3', 'Looking at it.\nNOTE: the staging DB is read-only'),
  msg.user('u4'),
  msg.assistant('a4'),
];

const textOf = (context: readonly ContextMessage[], id: string): string | undefined => context.find((m) => m.id === id)?.text;

describe('state-anchor', () => {
  const table: { name: string; groups?: number; events: TranscriptEvent[]; expected: string[] }[] = [
    {
      name: 'injects the state block after the system prompt once its message left the window, with the scratchpad beside it',
      groups: 1,
      events: session,
      expected: ['s', 'state-anchor:state', 'state-anchor:scratchpad', 'u4', 'a4'],
    },
    {
      name: 'keeps the last 3 groups by default, call and result together',
      events: session,
      expected: ['s', 'state-anchor:state', 'state-anchor:scratchpad', 'u2', 'a2', 't2', 'u3', 'a3', 'u4', 'a4'],
    },
    { name: 'without a state block or notes it is a rolling window', groups: 1, events: [msg.system('s'), msg.user('u1'), msg.assistant('a1'), msg.user('u2'), msg.assistant('a2')], expected: ['s', 'u2', 'a2'] },
    { name: 'a state block written by the user is not the agent state', groups: 1, events: [msg.system('s'), msg.user('u1', STATE_1), msg.user('u2')], expected: ['s', 'u2'] },
    {
      name: 'undo honoured by the window; the state block, once seen, persists',
      groups: 2,
      events: [...session, { type: 'control', action: 'undo' }],
      expected: ['s', 'state-anchor:state', 'state-anchor:scratchpad', 'u2', 'a2', 't2', 'u3', 'a3'],
    },
  ];
  it.each(table)('$name', async ({ groups, events, expected }) => {
    const { context } = await replay(stateAnchor, groups === undefined ? {} : { groups }, events);
    expect(ids(context)).toEqual(expected);
  });

  it('carries the latest block verbatim, up to the next heading, and the notes', async () => {
    const { context } = await replay(stateAnchor, { groups: 1 }, [...session, msg.assistant('a5', STATE_2)]);
    const state = textOf(context, 'state-anchor:state') ?? '';
    expect(state).toContain('latest from message a5');
    expect(state).toContain('Resolved: the race in countWarehouse');
    expect(state).not.toContain('CI job `unit`');
    expect(state).not.toContain('run the suite');
    expect(textOf(context, 'state-anchor:scratchpad')).toContain('- the staging DB is read-only');
  });

  it('emits a note when the state block changes, naming the fields found, and not when it repeats', async () => {
    const harness = createHarness();
    await replay(stateAnchor, {}, [msg.user('u1'), msg.assistant('a1', STATE_1), msg.assistant('a2', STATE_1), msg.assistant('a3', STATE_2)], harness);
    const notes = harness.actions.filter((a) => a.action === 'note');
    expect(notes.map((a) => a.reason)).toEqual(['state block updated from a1', 'state block updated from a3']);
    expect(notes[0]?.detail).toBe('fields: goal, context, resolved, anchors');
  });

  it('anchors a context another stage prepared (transform)', async () => {
    const { state, harness } = await replay(stateAnchor, { groups: 1 }, session);
    const out = await stateAnchor.transform?.([msg.system('s') as ContextMessage, msg.user('u9') as ContextMessage], state, harness.env);
    expect(ids(out ?? [])).toEqual(['s', 'state-anchor:state', 'state-anchor:scratchpad', 'u9']);
  });

  const parses: { text: string; block?: string; fields?: string[] }[] = [
    { text: 'no block here' },
    { text: '### STATE\n\n### NEXT' },
    { text: STATE_1, block: STATE_1.split('\n').slice(1).join('\n'), fields: ['goal', 'context', 'resolved', 'anchors'] },
    { text: 'intro\n### STATE (v2)\n- **Goal**: ship it\n## Plan\nlater', block: '- **Goal**: ship it', fields: ['goal'] },
    { text: '### STATE\nGoal: old\n### STATE\nGoal: new', block: 'Goal: new', fields: ['goal'] },
  ];
  it.each(parses)('parses the state block of $text', ({ text, block, fields }) => {
    const parsed = parseStateBlock(text);
    expect(parsed?.text).toBe(block);
    expect(parsed?.fields).toEqual(fields);
  });
});
