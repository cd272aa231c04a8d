import { describe, expect, it } from 'vitest';
import { hybrid } from '../../src/strategies/hybrid.js';
import { maskPlaceholder } from '../../src/strategies/observation-masking.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { msg } from '../helpers/strategy-harness.js';
import { actionsOf, isPaired, runSteps } from './compaction-fixtures.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `output line ${i} of the command run here`).join('\n');
const turns = (n: number): TranscriptEvent[] => [
  msg.system('s'),
  msg.user('task', 'Fix the bug'),
  ...Array.from({ length: n }, (_, i) => [msg.call(`a${i}`, `c${i}`), msg.tool(`t${i}`, `c${i}`, lines(4))]).flat(),
];

describe('hybrid', () => {
  const table: { name: string; steps: number; options: Record<string, number>; summaries: number; masked: number; verbatim: number }[] = [
    { name: '20 turns: masking only, the last 10 observations kept', steps: 20, options: {}, summaries: 0, masked: 10, verbatim: 10 },
    { name: '53 turns (43 + 10): one summary, then masking of what is left', steps: 53, options: {}, summaries: 1, masked: 0, verbatim: 10 },
    { name: '60 turns: one summary, 7 of the 17 kept turns masked', steps: 60, options: {}, summaries: 1, masked: 7, verbatim: 10 },
    {
      name: 'smaller N and observation window',
      steps: 12,
      options: { summarizeTurns: 4, keepTurns: 4, keepObservations: 2 },
      summaries: 2,
      masked: 2,
      verbatim: 2,
    },
  ];
  it.each(table)('$name', async ({ steps, options, summaries, masked, verbatim }) => {
    const session = turns(steps);
    const run = await runSteps(hybrid, options, session);
    const context = run.contexts.at(-1) ?? [];
    expect(run.harness.calls).toHaveLength(summaries);
    expect(context.filter((m) => m.text === maskPlaceholder(4))).toHaveLength(masked);
    expect(context.filter((m) => m.role === 'tool' && m.text === lines(4))).toHaveLength(verbatim);
    expect(actionsOf(run.harness, 'compact')).toHaveLength(summaries);
    expect(isPaired(context, session)).toBe(true);
  });

  it('summarizes unmasked observations', async () => {
    const run = await runSteps(hybrid, { summarizeTurns: 4, keepTurns: 4, keepObservations: 2 }, turns(8));
    expect(run.harness.calls[0]?.messages[0]?.text).toContain('output line 3 of the command run here');
  });

  it('has the study defaults', () => {
    expect(hybrid.options.parse({})).toEqual({ keepObservations: 10, summarizeTurns: 43, keepTurns: 10, summaryTokens: 2048 });
  });
});
