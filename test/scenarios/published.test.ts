import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareScenarios, runSuite } from '../../src/engine/run-suite.js';

/**
 * scenarios/published/: the published comparisons a replay can reproduce (README "Published
 * results, replayed"). The Complexity Trap run (4 × 1019 steps) is too slow for a test: its setup
 * is checked here, its figures are in the README. Claude Code's own compaction is replayed.
 */
const prepared = await prepareScenarios(['scenarios/published']);

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

  it("triggers claude-code-autocompact at the step where the log compacted itself, under the limit the log's numbers imply", { timeout: 240_000 }, async () => {
    const result = await runSuite({ scenarios: ['scenarios/published/claude-code-own-compaction.yaml'], overrides: { strategies: ['claude-code-autocompact-v1.0.53-limit', 'claude-code-autocompact'] } });
    const [legacy, current] = result.units;
    const stepsOf = (unit: typeof legacy, type: string, action?: string): number[] =>
      (unit?.events ?? []).filter((e) => e.type === type && (action === undefined || (e as { action?: string }).action === action)).map((e) => e.step);
    expect(stepsOf(legacy, 'recorded-compaction')).toEqual([158]);
    expect(stepsOf(legacy, 'action', 'compact')).toEqual([158]);
    // On the counted context (no hidden prefix, o200k) the 167,000-token limit is never reached.
    expect(stepsOf(current, 'action', 'compact')).toEqual([]);
  });
});
