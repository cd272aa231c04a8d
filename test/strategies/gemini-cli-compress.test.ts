import { describe, expect, it } from 'vitest';
import { geminiCliCompress, splitPoint } from '../../src/strategies/gemini-cli-compress.js';
import type { TranscriptEvent, ContextMessage } from '../../src/transcript/types.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import { actionsOf, answer, isPaired, messageIds, runSteps, words } from './compaction-fixtures.js';

/** About 1,250 tokens in three user turns; the last turn is ~20 % of the characters. */
const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1', 'Build the parser'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1', words(400)),
  msg.user('u2', 'Now the lexer'),
  msg.call('a2', 'c2'),
  msg.tool('t2', 'c2', words(400, 'beta')),
  msg.user('u3', 'And the tests'),
  msg.call('a3', 'c3'),
  msg.tool('t3', 'c3', words(250, 'gamma')),
];
const body = messageIds(session).slice(1);

describe('gemini-cli-compress', () => {
  it.each([
    { preserve: 0.3, split: 'u3' },
    { preserve: 0.6, split: 'u2' },
    { preserve: 0.05, split: 'u3' },
  ])('splits at a user message: preserve $preserve → $split', ({ preserve, split }) => {
    const messages = session.slice(1) as ContextMessage[];
    expect(body[splitPoint(messages, preserve)]).toBe(split);
  });

  const table: { name: string; window: number; options: Record<string, number>; expected: string[] }[] = [
    { name: 'below half the window nothing happens', window: 10_000, options: {}, expected: messageIds(session) },
    { name: 'at half the window: snapshot + the newest turn', window: 2000, options: {}, expected: ['s', 'gemini-snapshot-1', 'u3', 'a3', 't3'] },
    {
      name: 'a larger preserved share keeps two turns',
      window: 2000,
      options: { preserveFraction: 0.6 },
      expected: ['s', 'gemini-snapshot-1', 'u2', 'a2', 't2', 'u3', 'a3', 't3'],
    },
  ];
  it.each(table)('$name', async ({ window, options, expected }) => {
    const { context, harness } = await replay(geminiCliCompress, options, session, createHarness({ window }));
    expect(ids(context)).toEqual(expected);
    expect(actionsOf(harness, 'compact')).toHaveLength(expected.length < 10 ? 1 : 0);
    expect(isPaired(context, session)).toBe(true);
  });

  it('previews old tool outputs beyond the budget before summarizing', async () => {
    const { harness } = await replay(geminiCliCompress, { toolOutputBudget: 450, previewTokens: 50 }, session, createHarness({ window: 2000 }));
    const sent = harness.calls[0]?.messages ?? [];
    expect(ids(sent)).toEqual(['s', 'u1', 'a1', 't1', 'u2', 'a2', 't2']);
    expect(harness.env.count(sent.find((m) => m.id === 't1')?.text ?? '')).toBeLessThanOrEqual(50);
    expect(sent.find((m) => m.id === 't2')?.text).toBe(words(400, 'beta'));
  });

  it('rejects a snapshot that is not smaller, then only truncates', async () => {
    const harness = createHarness({ window: 2000, answer: () => answer(words(1500, 'snap')) });
    const run = await runSteps(geminiCliCompress, { toolOutputBudget: 0, previewTokens: 50 }, [...session, msg.assistant('a4')], harness);
    expect(harness.calls).toHaveLength(1);
    expect(actionsOf(harness, 'note')[0]?.reason).toMatch(/rejected/);
    expect(ids(run.contexts.at(-1) ?? [])).toEqual([...messageIds(session), 'a4']);
    expect(actionsOf(harness, 'truncate')).toHaveLength(1);
  });

  it('merges the previous snapshot into the next', async () => {
    const more: TranscriptEvent[] = [msg.user('u4', 'Docs'), msg.call('a4', 'c4'), msg.tool('t4', 'c4', words(900, 'delta')), msg.user('u5', 'Ship')];
    const harness = createHarness({ window: 2000 });
    await runSteps(geminiCliCompress, {}, [...session, ...more, msg.assistant('a5')], harness);
    expect(harness.calls.length).toBeGreaterThanOrEqual(2);
    expect(ids(harness.calls[1]?.messages ?? [])).toContain('gemini-snapshot-1');
  });

  it('has Gemini CLI defaults', () => {
    expect(geminiCliCompress.options.parse({})).toEqual({
      threshold: 0.5,
      preserveFraction: 0.3,
      toolOutputBudget: 50_000,
      previewTokens: 500,
      summaryTokens: 8192,
    });
  });
});
