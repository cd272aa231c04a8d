import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runSuite } from '../../src/run/run-suite.js';
import { repriceResult } from '../../src/check/reprice.js';
import { writeFiles } from '../helpers/temp.js';

const yaml = [
  'name: priced',
  'transcript:',
  '  generate: { steps: 16, seed: 4, toolOutputTokens: 700 }',
  'provider: openai',
  'model: claude-sonnet-4',
  'window: 200000',
  'seed: 4',
  'strategies: [full, {strategy: llm-summary-every-n, options: {summarizeTurns: 3, keepTurns: 2}}, rolling-window]',
].join('\n');

describe('repriceResult', () => {
  it('re-costs steps, strategy calls and units from the tokens they were billed as', async () => {
    const result = await runSuite({ scenarios: [join(writeFiles({ 's.yaml': yaml }), 's.yaml')] });
    const summaryCalls = result.units.flatMap((u) => u.events).filter((e) => e.type === 'call' && e.purpose === 'summary');
    expect(summaryCalls.length).toBeGreaterThan(0);
    // The table's own Sonnet prices give back the run's costs, strategy calls included.
    const same = repriceResult(result, { models: { 'claude-sonnet-4': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 } } });
    // Steps keep their cost to the micro-dollar (stepUsd), so sums agree within a micro-dollar a step.
    const withinMicros = (a: number | null | undefined, b: number | null | undefined, steps: number) =>
      expect(Math.abs((a ?? Number.NaN) - (b ?? Number.NaN))).toBeLessThanOrEqual(steps * 1e-6 + 1e-12);
    same.units.forEach((unit, u) => {
      const before = result.units[u];
      unit.steps.forEach((step, i) => withinMicros(step.costUsd, before?.steps[i]?.costUsd, 1));
      withinMicros(unit.summary.cost_usd, before?.summary.cost_usd, unit.steps.length);
      expect(unit.summary.cost_vs_full).toBeCloseTo(before?.summary.cost_vs_full ?? Number.NaN, 4);
    });
    // Every rate doubled: every cost doubles, the comparison with full does not move.
    const doubled = repriceResult(result, { input: 6, cachedInput: 0.6, cacheWrite: 7.5, output: 30 });
    doubled.units.forEach((unit, u) => {
      withinMicros(unit.summary.cost_usd, 2 * (result.units[u]?.summary.cost_usd ?? Number.NaN), 2 * unit.steps.length);
      expect(unit.summary.cost_vs_full).toBeCloseTo(result.units[u]?.summary.cost_vs_full ?? Number.NaN, 4);
    });
    // A file that names another model leaves the result's costs as they were.
    expect(repriceResult(result, { models: { 'gpt-4.1': { input: 1, output: 1 } } }).units.map((u) => u.summary.cost_usd)).toEqual(
      result.units.map((u) => u.summary.cost_usd),
    );
  });
});
