import { UsageError } from '../errors.js';
import type { Strategy } from './types.js';
import { full } from './full.js';
import { rollingWindow } from './rolling-window.js';

/** Every registered strategy, by name (= file name). Adding one is one line here. */
export const strategies = {
  full,
  'rolling-window': rollingWindow,
} satisfies Record<string, Strategy>;

export type StrategyName = keyof typeof strategies;

export function strategyNames(): string[] {
  return Object.keys(strategies);
}

/** Looks a strategy up by name; an unknown name fails with the list of known ones. */
export function getStrategy(name: string): Strategy {
  const found = (strategies as Record<string, Strategy>)[name];
  if (found === undefined) {
    throw new UsageError(`unknown strategy "${name}"; known strategies: ${strategyNames().join(', ')}`);
  }
  return found;
}
