import type { RunResult, UnitResult } from '../metrics/types.js';
import type { CheckReport, CheckRules, CheckThresholds, MeasureDiff, MeasureName, Regression, UnitDiff } from './types.js';
import { deriveSeed } from '../random.js';
import { bootstrapInterval } from '../metrics/bootstrap.js';
import { acceptedByRecommendation, describeOptionChanges } from './option-changes.js';
import { pairCost, pairRecall, pairRetention, pairTokens, type PairedMeasure } from './measures.js';

/**
 * Compares a run with its baseline, unit by unit (scenario × strategy), and lists the
 * regressions (README "CI"):
 * - `missing`: a baseline unit is not in the run;
 * - `crash`: a unit crashes that did not in the baseline;
 * - `tokens`: the paired change of tokens rises above `maxTokenIncrease` percent;
 * - `cost`: the paired change of USD (net of prompt cache) rises above `maxCostIncrease` percent;
 * - `answer_recall`, `retention`: the paired change falls below −`max…Drop` points.
 * A sampled measure is judged on its point estimate or on its bootstrap interval's bound nearest
 * to no change (see `Decision`). A regression of a unit whose options changed names the change; a
 * recall drop the run's own recommendation accepts is a note instead (option-changes.ts). Pure:
 * the same inputs give the same report.
 */
export function compareResults(current: RunResult, baseline: RunResult, rules: CheckRules): CheckReport {
  const decision = rules.decision === 'auto' ? (current.mode === 'mock' && baseline.mode === 'mock' ? 'estimate' : 'interval') : rules.decision;
  const now = new Map(current.units.map((unit) => [unitKey(unit), unit]));
  const then = new Set(baseline.units.map(unitKey));
  const units: UnitDiff[] = [];
  const regressions: Regression[] = [];
  const accepting: string[] = [];
  for (const before of baseline.units) {
    const after = now.get(unitKey(before));
    const thresholds = thresholdsFor(rules, before.scenario, before.strategy);
    if (after === undefined) {
      units.push({
        scenario: before.scenario,
        strategy: before.strategy,
        status: 'missing',
        crash: { baseline: crashOf(before), current: null },
        measures: [],
      });
      if (!rules.allowMissing)
        regressions.push({ scenario: before.scenario, strategy: before.strategy, rule: 'missing', message: 'is in the baseline but missing from the run' });
      continue;
    }
    const diff = compareUnit(before, after, thresholds, rules, decision);
    units.push(diff);
    const changes = describeOptionChanges(before, after);
    for (const regression of regressionsOf(diff, thresholds, rules.confidence)) {
      const accepted = acceptedByRecommendation(regression, current, changes);
      if (accepted !== undefined) accepting.push(accepted);
      else regressions.push(changes.length === 0 ? regression : { ...regression, message: `${regression.message}; options changed: ${changes.join(', ')}` });
    }
  }
  const added = current.units.filter((unit) => !then.has(unitKey(unit)));
  for (const unit of added)
    units.push({ scenario: unit.scenario, strategy: unit.strategy, status: 'new', crash: { baseline: null, current: crashOf(unit) }, measures: [] });
  return { rules, decision, units, regressions, notes: [...accepting, ...notesOf(current, baseline, added)] };
}

function unitKey(unit: UnitResult): string {
  return `${unit.scenario}\u0000${unit.strategy}`;
}

/** The thresholds of one unit: the rules, then every matching override in order. */
export function thresholdsFor(rules: CheckRules, scenario: string, strategy: string): CheckThresholds {
  const out: CheckThresholds = {
    maxTokenIncrease: rules.maxTokenIncrease,
    maxCostIncrease: rules.maxCostIncrease,
    maxRecallDrop: rules.maxRecallDrop,
    maxRetentionDrop: rules.maxRetentionDrop,
    allowNewCrash: rules.allowNewCrash,
  };
  for (const { scenario: s, strategy: t, ...values } of rules.overrides) {
    if ((s === undefined || s === scenario) && (t === undefined || t === strategy)) Object.assign(out, values);
  }
  return out;
}

function compareUnit(before: UnitResult, after: UnitResult, thresholds: CheckThresholds, rules: CheckRules, decision: 'estimate' | 'interval'): UnitDiff {
  const judge = <T>(measure: MeasureName, paired: PairedMeasure<T>, figures: [number | null, number | null], limit: number): MeasureDiff => {
    const change = paired.pairs.length === 0 ? null : paired.statistic(paired.pairs);
    const seed = deriveSeed(rules.seed, `${before.scenario}\u0000${before.strategy}\u0000${measure}`);
    const interval =
      change === null ? null : bootstrapInterval(paired.pairs, paired.statistic, { resamples: rules.resamples, confidence: rules.confidence, seed });
    const rises = measure === 'tokens' || measure === 'cost';
    let verdict: MeasureDiff['verdict'] = 'not-compared';
    if (change !== null) {
      // The bound nearest to no change: the interval must lie wholly beyond the limit.
      const decisive = decision === 'estimate' || interval === null ? change : rises ? interval[0] : interval[1];
      verdict = (rises ? decisive > limit : decisive < -limit) ? 'regression' : 'pass';
    }
    return { measure, baseline: figures[0], current: figures[1], change, interval, samples: paired.pairs.length, limit, verdict };
  };
  return {
    scenario: before.scenario,
    strategy: before.strategy,
    status: 'compared',
    crash: { baseline: crashOf(before), current: crashOf(after) },
    measures: [
      judge('tokens', pairTokens(before, after), [before.summary.total_tokens, after.summary.total_tokens], thresholds.maxTokenIncrease),
      judge('answer_recall', pairRecall(before, after), [before.summary.answer_recall, after.summary.answer_recall], thresholds.maxRecallDrop),
      judge('retention', pairRetention(before, after), [before.summary.retention, after.summary.retention], thresholds.maxRetentionDrop),
      judge('cost', pairCost(before, after), [before.summary.cost_usd ?? null, after.summary.cost_usd ?? null], thresholds.maxCostIncrease),
    ],
  };
}

function crashOf(unit: UnitResult): string | null {
  return unit.summary.crashed ? `${unit.summary.crash_kind ?? 'crash'}@${unit.summary.crash_step ?? '?'}` : null;
}

const MEASURE_WORDS: Record<MeasureName, string> = { tokens: 'tokens', cost: 'cost', answer_recall: 'answer recall', retention: 'retention' };

function regressionsOf(diff: UnitDiff, thresholds: CheckThresholds, confidence: number): Regression[] {
  const out: Regression[] = [];
  const at = { scenario: diff.scenario, strategy: diff.strategy };
  if (diff.crash.current !== null && diff.crash.baseline === null && !thresholds.allowNewCrash) {
    out.push({ ...at, rule: 'crash', message: `new crash: ${diff.crash.current.replace('@', ' at step ')}` });
  }
  for (const m of diff.measures) {
    if (m.verdict !== 'regression' || m.change === null) continue;
    const rises = m.measure === 'tokens' || m.measure === 'cost';
    const unit = rises ? '%' : ' points';
    const verb = rises ? 'rose' : 'fell';
    const interval = m.interval === null ? '' : `; ${Math.round(confidence * 100)}% CI ${formatSigned(m.interval[0])} to ${formatSigned(m.interval[1])}`;
    const samples = `${m.samples} paired ${rises ? 'steps' : 'probes'}`;
    out.push({
      ...at,
      rule: m.measure,
      message: `${MEASURE_WORDS[m.measure]} ${verb} ${Math.abs(m.change).toFixed(1)}${unit} (limit ${m.limit}${unit}${interval}; ${samples})`,
    });
  }
  return out;
}

/** A change with its sign and one decimal: `+6.2`, `-25.0`, `0.0`. */
export function formatSigned(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return `${rounded > 0 ? '+' : ''}${(Object.is(rounded, -0) ? 0 : rounded).toFixed(1)}`;
}

function notesOf(current: RunResult, baseline: RunResult, added: readonly UnitResult[]): string[] {
  const notes: string[] = [];
  if (current.tool.version !== baseline.tool.version)
    notes.push(`the baseline was written by ctxbench ${baseline.tool.version}, the run by ${current.tool.version}`);
  if (current.mode !== baseline.mode) notes.push(`the baseline ran on ${baseline.mode} providers, the run on ${current.mode} providers`);
  for (const info of current.scenarios) {
    const before = baseline.scenarios.find((s) => s.name === info.name);
    if (before !== undefined && before.seed !== info.seed) notes.push(`scenario ${info.name} ran with seed ${info.seed}, the baseline with ${before.seed}`);
    if (before !== undefined && before.steps !== info.steps) notes.push(`scenario ${info.name} has ${info.steps} steps, ${before.steps} in the baseline`);
  }
  if (added.length > 0) notes.push(`not in the baseline (not checked): ${added.map((u) => `${u.scenario} × ${u.strategy}`).join(', ')}`);
  return notes;
}
