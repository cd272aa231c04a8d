import { basename } from 'node:path';
import type { UnitResult } from '../metrics/types.js';
import { DEFAULT_DECISION, recommend, type DecisionOptions, type DecisionRow } from '../metrics/recommend.js';
import type { Recommendation } from '../metrics/recommendation.js';
import { strategyNames, getStrategy } from '../strategies/index.js';

/**
 * The recommendation of a run (src/metrics/recommend.ts): every unit is a candidate named by its
 * label, with as settings the options that differ from its registered strategy's defaults (a
 * scenario's own options, `run --set`), so that "ship X" says which X. Units of stress-test
 * scenarios (`stress: true`, docs/scenarios.md) are left out: an edge case no real logs were
 * fitted to says what a strategy survives, not what to ship. A run of stress tests only is
 * recommended on them, as nothing else was asked.
 */
export function recommendRun(
  units: readonly UnitResult[],
  decision: DecisionOptions = DEFAULT_DECISION,
  scenarios: readonly { name: string; window: number; stress?: true }[] = [],
): Recommendation {
  const windows = new Map(scenarios.map((s) => [s.name, s.window]));
  const stress = new Set(scenarios.filter((s) => s.stress === true).map((s) => s.name));
  const counted = units.filter((unit) => !stress.has(unit.scenario));
  return recommend(
    (counted.length > 0 ? counted : units).map((unit) => decisionRowOf(unit, windows.get(unit.scenario))),
    decision,
  );
}

function decisionRowOf(unit: UnitResult, window: number | undefined): DecisionRow {
  return {
    ...(window !== undefined ? { window, ...neverActs(unit, window) } : {}),
    label: unit.strategy,
    strategy: unit.strategy,
    settings: changedOptions(unit.strategy, unit.options),
    summary: unit.summary,
    ...(unit.logs !== undefined ? { logs: unit.logs.map((log) => log.summary), logNames: unit.logs.map((log) => basename(log.transcript)) } : {}),
  };
}

/**
 * A strategy whose every declared trigger is at or above the window cannot act before the
 * context overflows (a production policy's absolute trigger, such as context editing's 100,000
 * input tokens, at a 100k window): the recommendation says so rather than leaving it unexplained.
 */
function neverActs(unit: UnitResult, window: number): { neverActs?: string } {
  const thresholds = unit.thresholds ?? [];
  if (thresholds.length === 0 || thresholds.some((t) => t.tokens < window)) return {};
  const first = thresholds[0] as { label: string; tokens: number };
  return {
    neverActs: `its ${first.label} at ${first.tokens.toLocaleString('en-US')} tokens is not below the ${window.toLocaleString('en-US')}-token window (set a lower one with --set)`,
  };
}

/** The options that differ from the registered strategy's defaults; none for a label the registry does not know. */
function changedOptions(name: string, options: Record<string, unknown>): Record<string, unknown> {
  if (!strategyNames().includes(name)) return {};
  const parsed = getStrategy(name).options.safeParse({});
  if (!parsed.success) return {};
  return diff(parsed.data as Record<string, unknown>, options);
}

function diff(defaults: Record<string, unknown>, options: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    const base = defaults[key];
    if (isRecord(base) && isRecord(value)) {
      const inner = diff(base, value);
      if (Object.keys(inner).length > 0) out[key] = inner;
    } else if (JSON.stringify(base) !== JSON.stringify(value)) out[key] = value;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
