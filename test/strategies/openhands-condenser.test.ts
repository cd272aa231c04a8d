import { describe, expect, it } from 'vitest';
import { openhandsCondenser } from '../../src/strategies/openhands-condenser.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { ids, msg } from '../helpers/strategy-harness.js';
import { actionsOf, isPaired, runSteps, words } from './compaction-fixtures.js';

/** System, task, then `n` turns of call + result: 2 + 2n events. */
const events = (n: number): TranscriptEvent[] => [
  msg.system('s'),
  msg.user('task', 'Fix it'),
  ...Array.from({ length: n }, (_, i) => [msg.call(`a${i}`, `c${i}`), msg.tool(`t${i}`, `c${i}`, words(40))]).flat(),
];

describe('openhands-condenser', () => {
  const table: { name: string; options: Record<string, unknown>; turns: number; expected: string[]; calls: number }[] = [
    {
      name: 'recent: first 1 and last 9 events, moved back to a call, plus the pinned task',
      options: { variant: 'recent' },
      turns: 10,
      expected: ['s', 'task', 'a5', 't5', 'a6', 't6', 'a7', 't7', 'a8', 't8', 'a9', 't9'],
      calls: 0,
    },
    {
      name: 'recent with keepFirst 2, maxSize 6',
      options: { variant: 'recent', keepFirst: 2, maxSize: 6 },
      turns: 10,
      expected: ['s', 'task', 'a8', 't8', 'a9', 't9'],
      calls: 0,
    },
    { name: 'amortized under the size: everything', options: { variant: 'amortized', maxSize: 30 }, turns: 10, expected: ids(events(10) as never), calls: 0 },
    {
      name: 'amortized over the size: head and newest half, grown back since',
      options: { variant: 'amortized', maxSize: 12 },
      turns: 10,
      expected: ['s', 'task', 'a6', 't6', 'a7', 't7', 'a8', 't8', 'a9', 't9'],
      calls: 0,
    },
    {
      name: 'llm-summarizing: head 4, summary, newest half',
      options: { maxSize: 12 },
      turns: 10,
      expected: ['s', 'task', 'a0', 't0', 'openhands-summary-2', 'a8', 't8', 'a9', 't9'],
      calls: 2,
    },
  ];
  it.each(table)('$name', async ({ options, turns, expected, calls }) => {
    const session = events(turns);
    const run = await runSteps(openhandsCondenser, options, session);
    const context = run.contexts.at(-1) ?? [];
    expect(ids(context)).toEqual(expected);
    expect(run.harness.calls).toHaveLength(calls);
    expect(isPaired(context, session)).toBe(true);
  });

  it('feeds the previous summary into the next one', async () => {
    const run = await runSteps(openhandsCondenser, { maxSize: 12 }, events(10));
    expect(run.harness.calls[0]?.messages[0]?.text).toContain('No previous summary.');
    expect(run.harness.calls[1]?.messages[0]?.text).toContain('Previous summary:');
    expect(actionsOf(run.harness, 'compact')).toHaveLength(2);
  });

  it('has OpenHands defaults', () => {
    expect(openhandsCondenser.options.parse({})).toEqual({ variant: 'llm-summarizing', summaryTokens: 2048 });
  });
});
