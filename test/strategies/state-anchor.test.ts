import { describe, expect, it } from 'vitest';
import { parseStateBlock, stateAnchor } from '../../src/strategies/state-anchor.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import type { ContextMessage, TranscriptEvent } from '../../src/transcript/types.js';
import type { CompletionResult } from '../../src/contracts/provider.js';

const STATE_1 = [
  '### STATE',
  'Goal: fix the flaky warehouse test',
  'Context: CI job `unit` on main',
  'Resolved: none yet',
  'Technical anchors: src/inventory/warehouse.ts:42',
].join('\n');
const STATE_2 = [
  'Done with the first part.',
  '### STATE',
  'Goal: fix the flaky warehouse test',
  'Resolved: the race in countWarehouse',
  'Anchors: WAREHOUSE_TIMEOUT=30s',
  '### NEXT',
  'run the suite',
].join('\n');

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
  const table: { name: string; groups?: number; rebuildAfter?: number; events: TranscriptEvent[]; expected: string[] }[] = [
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
    {
      name: 'without a state block, notes or rebuilds it is a rolling window',
      groups: 1,
      rebuildAfter: 0,
      events: [msg.system('s'), msg.user('u1'), msg.assistant('a1'), msg.user('u2'), msg.assistant('a2')],
      expected: ['s', 'u2', 'a2'],
    },
    {
      name: 'a state block written by the user is not the agent state',
      groups: 1,
      rebuildAfter: 0,
      events: [msg.system('s'), msg.user('u1', STATE_1), msg.user('u2')],
      expected: ['s', 'u2'],
    },
    {
      name: 'undo honoured by the window; the state block, once seen, persists',
      groups: 2,
      events: [...session, { type: 'control', action: 'undo' }],
      expected: ['s', 'state-anchor:state', 'state-anchor:scratchpad', 'u2', 'a2', 't2', 'u3', 'a3'],
    },
  ];
  it.each(table)('$name', async ({ groups, rebuildAfter, events, expected }) => {
    const { context } = await replay(
      stateAnchor,
      { ...(groups === undefined ? {} : { groups }), ...(rebuildAfter === undefined ? {} : { rebuildAfter }) },
      events,
    );
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

  const WRITTEN = '### STATE\nGoal: ship the parser\nContext: src/parse.ts\nResolved: lexer done\nTechnical anchors: MAX_DEPTH=64';
  const written = (): CompletionResult => ({ ok: true, text: WRITTEN, toolCalls: [], usage: { input: 100, cachedInput: 0, output: 30, reasoning: 0 } });
  const groupsOf = (n: number): TranscriptEvent[] => [
    msg.system('s'),
    ...Array.from({ length: n }, (_, i) => [msg.user(`u${i + 1}`), msg.assistant(`a${i + 1}`)]).flat(),
  ];

  const rebuilds: { name: string; groups: number; rebuildAfter?: number; rebuildAt?: number; events: TranscriptEvent[]; calls: number; sent?: string[] }[] = [
    { name: 'no call while the window cuts nothing', groups: 3, events: groupsOf(3), calls: 0 },
    {
      name: 'the model writes the block once the window cuts and none exists, from the whole history',
      groups: 2,
      events: groupsOf(3),
      calls: 1,
      sent: ['s', 'u1', 'a1', 'u2', 'a2', 'u3', 'a3'],
    },
    {
      name: 'a fresh block the agent wrote is anchored without a call',
      groups: 1,
      events: [msg.system('s'), msg.user('u1'), msg.user('u2'), msg.assistant('a2', STATE_1)],
      calls: 0,
    },
    {
      name: 'a stale block is rebuilt from the previous block and the messages since it',
      groups: 1,
      rebuildAfter: 2,
      events: [msg.system('s'), msg.user('u1'), msg.assistant('a1', STATE_1), msg.user('u2'), msg.assistant('a2'), msg.user('u3')],
      calls: 1,
      sent: ['s', 'state-anchor:previous', 'u2', 'a2', 'u3'],
    },
    { name: 'rebuildAfter 0 never calls', groups: 1, rebuildAfter: 0, events: groupsOf(4), calls: 0 },
    {
      name: 'a context at rebuildAt of the window is anchored though the window cuts nothing',
      groups: 3,
      rebuildAt: 0.0001,
      events: groupsOf(2),
      calls: 1,
      sent: ['s', 'u1', 'a1', 'u2', 'a2'],
    },
    {
      name: 'a manual /compact rebuilds even when the window cuts nothing',
      groups: 3,
      events: [...groupsOf(1), { type: 'control', action: 'compact' }],
      calls: 1,
      sent: ['s', 'u1', 'a1'],
    },
  ];
  it.each(rebuilds)('rebuild: $name', async ({ groups, rebuildAfter, rebuildAt, events, calls, sent }) => {
    const harness = createHarness({ answer: written });
    const { context } = await replay(
      stateAnchor,
      { groups, ...(rebuildAfter === undefined ? {} : { rebuildAfter }), ...(rebuildAt === undefined ? {} : { rebuildAt }) },
      events,
      harness,
    );
    expect(harness.calls).toHaveLength(calls);
    if (sent !== undefined) expect(ids(harness.calls[0]?.messages ?? [])).toEqual(sent);
    const anchors = harness.actions.filter((a) => a.action === 'anchor');
    expect(anchors).toHaveLength(calls);
    if (calls > 0) {
      expect(harness.calls[0]?.purpose).toBe('summary');
      expect(textOf(context, 'state-anchor:state')).toContain('Technical anchors: MAX_DEPTH=64');
      expect(anchors[0]?.detail).toBe('fields: goal, context, resolved, anchors');
    }
  });

  it('rebuilds once per stale period, not at every step', async () => {
    const harness = createHarness({ answer: written });
    const opts = stateAnchor.options.parse({ groups: 1, rebuildAfter: 2 });
    const state = stateAnchor.init(opts, { sessionId: 'x', window: 100_000 });
    for (const event of groupsOf(6)) {
      if (event.type === 'message' && event.role === 'assistant') await stateAnchor.prepare(state, harness.env);
      await stateAnchor.observe?.(event, state, harness.env);
    }
    // Steps at 1..6 groups: the window cuts from 2 groups on; rebuilt at 2, then 2 groups later at 4 and 6.
    expect(harness.actions.filter((a) => a.action === 'anchor').map((a) => a.reason)).toEqual([
      'no STATE block exists',
      'the STATE block is 2 groups old',
      'the STATE block is 2 groups old',
    ]);
  });

  it('a failed rebuild call leaves the window as it was and anchors nothing', async () => {
    const harness = createHarness({ answer: () => ({ ok: false, failure: { kind: 'server', message: 'boom', status: 500 } }) as CompletionResult });
    const { context } = await replay(stateAnchor, { groups: 1 }, groupsOf(3), harness);
    expect(ids(context)).toEqual(['s', 'u3', 'a3']);
    expect(harness.actions.map((a) => a.action)).toEqual(['note', 'drop']);
  });
});
