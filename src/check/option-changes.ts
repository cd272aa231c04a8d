import type { RunResult, UnitResult } from '../metrics/types.js';
import type { Regression } from './types.js';

/** `trigger 0.9 → 0.6`: the options that differ between the baseline's unit and the run's, dotted paths for nested ones. */
export function describeOptionChanges(before: UnitResult, after: UnitResult): string[] {
  const was = flatten(before.options);
  const now = flatten(after.options);
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])];
  return keys.filter((key) => JSON.stringify(was[key]) !== JSON.stringify(now[key])).map((key) => `${key} ${show(was[key])} → ${show(now[key])}`);
}

/**
 * A recall regression of a unit whose options were changed on purpose (a threshold the sweep or
 * the run recommended) is not a regression when the run's own recommendation accepts that unit
 * on that scenario (recall within its floor against `full` of the same run): `check` must not
 * contradict the recommendation it is shown beside. Returns the note that replaces it, or
 * undefined when the regression stands.
 */
export function acceptedByRecommendation(regression: Regression, current: RunResult, changes: readonly string[]): string | undefined {
  if (regression.rule !== 'answer_recall' || changes.length === 0) return undefined;
  const candidate = current.recommendation?.candidates.find((c) => c.strategy === regression.strategy);
  if (candidate === undefined) return undefined;
  const verdict = candidate.perScenario?.find((p) => p.scenario === regression.scenario)?.verdict ?? candidate.verdict;
  if (verdict !== 'recommended' && verdict !== 'acceptable') return undefined;
  return `${regression.scenario} × ${regression.strategy}: ${regression.message} with changed options (${changes.join(', ')}), but the run's recommendation accepts it (${verdict}: ${candidate.reason}): not a regression`;
}

function flatten(options: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) Object.assign(out, flatten(value as Record<string, unknown>, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = value;
  }
  return out;
}

function show(value: unknown): string {
  return value === undefined ? '(unset)' : typeof value === 'string' ? value : JSON.stringify(value);
}
