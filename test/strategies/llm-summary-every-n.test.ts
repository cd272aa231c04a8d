import { describe, expect, it } from 'vitest';
import { llmSummaryEveryN } from '../../src/strategies/llm-summary-every-n.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { ids, msg } from '../helpers/strategy-harness.js';
import { actionsOf, isPaired, runSteps, words } from './compaction-fixtures.js';

/** The task, then `n` bash turns (call + 80-token observation). */
const turns = (n: number): TranscriptEvent[] => [
  msg.system('s'),
  msg.user('task', 'Fix the bug'),
  ...Array.from({ length: n }, (_, i) => [msg.call(`a${i}`, `c${i}`), msg.tool(`t${i}`, `c${i}`, words(80))]).flat(),
];

describe('llm-summary-every-n', () => {
  const table: { name: string; steps: number; options: Record<string, number>; calls: number; firstKept: string }[] = [
    { name: 'fewer than N + M turns: nothing summarized', steps: 30, options: {}, calls: 0, firstKept: 'a0' },
    { name: 'N + M = 31 turns: the oldest 21 summarized, the last 10 kept', steps: 31, options: {}, calls: 1, firstKept: 'a21' },
    { name: '52 turns: two summaries, each of 21 turns', steps: 52, options: {}, calls: 2, firstKept: 'a42' },
    { name: 'N = 3, M = 2 over 9 turns: two summaries', steps: 9, options: { summarizeTurns: 3, keepTurns: 2 }, calls: 2, firstKept: 'a6' },
  ];
  it.each(table)('$name', async ({ steps, options, calls, firstKept }) => {
    const session = turns(steps);
    const run = await runSteps(llmSummaryEveryN, options, session);
    const context = run.contexts.at(-1) ?? [];
    expect(run.harness.calls).toHaveLength(calls);
    expect(actionsOf(run.harness, 'compact')).toHaveLength(calls);
    const kept = context.filter((m) => m.synthetic === undefined).map((m) => m.id);
    expect(kept.slice(0, 3)).toEqual(['s', 'task', firstKept]);
    if (calls > 0) expect(context[2]?.synthetic).toBeDefined();
    expect(isPaired(context, session)).toBe(true);
  });

  it('conditions each summary on the previous one', async () => {
    const run = await runSteps(llmSummaryEveryN, { summarizeTurns: 3, keepTurns: 2 }, turns(9));
    expect(run.harness.calls[0]?.messages[0]?.text).toContain('There is no previous summary yet.');
    expect(run.harness.calls[1]?.messages[0]?.text).toContain('Previous summary:\nsummary of 1 messages');
    expect(run.harness.calls[1]?.maxOutputTokens).toBeLessThanOrEqual(2048);
  });

  it('has the study defaults', () => {
    expect(llmSummaryEveryN.options.parse({})).toEqual({ summarizeTurns: 21, keepTurns: 10, summaryTokens: 2048 });
    expect(ids([])).toEqual([]);
  });
});
