import type { RunResult, UnitResult } from '../metrics/types.js';
import type { StepRecord } from '../metrics/run-events.js';
import { applySavingVsFull } from '../metrics/summarize.js';
import { costOf, stepUsd, type ModelPrice } from '../pricing/prices.js';
import { resolvePrice } from '../pricing/resolve.js';
import { priceOverrideFor, type PriceFile } from '../pricing/file.js';

/**
 * A result re-costed at other prices (`check --prices`): every step's `costUsd` from the tokens it
 * was billed as (cached, written, uncached, output) and its strategy calls' (`call` events), then
 * the units' `cost_usd` and `cost_vs_full`. Tokens and the cache model's split are the run's own:
 * only the dollars per token change, so two results costed with different tables compare.
 * Units of a model the file does not name keep their costs.
 */
export function repriceResult(result: RunResult, prices: PriceFile): RunResult {
  const modelOf = new Map(result.scenarios.map((s) => [s.name, s.model]));
  const units = result.units.map((unit) => {
    const model = modelOf.get(unit.scenario);
    const override = model === undefined ? undefined : priceOverrideFor(prices, model);
    if (model === undefined || override === undefined) return unit;
    return repriceUnit(unit, resolvePrice(model, override) as ModelPrice);
  });
  return { ...result, units: applySavingVsFull(units) };
}

function repriceUnit(unit: UnitResult, price: ModelPrice): UnitResult {
  const overhead = new Map<number, number>();
  for (const e of unit.events) {
    if (e.type !== 'call' || !e.ok || e.purpose === 'step' || e.purpose === 'probe') continue;
    const cached = e.cachedTokens ?? 0;
    const write = e.cacheWriteTokens ?? 0;
    const usd = costOf({ cached, write, uncached: e.inputTokens - cached - write, output: e.outputTokens }, price);
    overhead.set(e.step, (overhead.get(e.step) ?? 0) + usd);
  }
  const steps = unit.steps.map((step): StepRecord => ({ ...step, costUsd: stepUsd(stepCost(step, price) + (overhead.get(step.step) ?? 0)) }));
  return { ...unit, steps, summary: { ...unit.summary, cost_usd: steps.reduce((n, s) => n + (s.costUsd ?? 0), 0) } };
}

function stepCost(step: StepRecord, price: ModelPrice): number {
  if (step.status !== 'ok') return 0;
  const write = step.cacheWriteTokens ?? 0;
  return costOf(
    { cached: step.cachedPrefixTokens, write, uncached: step.promptTokens - step.cachedPrefixTokens - write, output: step.completionTokens },
    price,
  );
}
