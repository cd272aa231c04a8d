import { describe, expect, it } from 'vitest';
import { reactiveCompress, type State } from '../../src/strategies/reactive-compress.js';
import { retrievalHint } from '../../src/strategies/helpers/hints.js';
import type { Failure } from '../../src/contracts/provider.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { createHarness, ids, msg, replay, type Harness } from '../helpers/strategy-harness.js';
import { actionsOf, answer, driveSession, failure, isPaired, longSession, messageIds, simulatedHarness, words } from './compaction-fixtures.js';

const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1', words(400)),
  msg.call('a2', 'c2'),
  msg.tool('t2', 'c2', 'short ok'),
  msg.assistant('a3'),
  msg.user('u2'),
  msg.call('a4', 'c4'),
  msg.tool('t4', 'c4', words(400)),
  msg.call('a5', 'c5'),
  msg.tool('t5', 'c5', words(50)),
];

const overflow: Failure = { kind: 'overflow', message: 'The input token count (60000) exceeds the maximum number of tokens allowed (48000).' };

/** Replays the session, then lets the strategy recover from `failed`; returns the context it would retry with. */
async function recoverFrom(failed: Failure, options: Record<string, unknown>, harness: Harness = createHarness()) {
  const { state } = await replay(reactiveCompress, { summaryTokens: 50, ...options }, session, harness);
  const decision = await reactiveCompress.recover?.(failed, state, harness.env);
  const context = await reactiveCompress.prepare(state, harness.env);
  return { decision, context, state: state as State, harness };
}

describe('reactive-compress', () => {
  const table: { name: string; failed: Failure; options: Record<string, unknown>; decision: string; expected: string[]; actions: string[] }[] = [
    {
      name: 'phase 1 only: old long tool results become stubs when that reaches the target',
      failed: overflow,
      options: { keepRecent: 3 },
      decision: 'retry',
      expected: messageIds(session),
      actions: ['trigger', 'truncate', 'compact'],
    },
    {
      name: 'phase 2: still above the target, a structured summary plus the recent messages',
      failed: overflow,
      options: { keepRecent: 3, target: 100 },
      decision: 'retry',
      // The boundary moves back from t4 to its call a4; the newest user message is kept.
      expected: ['s', 'reactive-summary-1', 'u2', 'a4', 't4', 'a5', 't5'],
      actions: ['trigger', 'truncate', 'summary', 'compact'],
    },
    {
      name: 'lightweight-first off goes straight to the summary',
      failed: overflow,
      options: { keepRecent: 3, target: 100, lightweightFirst: false },
      decision: 'retry',
      expected: ['s', 'reactive-summary-1', 'u2', 'a4', 't4', 'a5', 't5'],
      actions: ['trigger', 'summary', 'compact'],
    },
    {
      name: 'a quota failure compresses too',
      failed: { kind: 'quota', message: 'daily quota' },
      options: { keepRecent: 3 },
      decision: 'retry',
      expected: messageIds(session),
      actions: ['trigger', 'truncate', 'compact'],
    },
    {
      name: 'a rate limit compresses: the retry needs fewer tokens of the minute',
      failed: { kind: 'rate-limit', message: '429', retryAfterMs: 1000 },
      options: { keepRecent: 3 },
      decision: 'retry',
      expected: messageIds(session),
      actions: ['trigger', 'truncate', 'compact'],
    },
    {
      name: 'a server error is left to the retry policy',
      failed: { kind: 'server', message: '503' },
      options: { keepRecent: 3 },
      decision: 'give-up',
      expected: messageIds(session),
      actions: [],
    },
    {
      name: 'nothing outside the recent messages: give up with a note',
      failed: overflow,
      options: {},
      decision: 'give-up',
      expected: messageIds(session),
      actions: ['trigger', 'note'],
    },
  ];
  it.each(table)('$name', async ({ failed, options, decision, expected, actions }) => {
    const { decision: got, context, harness } = await recoverFrom(failed, options);
    expect(got).toBe(decision);
    expect(ids(context)).toEqual(expected);
    expect(harness.actions.map((a) => a.action)).toEqual(actions);
    expect(isPaired(context, session)).toBe(true);
  });

  it('clears only tool results outside the recent messages and longer than the limit, to a stub with the size and a hint', async () => {
    const { context, harness } = await recoverFrom(overflow, { keepRecent: 3 });
    const byId = new Map(context.map((m) => [m.id, m]));
    expect(byId.get('t1')?.text).toMatch(/^\[tool result cleared \(\d+ characters, \d+ tokens\) /);
    expect(byId.get('t1')?.text).toContain(retrievalHint('t1'));
    expect(byId.get('t1')?.toolCallId).toBe('c1');
    expect(byId.get('t2')?.text).toBe('short ok');
    expect(byId.get('t4')?.text).toBe(words(400));
    const compact = actionsOf(harness, 'compact')[0];
    expect(compact?.tokensAfter).toBeLessThan(compact?.tokensBefore ?? 0);
    expect(compact?.mode).toBe('overflow');
  });

  it('asks for a structured summary of the older messages only', async () => {
    const harness = createHarness({ answer: () => answer('Task: parser. Next steps: tests.') });
    const { context } = await recoverFrom(overflow, { keepRecent: 3, target: 100 }, harness);
    expect(harness.calls).toHaveLength(1);
    expect(harness.calls[0]?.purpose).toBe('summary');
    expect(harness.calls[0]?.maxOutputTokens).toBeLessThanOrEqual(50);
    expect(harness.calls[0]?.instruction).toMatch(/Task.*Decisions.*Next steps/s);
    expect(ids(harness.calls[0]?.messages ?? [])).toEqual(['s', 'u1', 'a1', 't1', 'a2', 't2', 'a3', 'u2']);
    expect(context[1]?.text).toContain('Task: parser. Next steps: tests.');
  });

  it('phase 2 summarizes the original tool results, not the phase-1 stubs, and archives the originals', async () => {
    const harness = createHarness({ window: 600 });
    const { state } = await replay(reactiveCompress, { keepRecent: 3 }, session, harness);
    expect(await reactiveCompress.recover?.(overflow, state, harness.env)).toBe('retry');
    expect(harness.actions.map((a) => a.action)).toEqual(['trigger', 'truncate', 'summary', 'compact']);
    const sent = harness.calls[0]?.messages ?? [];
    const t1 = sent.find((m) => m.id === 't1');
    expect(t1?.text).toBe(words(400));
    expect(t1?.synthetic).toBeUndefined();
    const archived = harness.env.archive.lookup(`reactive-compress/${harness.env.sessionId}/1`) ?? [];
    expect(archived.find((m) => m.id === 't1')?.text).toBe(words(400));
    expect(archived.every((m) => !m.text.includes('tool result cleared'))).toBe(true);
  });

  it("a second summary archives the first one's originals under its own hint, not the first summary", async () => {
    const harness = createHarness({ window: 600 });
    const more: TranscriptEvent[] = [
      msg.user('u3'),
      msg.call('a6', 'c6'),
      msg.tool('t6', 'c6', words(300)),
      msg.call('a7', 'c7'),
      msg.tool('t7', 'c7', words(300)),
    ];
    const { state } = await replay(reactiveCompress, { keepRecent: 3 }, session, harness);
    await reactiveCompress.recover?.(overflow, state, harness.env);
    for (const event of more) await reactiveCompress.observe?.(event, state, harness.env);
    expect(await reactiveCompress.recover?.(overflow, state, harness.env)).toBe('retry');
    const second = harness.env.archive.lookup(`reactive-compress/${harness.env.sessionId}/2`) ?? [];
    expect(second.map((m) => m.id)).toEqual(['u1', 'a1', 't1', 'a2', 't2', 'a3', 'u2', 'a4', 't4', 'a5', 't5', 'u3']);
    expect(second.some((m) => m.id.startsWith('reactive-summary'))).toBe(false);
  });

  it('a manual /compact (control event) clears and summarizes at the next step, below every threshold', async () => {
    const harness = createHarness();
    const { context } = await replay(reactiveCompress, { keepRecent: 3 }, [...session, { type: 'control', action: 'compact' }], harness);
    expect(harness.actions.map((a) => `${a.action}:${a.mode}`)).toEqual(['trigger:manual', 'truncate:manual', 'summary:manual', 'compact:manual']);
    expect(ids(context)).toEqual(['s', 'reactive-summary-1', 'u2', 'a4', 't4', 'a5', 't5']);
    const again = await reactiveCompress.prepare((await replay(reactiveCompress, { keepRecent: 3 }, session, createHarness())).state, harness.env);
    expect(ids(again)).toEqual(messageIds(session));
  });

  it('summarizes when phase 1 leaves the context above a window smaller than the target', async () => {
    const harness = createHarness({ window: 600 });
    const { state } = await replay(reactiveCompress, { keepRecent: 3 }, session, harness);
    expect(await reactiveCompress.recover?.(overflow, state, harness.env)).toBe('retry');
    expect(harness.actions.map((a) => a.action)).toEqual(['trigger', 'truncate', 'summary', 'compact']);
    const compact = actionsOf(harness, 'compact')[0];
    expect(compact?.tokensBefore).toBeGreaterThan(600);
    expect(compact?.tokensAfter).toBeLessThan(600);
  });

  it('asks for a summary at most half as long as what it replaces', async () => {
    const harness = createHarness();
    const { state } = await replay(reactiveCompress, { keepRecent: 3, target: 100 }, session, harness);
    expect(await reactiveCompress.recover?.(overflow, state, harness.env)).toBe('retry');
    // Replaced: everything before the kept tail but the newest user message u2, which stays.
    const older = harness.env.archive.lookup(`reactive-compress/${harness.env.sessionId}/1`) ?? [];
    expect(older.map((m) => m.id)).toEqual(['u1', 'a1', 't1', 'a2', 't2', 'a3', 'u2']);
    // What it replaces in the context is phase 1's result (t1 a stub), so the budget is half of that.
    // (Gemini format: its tool results are counted as plain text, src/tokens/tokenizer.ts.)
    expect(harness.calls[0]?.maxOutputTokens).toBe(47);
    expect(harness.calls[0]?.maxOutputTokens).toBeLessThan(Math.floor(harness.env.countMessages(older.slice(0, -1)) / 2));
    expect(harness.calls[0]?.maxOutputTokens).toBeLessThan(2048);
  });

  it('falls back to dropping the older messages, archived and hinted, when the summary call fails', async () => {
    const harness = createHarness({ answer: () => failure({ kind: 'server', message: 'unavailable' }) });
    const { decision, context } = await recoverFrom(overflow, { keepRecent: 3, target: 100 }, harness);
    expect(decision).toBe('retry');
    const key = `reactive-compress/${harness.env.sessionId}/1`;
    expect(context[1]?.text).toContain(retrievalHint(key));
    expect(context[1]?.text).toMatch(/dropped \(no summary: server/);
    expect(harness.env.archive.lookup(key)?.map((m) => m.id)).toEqual(['u1', 'a1', 't1', 'a2', 't2', 'a3', 'u2']);
    expect(actionsOf(harness, 'note')).toHaveLength(1);
  });

  it('does not compress before sending unless proactive compression is set', async () => {
    const quiet = await replay(reactiveCompress, { keepRecent: 3 }, session, createHarness({ window: 1000 }));
    expect(quiet.harness.actions).toEqual([]);
    const eager = await replay(reactiveCompress, { keepRecent: 3, proactiveAt: 0.5 }, session, createHarness({ window: 1000 }));
    expect(actionsOf(eager.harness, 'trigger')[0]?.mode).toBe('proactive');
    expect(actionsOf(eager.harness, 'compact')).toHaveLength(1);
    expect(reactiveCompress.thresholds?.(reactiveCompress.options.parse({ proactiveAt: 0.85 }), 48_000)).toEqual([
      { label: 'proactive compression', tokens: 40_800 },
    ]);
  });

  it('gives the same output for the same input', async () => {
    const first = await recoverFrom(overflow, { keepRecent: 3, target: 100 });
    const second = await recoverFrom(overflow, { keepRecent: 3, target: 100 });
    expect(second.context).toEqual(first.context);
  });

  it('documents every option with a default', () => {
    expect(reactiveCompress.options.parse({})).toEqual({
      keepRecent: 10,
      target: 8000,
      lightweightFirst: true,
      clearMinChars: 200,
      summaryTokens: 2048,
      proactiveAt: 0,
    });
    expect(reactiveCompress.thresholds?.(reactiveCompress.options.parse({}), 48_000)).toEqual([]);
  });

  it('recovers every overflow of a synthetic session that outgrows the window, keeping every invariant', async () => {
    const drive = await driveSession(reactiveCompress, {}, longSession(), simulatedHarness(20_000));
    expect(drive.violations).toEqual([]);
    expect(drive.overflows).toBe(0);
    expect(drive.actions.filter((a) => a.action === 'compact' && a.mode === 'overflow').length).toBeGreaterThan(0);
  });
});
