import { createRandom, deriveSeed } from '../random.js';
import type { FaultKind, FaultRates } from './types.js';

const ORDER: readonly FaultKind[] = ['server500', 'unavailable503', 'timeout', 'malformed'];

/**
 * Whether the call with this key fails, and how. One seeded draw per (seed, key), so a call's fate
 * does not depend on how many calls other units made before it.
 */
export function decideFault(seed: number, key: string, rates: FaultRates | undefined): FaultKind | undefined {
  if (rates === undefined) return undefined;
  const draw = createRandom(deriveSeed(seed, `fault:${key}`)).next();
  let edge = 0;
  for (const kind of ORDER) {
    edge += Math.min(1, Math.max(0, rates[kind] ?? 0));
    if (draw < edge) return kind;
  }
  return undefined;
}
