import type { ProviderName } from '../contracts/provider.js';
import type { PlannedUnit } from './plan.js';
import type { PreparedScenario } from './prepared-scenario.js';
import { createProvider } from '../providers/index.js';
import { preflightProvider } from '../providers/guard.js';
import { scenarioKey } from './plan.js';

export interface PreflightOptions {
  baseUrl?: string;
  env?: Record<string, string | undefined>;
  /** Live requests' time limit (`--request-timeout`): the preflight waits no longer, nor over 30 s. */
  requestTimeoutMs?: number;
  /** The run's stop signal: aborts the preflight. */
  signal?: AbortSignal;
}

/** A preflight that hangs is as bad as one that fails: a black-holed host gives up after this. */
const PREFLIGHT_TIMEOUT_MS = 30_000;

/**
 * Live runs: before any unit runs (and so before anything is written), one free call (a models
 * call) per provider and model the units use. A provider that cannot be used — bad key, no
 * permission, unreachable host, exhausted quota — raises ProviderError (exit 2) naming the
 * provider, the URL and the cause; a bad base URL or a missing key raises ConfigError.
 */
export async function preflightLiveProviders(
  units: readonly PlannedUnit[],
  prepared: ReadonlyMap<string, PreparedScenario>,
  options: PreflightOptions,
): Promise<void> {
  const seen = new Set<string>();
  for (const unit of units) {
    const scenario = prepared.get(scenarioKey(unit.scenario))?.scenario;
    if (scenario === undefined) continue;
    const key = `${scenario.provider}\u0000${scenario.model}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await preflightProvider(liveProvider(scenario.provider, scenario.model, options));
  }
}

function liveProvider(name: ProviderName, model: string, options: PreflightOptions) {
  return createProvider({
    name,
    mode: 'live',
    model,
    timeoutMs: Math.min(PREFLIGHT_TIMEOUT_MS, options.requestTimeoutMs ?? PREFLIGHT_TIMEOUT_MS),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
  });
}
