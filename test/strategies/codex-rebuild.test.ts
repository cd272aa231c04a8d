import { describe, expect, it } from 'vitest';
import { codexRebuild, SUMMARY_PREFIX } from '../../src/strategies/codex-rebuild.js';
import { retrievalHint } from '../../src/strategies/helpers/hints.js';
import type { StrategyModelCall } from '../../src/strategies/types.js';
import type { CompletionResult } from '../../src/contracts/provider.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { createHarness, ids, msg, replay, type Harness } from '../helpers/strategy-harness.js';
import {
  actionsOf,
  answer,
  continueSteps,
  driveSession,
  failure,
  isPaired,
  longSession,
  messageIds,
  runSteps,
  simulatedHarness,
  words,
} from './compaction-fixtures.js';

/** About 1,300 tokens: over the 0.9 trigger of a 1,000-token window. */
const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1', 'Build the parser in src/parse.ts'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1', words(600)),
  msg.assistant('a2'),
  msg.user('u2', words(30, 'beta')),
  msg.call('a3', 'c3'),
  msg.tool('t3', 'c3', words(600)),
  msg.user('u3', words(30, 'gamma')),
];

const harnessWith = (window: number, reply?: (call: StrategyModelCall, h: Harness) => CompletionResult): Harness => {
  const h: Harness = createHarness({ window, ...(reply !== undefined ? { answer: (call: StrategyModelCall) => reply(call, h) } : {}) });
  return h;
};

describe('codex-rebuild', () => {
  const table: { name: string; window: number; options: Record<string, number>; expected: string[]; compacts: number; mode?: string }[] = [
    { name: 'below the trigger the history is sent as it is', window: 10_000, options: {}, expected: messageIds(session), compacts: 0 },
    {
      name: 'at 90% of the window rebuilds: initial context, recent user messages, summary',
      window: 1000,
      options: {},
      expected: ['s', 'u1', 'u2', 'u3', 'codex-summary-1'],
      compacts: 1,
      mode: 'fraction',
    },
    {
      name: 'a lower trigger fraction compacts earlier',
      window: 1500,
      options: { trigger: 0.5 },
      expected: ['s', 'u1', 'u2', 'u3', 'codex-summary-1'],
      compacts: 1,
      mode: 'fraction',
    },
    {
      name: 'an absolute limit below the fraction wins',
      window: 10_000,
      options: { triggerTokens: 1000 },
      expected: ['s', 'u1', 'u2', 'u3', 'codex-summary-1'],
      compacts: 1,
      mode: 'tokens',
    },
    {
      name: 'an absolute limit above the fraction does not delay it',
      window: 1000,
      options: { triggerTokens: 50_000 },
      expected: ['s', 'u1', 'u2', 'u3', 'codex-summary-1'],
      compacts: 1,
      mode: 'fraction',
    },
  ];
  it.each(table)('$name', async ({ window, options, expected, compacts, mode }) => {
    const { context, harness } = await replay(codexRebuild, options, session, harnessWith(window));
    expect(ids(context)).toEqual(expected);
    expect(actionsOf(harness, 'compact')).toHaveLength(compacts);
    if (mode !== undefined) expect(actionsOf(harness, 'trigger')[0]?.mode).toBe(mode);
    expect(isPaired(context, session)).toBe(true);
  });

  it('asks for a handoff summary of the whole history and puts it after the fixed prefix', async () => {
    const harness = harnessWith(1000, () => answer('Goal: parser. Next: lint.'));
    const { context } = await replay(codexRebuild, {}, session, harness);
    expect(harness.calls).toHaveLength(1);
    expect(harness.calls[0]?.purpose).toBe('summary');
    // The 4,096-token default is capped at a quarter of the 1,000-token window.
    expect(harness.calls[0]?.maxOutputTokens).toBe(250);
    expect(harness.calls[0]?.instruction).toMatch(/goal.*progress and decisions.*constraints.*next steps.*critical data/is);
    expect(ids(harness.calls[0]?.messages ?? [])).toEqual(messageIds(session));
    const summary = context.at(-1);
    expect(summary).toMatchObject({ role: 'user', text: `${SUMMARY_PREFIX}\n\nGoal: parser. Next: lint.` });
    expect(summary?.synthetic).toBeDefined();
  });

  it.each([
    { window: 100_000, budget: 4096 },
    { window: 10_000, budget: 2500 },
  ])('asks for at most a quarter of the window ($window) as summary', async ({ window, budget }) => {
    const harness = harnessWith(window);
    await replay(codexRebuild, { triggerTokens: 1000 }, session, harness);
    expect(harness.calls[0]?.maxOutputTokens).toBe(budget);
  });

  it('reports the rebuild with tokens before and after, the after smaller', async () => {
    const { harness } = await replay(codexRebuild, {}, session, harnessWith(1000));
    expect(harness.actions.map((a) => a.action)).toEqual(['trigger', 'summary', 'compact']);
    const compact = actionsOf(harness, 'compact')[0];
    expect(compact?.tokensAfter).toBeLessThan(compact?.tokensBefore ?? 0);
  });

  it('keeps user messages newest first within the budget and truncates the first that does not fit', async () => {
    const harness = harnessWith(1000);
    const u3 = harness.env.count(words(30, 'gamma'));
    const { context } = await replay(codexRebuild, { recentUserTokens: u3 + 20 }, session, harness);
    expect(ids(context)).toEqual(['s', 'u1', 'u2', 'u3', 'codex-summary-1']);
    const u2 = context.find((m) => m.id === 'u2');
    expect(harness.env.count(u2?.text ?? '')).toBeLessThanOrEqual(20);
    expect(u2?.text).toContain(retrievalHint('u2'));
    expect(context.find((m) => m.id === 'u3')?.text).toBe(words(30, 'gamma'));
  });

  it('drops older user messages once the budget is spent', async () => {
    const harness = harnessWith(1000);
    const { context } = await replay(codexRebuild, { recentUserTokens: harness.env.count(words(30, 'gamma')) }, session, harness);
    expect(ids(context)).toEqual(['s', 'u1', 'u3', 'codex-summary-1']);
  });

  it('appends new events to the rebuilt history and never re-selects an earlier summary', async () => {
    const run = await runSteps(codexRebuild, {}, session, harnessWith(1000));
    expect(ids(run.contexts.at(-1) ?? [])).toEqual(['s', 'u1', 'u2', 'u3', 'codex-summary-1']);
    const more: TranscriptEvent[] = [msg.call('a4', 'c4'), msg.tool('t4', 'c4', words(900)), msg.user('u4')];
    const context = await continueSteps(codexRebuild, run, more);
    expect(ids(context)).toEqual(['s', 'u1', 'u2', 'u3', 'u4', 'codex-summary-2']);
    expect(actionsOf(run.harness, 'compact')).toHaveLength(2);
  });

  it('drops the oldest history item (a call with its result) and retries when the summary request overflows', async () => {
    const harness = harnessWith(1000, (call, h) =>
      h.env.countMessages(call.messages) > 700 ? failure({ kind: 'overflow', message: 'too long' }) : answer('handoff'),
    );
    const { context } = await replay(codexRebuild, {}, session, harness);
    expect(harness.calls.length).toBeGreaterThan(1);
    for (const call of harness.calls) expect(isPaired(call.messages, session)).toBe(true);
    // The system prompt stays; the oldest item goes first, then a call together with its result.
    expect(ids(harness.calls[1]?.messages ?? [])).toEqual(['s', 'a1', 't1', 'a2', 'u2', 'a3', 't3', 'u3']);
    expect(ids(harness.calls[2]?.messages ?? [])).toEqual(['s', 'a2', 'u2', 'a3', 't3', 'u3']);
    expect(context.at(-1)?.text).toContain('handoff');
    expect(actionsOf(harness, 'summary')[0]?.detail).toMatch(/dropped the \d+ oldest/);
  });

  it('keeps the history and notes why when the summary call fails', async () => {
    const harness = harnessWith(1000, () => failure({ kind: 'server', message: 'unavailable' }));
    const { context } = await replay(codexRebuild, {}, session, harness);
    expect(ids(context)).toEqual(messageIds(session));
    expect(actionsOf(harness, 'compact')).toHaveLength(0);
    expect(actionsOf(harness, 'note')[0]?.detail).toContain('server');
  });

  it('keeps the history when the rebuilt one would not be smaller', async () => {
    const harness = harnessWith(1000, () => answer(words(3000, 'summary')));
    const { context } = await replay(codexRebuild, {}, session, harness);
    expect(ids(context)).toEqual(messageIds(session));
    expect(actionsOf(harness, 'compact')).toHaveLength(0);
    expect(actionsOf(harness, 'note')).toHaveLength(1);
  });

  it('gives the same output for the same input', async () => {
    const first = await replay(codexRebuild, {}, session, harnessWith(1000));
    const second = await replay(codexRebuild, {}, session, harnessWith(1000));
    expect(second.context).toEqual(first.context);
  });

  it('reports the trigger size and documents every option with a default', () => {
    expect(codexRebuild.thresholds?.(codexRebuild.options.parse({}), 48_000)).toEqual([{ label: 'codex trigger', tokens: 43_200 }]);
    expect(codexRebuild.options.parse({})).toEqual({
      trigger: 0.9,
      triggerTokens: 0,
      recentUserTokens: 20_000,
      summaryTokens: 4096,
      toolOutputBytes: 10_240,
      toolOutputLines: 256,
    });
    expect(codexRebuild.options.safeParse({ trigger: 1.5 }).success).toBe(false);
  });

  it('survives a synthetic session that outgrows the window, keeping every invariant', async () => {
    const drive = await driveSession(codexRebuild, {}, longSession(), simulatedHarness(20_000));
    expect(drive.violations).toEqual([]);
    expect(drive.overflows).toBe(0);
    expect(drive.actions.filter((a) => a.action === 'compact').length).toBeGreaterThan(0);
  });

  const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');
  const ingestion: { name: string; text: string; options: Record<string, number>; head?: string; tail?: string; marker?: string }[] = [
    { name: 'output within both limits enters whole', text: numbered(256), options: {} },
    {
      name: 'over 256 lines: the first and last 128 lines',
      text: numbered(300),
      options: {},
      head: 'line 128',
      tail: 'line 173',
      marker: '[… output truncated: 44 of 300 lines, ',
    },
    {
      name: 'over 10 KiB on one line: head and tail of 5 KiB each',
      text: 'x'.repeat(30_000),
      options: {},
      marker: '[… output truncated: 0 of 1 lines, 19760 of 30000 characters omitted …]',
    },
    { name: 'limits are options; 0 turns one off', text: numbered(300), options: { toolOutputLines: 0 }, marker: undefined },
    {
      name: 'a lower line limit cuts sooner',
      text: numbered(20),
      options: { toolOutputLines: 10 },
      head: 'line 5',
      tail: 'line 16',
      marker: '[… output truncated: 10 of 20 lines, ',
    },
  ];
  it.each(ingestion)('ingestion truncation: $name', async ({ text, options, head, tail, marker }) => {
    const harness = harnessWith(1_000_000);
    const { context } = await replay(codexRebuild, options, [msg.system('s'), msg.user('u1'), msg.call('a1', 'c1'), msg.tool('t1', 'c1', text)], harness);
    const sent = context.find((m) => m.id === 't1')?.text ?? '';
    if (marker === undefined) {
      expect(sent).toBe(text);
      expect(harness.actions).toEqual([]);
      return;
    }
    expect(sent).toContain(marker);
    expect(Buffer.byteLength(sent)).toBeLessThanOrEqual(10_240 + 200);
    if (head !== undefined) expect(sent.split('\n').indexOf(head)).toBe(sent.split('\n').findIndex((l) => l.startsWith('[…')) - 1);
    if (tail !== undefined) expect(sent.split('\n')[sent.split('\n').findIndex((l) => l.startsWith('[…')) + 1]).toBe(tail);
    expect(harness.actions.map((a) => `${a.action}:${a.mode}`)).toEqual(['truncate:ingestion']);
    expect(harness.env.archive.get('t1')?.text).toBe(text);
  });

  it('a manual /compact (control event) rebuilds at the next step, below the trigger', async () => {
    const harness = harnessWith(100_000);
    const { context } = await replay(codexRebuild, {}, [...session, { type: 'control', action: 'compact' }], harness);
    expect(ids(context)).toEqual(['s', 'u1', 'u2', 'u3', 'codex-summary-1']);
    expect(harness.actions.map((a) => `${a.action}:${a.mode}`)).toEqual(['trigger:manual', 'summary:manual', 'compact:manual']);
    const again = await replay(codexRebuild, {}, session, harnessWith(100_000));
    expect(again.harness.calls).toHaveLength(0);
  });
});
