import { describe, expect, it } from 'vitest';
import { triModal } from '../../src/strategies/tri-modal.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import {
  actionsOf,
  answer,
  driveSession,
  failure,
  isPaired,
  longSession,
  messageIds,
  quotaLeft,
  runSteps,
  simulatedHarness,
  words,
} from './compaction-fixtures.js';

const started: TranscriptEvent = { type: 'task', id: 'k1', status: 'in_progress' };
const completed: TranscriptEvent = { type: 'task', id: 'k1', status: 'completed', resultSummary: 'parser done' };

/** About 1,300 tokens; the newest turn (u2 and after) about 350. */
const history: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1', words(500)),
  msg.call('a2', 'c2'),
  msg.tool('t2', 'c2', words(400)),
  msg.assistant('a3'),
  msg.user('u2'),
  msg.call('a4', 'c4'),
  msg.tool('t4', 'c4', words(300)),
];

const withQuota = (left: number) => {
  const harness = createHarness();
  harness.env.quota = quotaLeft(left);
  return harness;
};

describe('tri-modal', () => {
  const table: { name: string; events: TranscriptEvent[]; options: Record<string, number>; mode: string | undefined; expected: string[] }[] = [
    {
      name: 'semantic: a task status update with the context above the semantic size flushes',
      events: [...history, completed],
      options: { semanticTokens: 500 },
      mode: 'semantic',
      expected: ['s', 'tri-modal-recap-1', 'u2', 'a4', 't4'],
    },
    { name: 'semantic: no task update, no flush', events: history, options: { semanticTokens: 500 }, mode: undefined, expected: messageIds(history) },
    {
      name: 'semantic: a task update under the semantic size does not flush',
      events: [...history, completed],
      options: { semanticTokens: 5000 },
      mode: undefined,
      expected: messageIds(history),
    },
    {
      name: 'standard: the context above the standard size flushes',
      events: history,
      options: { standardTokens: 1000 },
      mode: 'standard',
      expected: ['s', 'tri-modal-recap-1', 'u2', 'a4', 't4'],
    },
    { name: 'defaults (50k / 200k) leave a small context alone', events: [...history, completed], options: {}, mode: undefined, expected: messageIds(history) },
  ];
  it.each(table)('$name', async ({ events, options, mode, expected }) => {
    const { context, harness } = await replay(triModal, { recapTokens: 50, ...options }, events);
    expect(ids(context)).toEqual(expected);
    expect(actionsOf(harness, 'trigger')[0]?.mode).toBe(mode);
    expect(actionsOf(harness, 'compact')).toHaveLength(mode === undefined ? 0 : 1);
    expect(isPaired(context, events)).toBe(true);
  });

  it('flushes to a model recap (purpose recap) and reports tokens before and after', async () => {
    const harness = createHarness({ answer: () => answer('Task: parser; t4 read.') });
    const { context } = await replay(triModal, { recapTokens: 50, standardTokens: 1000 }, history, harness);
    expect(harness.calls).toHaveLength(1);
    expect(harness.calls[0]).toMatchObject({ purpose: 'recap', maxOutputTokens: 50 });
    expect(context[1]).toMatchObject({ role: 'user', text: 'Recap of the session so far:\nTask: parser; t4 read.' });
    expect(harness.actions.map((a) => a.action)).toEqual(['trigger', 'recap', 'compact']);
    const compact = actionsOf(harness, 'compact')[0];
    expect(compact?.tokensAfter).toBeLessThan(compact?.tokensBefore ?? 0);
  });

  it('survival: estimated next turn × 1.2 above the quota left this minute flushes', async () => {
    const run = await runSteps(triModal, { recapTokens: 50 }, [...history, msg.assistant('a5')], withQuota(100));
    const trigger = actionsOf(run.harness, 'trigger')[0];
    expect(trigger?.mode).toBe('survival');
    expect(trigger?.reason).toMatch(/× 1.2 > 100 left this minute/);
  });

  it('survival: never fires without a TPM limit', async () => {
    const run = await runSteps(triModal, { recapTokens: 50 }, [...history, msg.assistant('a5')], withQuota(Infinity));
    expect(actionsOf(run.harness, 'trigger')).toEqual([]);
  });

  it('no trigger fires before the minimum number of turns', async () => {
    const events: TranscriptEvent[] = [
      msg.system('s'),
      msg.user('u1'),
      msg.call('a1', 'c1'),
      msg.tool('t1', 'c1', words(300)),
      msg.assistant('a2'),
      msg.assistant('a3'),
    ];
    // Prepares happen after 0, 1, 2 and 3 turns.
    const early = await runSteps(triModal, { recapTokens: 50, recentTokens: 20, minTurns: 4 }, events, withQuota(100));
    expect(actionsOf(early.harness, 'trigger')).toEqual([]);
    const late = await runSteps(triModal, { recapTokens: 50, recentTokens: 20, minTurns: 1 }, events, withQuota(100));
    expect(actionsOf(late.harness, 'trigger').length).toBeGreaterThan(0);
  });

  it('fires again only once the context has grown past what the flush left by half the trigger (hysteresis)', async () => {
    // After the flush the context (~400 tokens) is still above the standard size (300).
    const { state, harness } = await replay(triModal, { recapTokens: 50, recentTokens: 50, standardTokens: 300 }, history);
    await triModal.prepare(state, harness.env);
    expect(harness.calls).toHaveLength(1);
    expect(state.flushedAt).toBeGreaterThan(300);
    // A few tokens more: still within flushedAt + 150.
    await triModal.observe?.(msg.assistant('a5'), state, harness.env);
    await triModal.prepare(state, harness.env);
    expect(harness.calls).toHaveLength(1);
    await triModal.observe?.(msg.assistant('a6', words(200)), state, harness.env);
    await triModal.prepare(state, harness.env);
    expect(harness.calls).toHaveLength(2);
  });

  it('keeps the newest user message and the latest messages within the budget, calls with their results', async () => {
    const events = [...history, msg.call('a5', 'c5'), msg.tool('t5', 'c5', words(40)), msg.assistant('a6')];
    const { context } = await replay(triModal, { recapTokens: 50, standardTokens: 1000, recentTokens: 120 }, events);
    expect(ids(context)).toEqual(['s', 'tri-modal-recap-1', 'u2', 'a5', 't5', 'a6']);
    expect(isPaired(context, events)).toBe(true);
  });

  it('keeps the history and does not retry at the same size when the recap fails', async () => {
    const harness = createHarness({ answer: () => failure({ kind: 'rate-limit', message: '429' }) });
    const { context, state } = await replay(triModal, { recapTokens: 50, standardTokens: 1000 }, history, harness);
    expect(ids(context)).toEqual(messageIds(history));
    expect(actionsOf(harness, 'note')[0]?.detail).toContain('rate-limit');
    await triModal.prepare(state, harness.env);
    expect(harness.calls).toHaveLength(1);
  });

  it('does not call for a recap when the system prompt, newest turn and recap budget would not be smaller', async () => {
    // The newest turn (u2, a4, t4: ~330 tokens) plus a 2,048-token recap budget exceed the ~1,300-token history.
    const { context, harness } = await replay(triModal, { standardTokens: 1000 }, history);
    expect(ids(context)).toEqual(messageIds(history));
    expect(harness.calls).toEqual([]);
    expect(harness.actions).toEqual([]);
  });

  describe('dynamic thinking budget', () => {
    const thoughtful: TranscriptEvent[] = [msg.system('s'), msg.user('u1'), msg.assistant('a1', 'done', { thinking: words(200, 'think') }), msg.user('u2')];

    it("limits the answer's thinking, not the context, when the minute has little quota left", async () => {
      const harness = withQuota(150_000);
      const { context, state } = await replay(triModal, { recapTokens: 50, thinkingCapTokens: 20 }, thoughtful, harness);
      expect(context[2]?.thinking).toBe(words(200, 'think'));
      expect(harness.thinkingLimits).toEqual([{ step: 0, budgetTokens: 20 }]);
      expect(state.lowEffortSteps).toBe(1);
      const cap = actionsOf(harness, 'cap-thinking')[0];
      expect(cap?.detail).toBe("the answer's thinking limited to 20 tokens (reasoning_effort low)");
      expect(cap?.tokensAfter).toBe(cap?.tokensBefore);
    });

    it('marks the switch once and limits every step while the quota stays low', async () => {
      const harness = withQuota(150_000);
      const { state } = await replay(triModal, { recapTokens: 50, thinkingCapTokens: 8192 }, thoughtful, harness);
      harness.env.step = 1;
      await triModal.prepare(state, harness.env);
      expect(harness.thinkingLimits).toEqual([
        { step: 0, budgetTokens: 8192 },
        { step: 1, budgetTokens: 8192 },
      ]);
      expect(actionsOf(harness, 'cap-thinking')).toHaveLength(1);
      expect(actionsOf(harness, 'cap-thinking')[0]?.detail).toContain('reasoning_effort medium');
    });

    it('sends no thinking limit while the quota left is at or above the threshold', async () => {
      const harness = withQuota(200_000);
      const { context } = await replay(triModal, { recapTokens: 50, thinkingCapTokens: 20 }, thoughtful, harness);
      expect(context[2]?.thinking).toBe(words(200, 'think'));
      expect(harness.thinkingLimits).toEqual([]);
      expect(actionsOf(harness, 'cap-thinking')).toEqual([]);
    });
  });

  it('gives the same output for the same input', async () => {
    const first = await replay(triModal, { recapTokens: 50, standardTokens: 1000 }, history);
    const second = await replay(triModal, { recapTokens: 50, standardTokens: 1000 }, history);
    expect(second.context).toEqual(first.context);
  });

  it('reports the semantic and standard sizes and documents every option with a default', () => {
    const defaults = triModal.options.parse({});
    // The 50k / 200k defaults were written for a 1M window: in 48k they keep that ratio.
    expect(triModal.thresholds?.(defaults, 48_000)).toEqual([
      { label: 'semantic', tokens: 2_400 },
      { label: 'standard', tokens: 9_600 },
    ]);
    expect(triModal.thresholds?.(defaults, 1_048_576)).toEqual([
      { label: 'semantic', tokens: 50_000 },
      { label: 'standard', tokens: 200_000 },
    ]);
    expect(triModal.thresholds?.(triModal.options.parse({ semanticShare: 0.25, standardTokens: 30_000 }), 48_000)).toEqual([
      { label: 'semantic', tokens: 12_000 },
      { label: 'standard', tokens: 30_000 },
    ]);
    expect(defaults).toMatchObject({ survivalFactor: 1.2, minTurns: 1, recentTokens: 3000, thinkingQuotaTokens: 200_000, thinkingCapTokens: 8192 });
  });

  it('scales its default triggers to a small window and writes the rule in a note', async () => {
    // 1,300 tokens in a 5,000-token window: the defaults become 250 (semantic) and 1,000 (standard).
    const harness = createHarness({ window: 5000 });
    const { context } = await replay(triModal, { recapTokens: 50 }, history, harness);
    expect(ids(context)).toEqual(['s', 'tri-modal-recap-1', 'u2', 'a4', 't4']);
    expect(harness.actions.map((a) => a.action)).toEqual(['note', 'trigger', 'recap', 'compact']);
    expect(harness.actions[0]?.detail).toContain('scaled to the 5000-token window: hidden prefix 0 + trigger × 5000 / 1,000,000 → semantic 250, standard 1000');
    expect(actionsOf(harness, 'trigger')[0]?.mode).toBe('standard');
  });

  it('scales its default triggers over the room above the hidden prefix, which no flush removes', async () => {
    const harness = createHarness({ window: 5000 });
    harness.env.hiddenPrefix = 1000;
    await replay(triModal, { recapTokens: 50 }, history, harness);
    expect(harness.actions[0]?.detail).toContain('hidden prefix 1000 + trigger × 4000 / 1,000,000 → semantic 1200, standard 1800');
  });

  it('reacts to a task update once, at the step that follows it', async () => {
    const events: TranscriptEvent[] = [
      msg.system('s'),
      msg.user('u1'),
      msg.call('a1', 'c1'),
      msg.tool('t1', 'c1', words(600)),
      msg.assistant('a2'),
      started,
      msg.assistant('a3'),
      msg.assistant('a4'),
    ];
    const run = await runSteps(triModal, { recapTokens: 50, semanticTokens: 100, recentTokens: 50 }, events);
    // a2's step is above 100 tokens but has no update; a3's step follows the update and flushes; a4's has none again.
    expect(actionsOf(run.harness, 'trigger').map((a) => a.mode)).toEqual(['semantic']);
    expect(run.contexts.map((c) => c.some((m) => m.synthetic !== undefined))).toEqual([false, false, true, true, true]);
  });

  it('survives a synthetic session with thresholds scaled to a 20k window, keeping every invariant', async () => {
    const drive = await driveSession(triModal, { semanticTokens: 8000, standardTokens: 16_000 }, longSession(), simulatedHarness(20_000));
    expect(drive.violations).toEqual([]);
    expect(drive.overflows).toBe(0);
    expect(new Set(drive.actions.filter((a) => a.action === 'compact').map((a) => a.mode))).toContain('semantic');
  });
});
