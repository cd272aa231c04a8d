import { describe, expect, it } from 'vitest';
import { clearToolResults, clearedPlaceholder } from '../../src/strategies/clear-tool-results.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import { actionsOf, words } from './compaction-fixtures.js';

const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  ...[1, 2, 3, 4, 5, 6, 7].flatMap((i) => [msg.call(`a${i}`, `c${i}`), msg.tool(`t${i}`, `c${i}`, words(100))]),
];

describe('clear-tool-results', () => {
  const table: { name: string; window: number; options: Record<string, number>; cleared: string[] }[] = [
    { name: 'below half the window nothing is cleared', window: 10_000, options: {}, cleared: [] },
    { name: 'past half the window results older than the last 5 are cleared', window: 1000, options: {}, cleared: ['t1', 't2'] },
    { name: 'keepLast 2 clears more', window: 1000, options: { keepLast: 2 }, cleared: ['t1', 't2', 't3', 't4', 't5'] },
    { name: 'trigger 0 clears from the start', window: 100_000, options: { trigger: 0, keepLast: 6 }, cleared: ['t1'] },
  ];
  it.each(table)('$name', async ({ window, options, cleared }) => {
    const { context, harness } = await replay(clearToolResults, options, session, createHarness({ window }));
    expect(ids(context)).toHaveLength(16);
    expect(context.filter((m) => m.text === clearedPlaceholder(1)).map((m) => m.id)).toEqual(cleared);
    expect(actionsOf(harness, 'truncate')).toHaveLength(cleared.length > 0 ? 1 : 0);
    expect(harness.calls).toHaveLength(0);
  });

  it('reports its trigger line', () => {
    expect(clearToolResults.thresholds?.(clearToolResults.options.parse({}), 200_000)).toEqual([{ label: 'clear tool results', tokens: 100_000 }]);
  });
});
