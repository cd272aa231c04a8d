import type { StrategySpec } from '../scenario/types.js';
import type { Strategy } from '../strategies/types.js';
import { getStrategy } from '../strategies/index.js';
import { InputError } from '../errors.js';

/** A strategy with its options validated and defaults filled. */
export interface ResolvedStrategy {
  strategy: Strategy;
  options: Record<string, unknown>;
}

/**
 * Resolves a scenario's strategy spec against the registry and validates its options with the
 * strategy's own schema (defaults filled).
 */
export function resolveStrategy(spec: StrategySpec, file = '<scenario>', override?: Strategy): ResolvedStrategy {
  const strategy = override ?? getStrategy(spec.strategy);
  const parsed = strategy.options.safeParse(spec.options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['strategies', spec.label, 'options', ...(issue?.path ?? []).map(String)].join('.');
    throw new InputError({ file, field }, issue?.message ?? 'invalid options');
  }
  return { strategy, options: parsed.data as Record<string, unknown> };
}
