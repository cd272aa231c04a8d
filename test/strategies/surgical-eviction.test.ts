import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { surgicalEviction, type Options } from '../../src/strategies/surgical-eviction.js';
import { checkResultSummary } from '../../src/strategies/helpers/summary-check.js';
import { findRetrievalHints } from '../../src/strategies/helpers/hints.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import { createProvider } from '../../src/providers/index.js';
import { createSimulator } from '../../src/simulator/transport.js';
import type { Simulator } from '../../src/simulator/types.js';
import type { Provider } from '../../src/contracts/provider.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { ContextMessage, TaskEvent, TranscriptEvent } from '../../src/transcript/types.js';

const SUMMARY = 'Fixed the retry loop in src/net/retry.ts; 12 tests pass.';
const task = (id: string, status: TaskEvent['status'], extra: Partial<TaskEvent> = {}): TranscriptEvent => ({ type: 'task', id, status, ...extra });
/** A thinking, signed tool-calling turn, as a Gemini thinking model records it. */
const call = (id: string, callId: string, signature = `sig-${id}`): TranscriptEvent =>
  ({ ...msg.call(id, callId), thinking: `thinking of ${id}`, thoughtSignature: signature }) as TranscriptEvent;
/** A tool result large enough that its tombstone saves tokens. */
const result = (id: string, callId: string): TranscriptEvent => msg.tool(id, callId, `output line of ${id}: status ok, 200 rows\n`.repeat(40));
const done = (id: string, criteria?: string[]): TranscriptEvent =>
  task(id, 'completed', { resultSummary: SUMMARY, ...(criteria !== undefined ? { criteria } : {}) });

const oneTask: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  task('k1', 'in_progress'),
  call('a1', 'c1'),
  result('r1', 'c1'),
  call('a2', 'c2'),
  result('r2', 'c2'),
  msg.assistant('a3', 'Done: the retry loop is fixed.'),
];

describe('surgical-eviction', () => {
  const table: { name: string; options?: Partial<Options>; events: TranscriptEvent[]; expected: string[]; actions: string[] }[] = [
    {
      name: 'a completed task: its turns become one tombstone, its results tombstones after it',
      events: [...oneTask, done('k1'), msg.user('u2')],
      expected: ['s', 'u1', 'evicted:k1:a1', 'evicted:r1', 'evicted:r2', 'u2'],
      actions: ['evict'],
    },
    { name: 'a task in progress is left raw', events: oneTask, expected: ['s', 'u1', 'a1', 'r1', 'a2', 'r2', 'a3'], actions: [] },
    {
      name: 'a failed task keeps its raw log by default',
      events: [...oneTask, task('k1', 'failed')],
      expected: ['s', 'u1', 'a1', 'r1', 'a2', 'r2', 'a3'],
      actions: ['note'],
    },
    {
      name: 'a failed task is evicted with keepFailed false',
      options: { keepFailed: false },
      events: [...oneTask, task('k1', 'failed')],
      expected: ['s', 'u1', 'evicted:k1:a1', 'evicted:r1', 'evicted:r2'],
      actions: ['evict'],
    },
    {
      name: 'a result whose call came before the task is tombstoned where it stands, after its call',
      events: [
        msg.system('s'),
        msg.user('u1'),
        call('a0', 'c0'),
        task('k1', 'in_progress'),
        result('r0', 'c0'),
        call('a1', 'c1'),
        result('r1', 'c1'),
        done('k1'),
      ],
      expected: ['s', 'u1', 'a0', 'evicted:r0', 'evicted:k1:a1', 'evicted:r1'],
      actions: ['evict'],
    },
    {
      name: 'a turn whose call has no result yet ends the block: it stays raw, and its result follows it',
      events: [
        msg.system('s'),
        msg.user('u1'),
        task('k1', 'in_progress'),
        call('a1', 'c1'),
        result('r1', 'c1'),
        call('a2', 'c2'),
        done('k1'),
        result('r2', 'c2'),
      ],
      expected: ['s', 'u1', 'evicted:k1:a1', 'evicted:r1', 'a2', 'r2'],
      actions: ['evict'],
    },
    {
      name: 'nested tasks: the outer block absorbs the inner one whole',
      events: [
        msg.user('u1'),
        task('outer', 'in_progress'),
        call('a1', 'c1'),
        result('r1', 'c1'),
        task('inner', 'in_progress'),
        call('a2', 'c2'),
        result('r2', 'c2'),
        msg.assistant('a3', 'inner done'),
        done('inner'),
        call('a4', 'c4'),
        result('r4', 'c4'),
        done('outer'),
        msg.user('u2'),
      ],
      expected: ['u1', 'evicted:outer:a1', 'evicted:r1', 'evicted:r2', 'evicted:r4', 'u2'],
      actions: ['evict', 'evict'],
    },
    {
      name: 'interleaved tasks: results tagged with the newer task ride in the older block until their own task completes',
      events: [
        msg.user('u1'),
        task('A', 'in_progress'),
        call('a1', 'c1'),
        result('r1', 'c1'),
        task('B', 'in_progress'),
        call('a2', 'c2'),
        result('r2', 'c2'),
        done('A'),
        call('a3', 'c3'),
        result('r3', 'c3'),
        done('B'),
        msg.user('u2'),
      ],
      expected: ['u1', 'evicted:B:a1', 'evicted:r1', 'evicted:r2', 'evicted:r3', 'u2'],
      actions: ['evict', 'evict'],
    },
    {
      name: 'a range too small to save tokens stays raw',
      events: [msg.user('u1'), task('k1', 'in_progress'), msg.assistant('a1', 'ok'), done('k1')],
      expected: ['u1', 'a1'],
      actions: ['note'],
    },
    {
      name: 'undo after an eviction drops the newest group only',
      events: [...oneTask, done('k1'), msg.user('u2'), msg.assistant('a4'), { type: 'control', action: 'undo' }],
      expected: ['s', 'u1', 'evicted:k1:a1', 'evicted:r1', 'evicted:r2'],
      actions: ['evict'],
    },
    {
      name: 'NOTE: lines go to the active_context scratchpad, after the system prompt, and survive the eviction',
      events: [...oneTask.slice(0, 4), msg.assistant('n1', 'Checked.\nNOTE: staging is read-only'), ...oneTask.slice(4), done('k1')],
      expected: ['s', 'surgical-eviction:active_context', 'u1', 'evicted:k1:a1', 'evicted:r1', 'evicted:r2'],
      actions: ['evict'],
    },
  ];
  it.each(table)('$name', async ({ options, events, expected, actions }) => {
    const { context, harness } = await replay(surgicalEviction, options ?? {}, events);
    expect(ids(context)).toEqual(expected);
    expect(harness.actions.map((a) => a.action)).toEqual(actions);
  });

  it('keeps the calls, the thought flag and the last signature of the range in the turn tombstone', async () => {
    const { context } = await replay(surgicalEviction, {}, [...oneTask, done('k1')]);
    const tombstone = context.find((m) => m.id === 'evicted:k1:a1') as ContextMessage;
    expect(tombstone.toolCalls?.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(tombstone.thinking).toBeTruthy();
    expect(tombstone.thoughtSignature).toBe('sig-a2');
    expect(tombstone.replaces).toEqual(expect.arrayContaining(['a1', 'a2', 'a3', 'r1', 'r2']));
    expect(tombstone.text).toContain(`Result summary: ${SUMMARY}`);
  });

  it('archives the raw log by session and task, and every tombstone points to it', async () => {
    const { context, harness } = await replay(surgicalEviction, {}, [...oneTask, done('k1')]);
    expect(harness.env.archive.lookup('test-session/k1')?.map((m) => m.id)).toEqual(['a1', 'r1', 'a2', 'r2', 'a3']);
    const tombstones = context.filter((m) => m.synthetic === 'tombstone');
    expect(tombstones).toHaveLength(3);
    for (const t of tombstones) expect(findRetrievalHints(t.text)).toEqual(['test-session/k1']);
    expect(context.find((m) => m.id === 'evicted:r1')?.text).toContain(SUMMARY);
  });

  it('emits an evict action with tokens before and after, the reason and the task id', async () => {
    const { harness } = await replay(surgicalEviction, {}, [...oneTask, done('k1')]);
    const [evict] = harness.actions;
    expect(evict).toMatchObject({ action: 'evict', reason: 'task k1 completed', mode: 'completed' });
    expect(evict?.detail).toContain('task k1: 3 turns and 2 tool results');
    expect(evict?.tokensAfter).toBeLessThan((evict?.tokensBefore ?? 0) / 2);
  });

  const verdicts: { summary?: string; criteria?: string[]; line: string }[] = [
    { summary: SUMMARY, line: 'Summary check: passed (56 characters).' },
    { summary: 'Fixed it.', line: 'Summary check: FAILED — too short (9 < 15 characters).' },
    { line: 'Summary check: FAILED — too short (0 < 15 characters).' },
    { summary: SUMMARY, criteria: ['the tests pass', 'retry loop fixed'], line: 'Summary check: passed (56 characters; 2/2 criteria mentioned).' },
    { summary: SUMMARY, criteria: ['no new dependency'], line: 'Summary check: FAILED — criteria not mentioned: "no new dependency".' },
  ];
  it.each(verdicts)('checks the summary $summary against $criteria', async ({ summary, criteria, line }) => {
    expect(checkResultSummary(summary, criteria, 15).line.startsWith(line)).toBe(true);
    const end = task('k1', 'completed', { ...(summary !== undefined ? { resultSummary: summary } : {}), ...(criteria !== undefined ? { criteria } : {}) });
    const { context } = await replay(surgicalEviction, {}, [...oneTask, end]);
    expect(context.find((m) => m.id === 'evicted:k1:a1')?.text).toContain(line);
  });

  it('applies its evictions to a context another stage prepared (transform)', async () => {
    const { state, harness } = await replay(surgicalEviction, {}, [...oneTask, done('k1'), msg.user('u2')]);
    const given = [msg.system('s'), msg.user('u1'), oneTask[5], oneTask[6], msg.user('u2')] as ContextMessage[];
    const out = await surgicalEviction.transform?.(given, state, harness.env);
    expect(ids(out ?? [])).toEqual(['s', 'u1', 'evicted:k1:a1', 'evicted:r1', 'evicted:r2', 'u2']);
  });
});

describe('surgical-eviction on Gemini (real provider, simulated model)', () => {
  const tokenizer = createTokenizer('o200k_base');
  let simulator: Simulator;
  let provider: Provider;
  beforeEach(() => {
    simulator = createSimulator({ tokenizer, seed: 3 });
    provider = createProvider({ name: 'gemini', mode: 'mock', model: 'gemini-2.5-flash', simulator });
  });
  afterEach(() => simulator.uninstall());

  // The task completes mid-turn and the agent goes on calling tools: the tombstone is part of the
  // current turn, whose function-call turns Gemini checks for signatures.
  const midTurn: TranscriptEvent[] = [...oneTask, done('k1'), call('a4', 'c4'), result('r4', 'c4')];
  const send = (messages: ContextMessage[]) =>
    provider.complete({
      model: 'gemini-2.5-flash',
      messages,
      purpose: 'step',
      directive: { purpose: 'step', window: 100_000, requireThoughtSignatures: true, replay: { text: 'ok' } },
    });
  const unsign = (m: ContextMessage): ContextMessage => {
    const { thoughtSignature: _dropped, ...rest } = m;
    return rest;
  };

  it('sends a request the model accepts: the tombstone carries the signature of the range', async () => {
    const { context } = await replay(surgicalEviction, {}, midTurn, createHarness());
    expect(ids(context)).toEqual(['s', 'u1', 'evicted:k1:a1', 'evicted:r1', 'evicted:r2', 'a4', 'r4']);
    const sent = await send(context);
    expect(sent.ok).toBe(true);
  });

  it('is rejected once the tombstone loses its signature', async () => {
    const { context } = await replay(surgicalEviction, {}, midTurn, createHarness());
    const sent = await send(context.map((m) => (m.synthetic === 'tombstone' ? unsign(m) : m)));
    if (sent.ok) throw new Error('expected the simulated model to reject the request');
    expect(sent.failure.kind).toBe('bad-request');
    expect(sent.failure.message).toContain('missing a thought_signature');
  });
});
