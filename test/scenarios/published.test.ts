import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSuite } from '../../src/run/run-suite.js';
import { preparedBundled } from './bundled-prepared.js';

/**
 * scenarios/published/: the published comparisons a replay can reproduce (README "Published
 * results, replayed"). The Complexity Trap run (4 × 1019 steps) is too slow for a test: its setup
 * is checked here, its figures are in the README. Claude Code's own compaction is replayed.
 */
const prepared = await preparedBundled('scenarios/published');

describe('scenarios/published', () => {
  it('replays the Complexity Trap policies with the study settings on the 23 mini-swe-agent runs', () => {
    const trap = prepared.find((p) => p.scenario.name === 'published-complexity-trap');
    expect(trap?.scenario.transcript).toMatchObject({ kind: 'file', path: resolve('fixtures/real/mini-swe-agent') });
    expect(trap?.logs).toHaveLength(23);
    expect(trap?.scenario.strategies.map((s) => [s.label, s.strategy, s.options])).toEqual([
      ['full', 'full', {}],
      ['observation-masking', 'observation-masking', { keepLast: 10 }],
      ['llm-summary-every-n', 'llm-summary-every-n', { summarizeTurns: 21, keepTurns: 10 }],
      ['hybrid', 'hybrid', {}],
    ]);
  });

  it("compacts where the log compacted itself under the limit its numbers imply, 28 steps later under today's", { timeout: 240_000 }, async () => {
    const result = await runSuite({
      scenarios: ['scenarios/published/claude-code-own-compaction.yaml'],
      overrides: { strategies: ['recorded', 'claude-code-autocompact-v1.0.53-limit', 'claude-code-autocompact'] },
    });
    const [recorded, legacy, current] = result.units;
    const stepsOf = (unit: typeof legacy, type: string, action?: string): number[] =>
      (unit?.events ?? []).filter((e) => e.type === type && (action === undefined || (e as { action?: string }).action === action)).map((e) => e.step);
    expect(stepsOf(recorded, 'recorded-compaction')).toEqual([158]);
    expect(stepsOf(recorded, 'action', 'compact')).toEqual([158]);
    expect(stepsOf(legacy, 'action', 'compact')).toEqual([158]);
    // Today's limit (200k − 20k − 13k = 167,000) is reached only later in the session.
    expect(stepsOf(current, 'action', 'compact')).toEqual([186]);
  });
});
