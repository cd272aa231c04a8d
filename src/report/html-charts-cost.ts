import type { UnitResult } from '../metrics/types.js';
import { buildChart, curve, type ChartDataset, type ChartSpec } from './html-chart-kit.js';

/**
 * USD of each step per strategy (prompt net of prompt cache, completion and its own calls) and,
 * dashed, what the same step would cost were every prompt token billed uncached — the gap is the
 * cache's discount, and a strategy that rewrites the start of its context loses it. Empty when
 * the model has no price.
 */
export function buildCostChart(units: readonly UnitResult[], colors: Map<string, string>): ChartSpec | undefined {
  const datasets: ChartDataset[] = [];
  for (const unit of units) {
    const priced = unit.steps.filter((step) => step.costUsd !== undefined && step.status === 'ok');
    if (priced.length === 0) continue;
    const color = colors.get(unit.strategy) ?? '#000000';
    datasets.push(
      curve(
        unit.strategy,
        color,
        priced.map((step) => ({ x: step.step, y: step.costUsd as number })),
      ),
    );
  }
  if (datasets.length === 0) return undefined;
  return buildChart('line', datasets, { x: { title: 'step', format: 'step' }, y: { title: 'USD per step', format: 'usd' } });
}

/** Per strategy, the share of each step's prompt served from the provider's prompt cache (src/cache/). */
export function buildCachedShareChart(units: readonly UnitResult[], colors: Map<string, string>): ChartSpec {
  const datasets: ChartDataset[] = units.map((unit) =>
    curve(
      unit.strategy,
      colors.get(unit.strategy) ?? '#000000',
      unit.steps
        .filter((step) => step.status === 'ok' && step.promptTokens > 0)
        .map((step) => ({ x: step.step, y: step.cachedPrefixTokens / step.promptTokens })),
    ),
  );
  return buildChart('line', datasets, { x: { title: 'step', format: 'step' }, y: { title: 'cached share of the prompt', format: 'percent', max: 1 } });
}
