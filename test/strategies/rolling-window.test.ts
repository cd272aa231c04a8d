import { describe, expect, it } from 'vitest';
import { rollingWindow } from '../../src/strategies/rolling-window.js';
import { dialectFamily } from '../../src/strategies/helpers/isolation.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import type { ContextMessage, Dialect, TranscriptEvent } from '../../src/transcript/types.js';

const threeGroups: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1'),
  msg.user('u2'),
  msg.assistant('a2'),
  msg.user('u3'),
  msg.call('a3', 'c3'),
  msg.tool('t3', 'c3'),
];

describe('rolling-window', () => {
  const table: { name: string; groups?: number; events: TranscriptEvent[]; expected: string[]; dropped: boolean }[] = [
    {
      name: 'keeps everything when the history has fewer groups',
      groups: 4,
      events: threeGroups,
      expected: ['s', 'u1', 'a1', 't1', 'u2', 'a2', 'u3', 'a3', 't3'],
      dropped: false,
    },
    { name: 'keeps the system prompt and the last 2 groups', groups: 2, events: threeGroups, expected: ['s', 'u2', 'a2', 'u3', 'a3', 't3'], dropped: true },
    {
      name: 'keeps only the newest group with N = 1, call and result together',
      groups: 1,
      events: threeGroups,
      expected: ['s', 'u3', 'a3', 't3'],
      dropped: true,
    },
    { name: 'N = 0 keeps the whole history', groups: 0, events: threeGroups, expected: ['s', 'u1', 'a1', 't1', 'u2', 'a2', 'u3', 'a3', 't3'], dropped: false },
    { name: 'defaults to 4 groups', events: threeGroups, expected: ['s', 'u1', 'a1', 't1', 'u2', 'a2', 'u3', 'a3', 't3'], dropped: false },
    {
      name: 'undo removes the newest group before the window is applied',
      groups: 2,
      events: [...threeGroups, { type: 'control', action: 'undo' }],
      expected: ['s', 'u1', 'a1', 't1', 'u2', 'a2'],
      dropped: false,
    },
    {
      name: 'undo, then the window still drops what is older',
      groups: 1,
      events: [...threeGroups, { type: 'control', action: 'undo' }],
      expected: ['s', 'u2', 'a2'],
      dropped: true,
    },
    {
      name: 'drop-group removes the group it names, call and result with it',
      groups: 4,
      events: [...threeGroups, { type: 'control', action: 'drop-group', group: 0 }],
      expected: ['s', 'u2', 'a2', 'u3', 'a3', 't3'],
      dropped: false,
    },
    {
      name: 'drop-group of a middle group, then the window',
      groups: 1,
      events: [...threeGroups, { type: 'control', action: 'drop-group', group: 2 }],
      expected: ['s', 'u2', 'a2'],
      dropped: true,
    },
    {
      name: 'drop-group of a group that does not exist changes nothing',
      groups: 4,
      events: [...threeGroups, { type: 'control', action: 'drop-group', group: 7 }],
      expected: ['s', 'u1', 'a1', 't1', 'u2', 'a2', 'u3', 'a3', 't3'],
      dropped: false,
    },
  ];
  it.each(table)('$name', async ({ groups, events, expected, dropped }) => {
    const { context, harness } = await replay(rollingWindow, groups === undefined ? {} : { groups }, events);
    expect(ids(context)).toEqual(expected);
    expect(harness.actions.some((a) => a.action === 'drop')).toBe(dropped);
  });

  it('reports tokens before and after a drop, the after smaller', async () => {
    const { harness } = await replay(rollingWindow, { groups: 1 }, threeGroups);
    const drop = harness.actions.find((a) => a.action === 'drop');
    expect(drop?.tokensAfter).toBeLessThan(drop?.tokensBefore ?? 0);
  });

  it('rejects a negative window', () => {
    expect(rollingWindow.options.safeParse({ groups: -1 }).success).toBe(false);
  });
});

/** The event as recorded in a provider format. */
const inDialect = (event: TranscriptEvent, dialect: string): TranscriptEvent => ({ ...event, dialect: dialect as Dialect }) as TranscriptEvent;
const switchTo = (dialect: Dialect): TranscriptEvent => ({ type: 'control', action: 'switch-dialect', dialect });

const openaiThenGemini: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  inDialect({ ...msg.call('a1', 'c1'), text: 'Reading the config first.' } as TranscriptEvent, 'openai'),
  inDialect(msg.tool('t1', 'c1'), 'openai'),
  inDialect(msg.call('a2', 'c2'), 'openai'),
  inDialect(msg.tool('t2', 'c2'), 'openai'),
  inDialect(msg.assistant('a3', 'The config sets retries to 3.'), 'openai'),
  switchTo('gemini'),
  msg.user('u2'),
  inDialect({ ...msg.call('a4', 'c4'), thoughtSignature: 'sig-4' } as TranscriptEvent, 'gemini'),
  inDialect(msg.tool('t4', 'c4'), 'gemini'),
];

describe('rolling-window tool-call isolation', () => {
  const table: { name: string; events: TranscriptEvent[]; expected: string[]; isolated: boolean }[] = [
    {
      name: 'after a switch, calls and results of the other format go; text is kept (a1 loses its call, a2 had only a call)',
      events: openaiThenGemini,
      expected: ['s', 'u1', 'a1', 'a3', 'u2', 'a4', 't4'],
      isolated: true,
    },
    {
      name: 'without a switch nothing is isolated',
      events: openaiThenGemini.filter((e) => e.type !== 'control'),
      expected: ['s', 'u1', 'a1', 't1', 'a2', 't2', 'a3', 'u2', 'a4', 't4'],
      isolated: false,
    },
    {
      name: 'switching back to the first format isolates the other one instead',
      events: [...openaiThenGemini, switchTo('openai')],
      expected: ['s', 'u1', 'a1', 't1', 'a2', 't2', 'a3', 'u2'],
      isolated: true,
    },
    {
      name: "Gemini's two formats (API and CLI recording) are one family",
      events: [
        msg.user('u1'),
        inDialect(msg.call('a1', 'c1'), 'gemini-cli'),
        inDialect(msg.tool('t1', 'c1'), 'gemini-cli'),
        switchTo('gemini'),
        msg.user('u2'),
      ],
      expected: ['u1', 'a1', 't1', 'u2'],
      isolated: false,
    },
    {
      name: 'messages that do not say their format are kept',
      events: [msg.user('u1'), msg.call('a1', 'c1'), msg.tool('t1', 'c1'), switchTo('openai'), msg.user('u2')],
      expected: ['u1', 'a1', 't1', 'u2'],
      isolated: false,
    },
    {
      name: 'a result recorded in another format takes its call with it',
      events: [msg.user('u1'), inDialect(msg.call('a1', 'c1'), 'gemini'), inDialect(msg.tool('t1', 'c1'), 'openai'), switchTo('gemini'), msg.user('u2')],
      expected: ['u1', 'u2'],
      isolated: true,
    },
  ];
  it.each(table)('$name', async ({ events, expected, isolated }) => {
    const { context, harness } = await replay(rollingWindow, { groups: 0 }, events);
    expect(ids(context)).toEqual(expected);
    expect(harness.actions.some((a) => a.action === 'isolate')).toBe(isolated);
  });

  it('keeps the text of a turn whose calls were isolated, without calls or signature', async () => {
    const { context } = await replay(rollingWindow, { groups: 0 }, openaiThenGemini);
    const a1 = context.find((m) => m.id === 'a1') as ContextMessage;
    expect(a1.text).toBe('Reading the config first.');
    expect(a1.toolCalls).toBeUndefined();
    expect(context.find((m) => m.id === 'a4')?.thoughtSignature).toBe('sig-4');
  });

  it('emits one isolate action, with fewer tokens after, and none again while nothing changes', async () => {
    const harness = createHarness();
    const { state } = await replay(rollingWindow, { groups: 0 }, openaiThenGemini, harness);
    await rollingWindow.prepare(state, harness.env);
    const isolates = harness.actions.filter((a) => a.action === 'isolate');
    expect(isolates).toHaveLength(1);
    expect(isolates[0]?.tokensAfter).toBeLessThan(isolates[0]?.tokensBefore ?? 0);
  });

  it('groups dialects into families', () => {
    expect(['gemini', 'gemini-cli', 'openai', 'anthropic'].map(dialectFamily)).toEqual(['gemini', 'gemini', 'openai', 'anthropic']);
  });

  it('windows a context another stage prepared (transform), with its own memory of the switch', async () => {
    const { state, harness } = await replay(rollingWindow, { groups: 1 }, openaiThenGemini);
    const given = openaiThenGemini.filter((e): e is ContextMessage => e.type === 'message');
    const out = await rollingWindow.transform?.(given, state, harness.env);
    expect(ids(out ?? [])).toEqual(['s', 'u2', 'a4', 't4']);
  });
});

/** A tool result of about `tokens` tokens (one o200k token per repeated word). */
const big = (id: string, callId: string, tokens: number): TranscriptEvent => msg.tool(id, callId, 'lorem '.repeat(tokens));
const parallel = (id: string, callIds: string[]): TranscriptEvent =>
  ({ ...msg.call(id, callIds[0] as string), toolCalls: callIds.map((c) => ({ id: c, name: 'read_file', args: { path: `src/${c}.ts` } })) }) as TranscriptEvent;

// One user turn, then three rounds of ~1,000 tokens each: a Claude Code session in miniature,
// which 4 groups never cut.
const oneTurn: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  msg.call('a1', 'c1'),
  big('t1', 'c1', 1000),
  parallel('a2', ['c2a', 'c2b']),
  big('t2a', 'c2a', 500),
  big('t2b', 'c2b', 500),
  msg.call('a3', 'c3'),
  big('t3', 'c3', 1000),
];

describe('rolling-window token budget', () => {
  const table: { name: string; window: number; maxShare?: number; expected: string[]; dropped: boolean }[] = [
    { name: 'a 100k window: ~3k tokens fit half of it, nothing goes', window: 100_000, expected: ids(oneTurn as ContextMessage[]), dropped: false },
    {
      name: 'a 6k window: the budget is 3,000 tokens, the oldest round goes whole',
      window: 6000,
      expected: ['s', 'u1', 'a2', 't2a', 't2b', 'a3', 't3'],
      dropped: true,
    },
    {
      name: 'a 4k window: 2,000 tokens, the parallel round goes with both its results',
      window: 4000,
      expected: ['s', 'u1', 'a3', 't3'],
      dropped: true,
    },
    {
      name: 'below the floor, the system prompt, the newest user message and the latest round stay',
      window: 1000,
      expected: ['s', 'u1', 'a3', 't3'],
      dropped: true,
    },
    {
      name: 'maxShare 0 keeps what the groups keep (the old behaviour)',
      window: 1000,
      maxShare: 0,
      expected: ids(oneTurn as ContextMessage[]),
      dropped: false,
    },
    { name: 'maxShare 1 lets the history use the whole 4k window', window: 4000, maxShare: 1, expected: ids(oneTurn as ContextMessage[]), dropped: false },
  ];
  it.each(table)('$name', async ({ window, maxShare, expected, dropped }) => {
    const { context, harness } = await replay(rollingWindow, maxShare === undefined ? {} : { maxShare }, oneTurn, createHarness({ window }));
    expect(ids(context)).toEqual(expected);
    const drops = harness.actions.filter((a) => a.action === 'drop');
    expect(drops.length > 0).toBe(dropped);
    if (dropped) expect(drops[0]?.reason).toMatch(/^token budget 0\.5 × \(window − hidden prefix\) = \d+ tokens$/);
  });

  it('never separates a call from its result', async () => {
    const { context } = await replay(rollingWindow, {}, oneTurn, createHarness({ window: 5000 }));
    const calls = new Set(context.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id)));
    const results = new Set(context.flatMap((m) => (m.toolCallId === undefined ? [] : [m.toolCallId])));
    expect([...results].sort()).toEqual([...calls].sort());
  });

  it('is a share of the window after the hidden prefix: 8k with a 2k prefix cuts as 6k without', async () => {
    const harness = createHarness({ window: 8000 });
    const count = harness.env.countMessages;
    harness.env.hiddenPrefix = 2000;
    harness.env.countMessages = (messages) => count(messages) + 2000;
    const { context } = await replay(rollingWindow, {}, oneTurn, harness);
    expect(ids(context)).toEqual(['s', 'u1', 'a2', 't2a', 't2b', 'a3', 't3']);
    expect(harness.actions.find((a) => a.action === 'drop')?.reason).toContain('= 3000 tokens');
  });

  it('emits a drop only when what the budget leaves out changes', async () => {
    const { state, harness } = await replay(rollingWindow, {}, oneTurn, createHarness({ window: 4000 }));
    await rollingWindow.prepare(state, harness.env);
    expect(harness.actions.filter((a) => a.action === 'drop')).toHaveLength(1);
    await rollingWindow.observe?.(msg.assistant('a4', 'done'), state, harness.env);
    await rollingWindow.prepare(state, harness.env);
    expect(harness.actions.filter((a) => a.action === 'drop')).toHaveLength(1);
  });

  it('applies after the groups: a window of 1 group is then held to the budget too', async () => {
    const events = [msg.system('s'), msg.user('u0'), msg.assistant('a0'), ...oneTurn.slice(1)];
    const { context, harness } = await replay(rollingWindow, { groups: 1 }, events, createHarness({ window: 4000 }));
    expect(ids(context)).toEqual(['s', 'u1', 'a3', 't3']);
    expect(harness.actions.map((a) => a.reason)).toEqual(['window of 1 groups', expect.stringMatching(/^token budget/)]);
  });
});
