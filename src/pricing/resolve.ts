import type { ModelPrice } from './prices.js';
import { priceForModel } from './prices.js';

/** A scenario's `prices` override (USD per million tokens). */
export interface PriceOverride {
  input: number;
  cachedInput?: number;
  cacheWrite?: number;
  output: number;
}

/**
 * The price a run is costed with: the scenario's override when given (cached input and cache
 * writes default to the table's ratios for the model, else to the input price), else the table's.
 */
export function resolvePrice(model: string, override?: PriceOverride): ModelPrice | undefined {
  const table = priceForModel(model);
  if (override === undefined) return table;
  const ratio = (part: number | undefined): number => (table === undefined || table.input === 0 || part === undefined ? 1 : part / table.input);
  return {
    input: override.input,
    cachedInput: override.cachedInput ?? override.input * ratio(table?.cachedInput),
    cacheWrite: override.cacheWrite ?? (table === undefined ? 0 : override.input * ratio(table.cacheWrite)),
    output: override.output,
    source: 'scenario prices',
    asOf: 'scenario',
  };
}
