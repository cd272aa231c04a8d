import { describe, expect, it } from 'vitest';
import { anchoredSummary } from '../../src/strategies/anchored-summary.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { createHarness, ids, msg } from '../helpers/strategy-harness.js';
import { actionsOf, isPaired, runSteps, words } from './compaction-fixtures.js';

/** System, task, then `n` turns of ~100 tokens each (call + result). */
const turns = (n: number): TranscriptEvent[] => [
  msg.system('s'),
  msg.user('task', 'Fix the bug'),
  ...Array.from({ length: n }, (_, i) => [msg.call(`a${i}`, `c${i}`), msg.tool(`t${i}`, `c${i}`, words(90))]).flat(),
];

describe('anchored-summary', () => {
  const table: { name: string; window: number; options: Record<string, number>; turns: number; summaries: number }[] = [
    { name: 'below 0.7 of the window nothing happens', window: 10_000, options: {}, turns: 10, summaries: 0 },
    { name: 'at 0.7 the dropped span is merged into the summary', window: 1500, options: {}, turns: 10, summaries: 1 },
    { name: 'each later span is merged into the same summary', window: 1500, options: {}, turns: 30, summaries: 4 },
  ];
  it.each(table)('$name', async ({ window, options, turns: n, summaries }) => {
    const session = turns(n);
    const harness = createHarness({ window });
    const run = await runSteps(anchoredSummary, options, session, harness);
    const context = run.contexts.at(-1) ?? [];
    expect(harness.calls).toHaveLength(summaries);
    expect(actionsOf(harness, 'compact')).toHaveLength(summaries);
    expect(ids(context).slice(0, 2)).toEqual(['s', 'task']);
    if (summaries > 0) {
      expect(context[2]?.synthetic).toBe('anchored summary');
      // Each compaction brings the context well under the trigger.
      for (const a of actionsOf(harness, 'compact')) expect(a.tokensAfter).toBeLessThan(0.7 * window);
    }
    expect(isPaired(context, session)).toBe(true);
  });

  it('asks for the five sections and sends only the new span with the previous summary', async () => {
    const harness = createHarness({ window: 1500 });
    await runSteps(anchoredSummary, {}, turns(30), harness);
    expect(harness.calls[0]?.instruction).toMatch(/session intent.*files and changes.*decisions.*errors.*next steps/is);
    expect(harness.calls[0]?.messages[0]?.text).toContain('There is no previous summary yet.');
    const second = harness.calls[1]?.messages[0]?.text ?? '';
    expect(second).toContain('Previous summary:\nsummary of 1 messages');
    expect(second).not.toContain('calls read_file {"path":"src/c0.ts"}');
  });

  it('has its defaults', () => {
    expect(anchoredSummary.options.parse({})).toEqual({ trigger: 0.7, retain: 0.3, summaryTokens: 2048 });
  });
});
