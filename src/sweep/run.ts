import { basename } from 'node:path';
import type { RunResult, SummaryRow, UnitResult } from '../metrics/types.js';
import type { RunOptions } from '../run/run-suite.js';
import type { Scenario, StrategySpec } from '../scenario/types.js';
import type { Recommendation, Verdict } from '../metrics/recommendation.js';
import { runSuite } from '../run/run-suite.js';
import { UsageError } from '../errors.js';
import { DEFAULT_DECISION, recommend, REFERENCE, type DecisionOptions, type DecisionRow } from '../metrics/recommend.js';
import { axesOf, checkAxes, choosePoints, gridSize, parseGridFlag, type AxisValue, type GridAxis, type GridPoint } from './grid.js';
import { pointOptions, specsForExternalPoints, specsForPoints, sweptStrategy, validatePoint } from './points.js';
import { paretoFront, type FrontScore, type PointScore } from './pareto.js';

export interface SweepOptions extends Omit<RunOptions, 'specsOf' | 'shard' | 'decision'> {
  /** `--grid strategy.option=values` flags (src/sweep/grid.ts), of one strategy or several. */
  grid: string[];
  /** Run a seeded sample of this many points instead of the whole grid. */
  sample?: { count: number; seed: number };
  /** What the recommendation is made under (default: metrics/recommend.ts DEFAULT_DECISION). */
  decision?: DecisionOptions;
  /** The front's spending axis: dollars net of prompt cache (default; tokens when unpriced) or total tokens. */
  front?: 'cost' | 'tokens';
}

/** One point of a sweep (or `full`, the reference every sweep runs) and what it scored. */
export interface SweepPoint {
  /** Position in the full grid; −1 for the reference. */
  index: number;
  strategy: string;
  label: string;
  values: Record<string, AxisValue>;
  /** The options the point sets, as the strategy reads them (`{a: {b: 1}}` for `a.b=1`). */
  settings: Record<string, unknown>;
  score: PointScore;
  onFront: boolean;
  /** The label of the earlier point whose results this one repeats exactly (it collapses into it); null when distinct. */
  sameAs: string | null;
  /** Its verdict and rank in the recommendation (a repeated point takes its first's). */
  verdict: Verdict;
  reason: string;
  rank: number;
  /** The point's summary row per scenario. */
  units: SummaryRow[];
}

/** The outcome of a sweep: every point, the Pareto front, the recommendation, and the run. */
export interface SweepResult {
  /** The strategies swept, in flag order. */
  strategies: string[];
  axes: { strategy: string; key: string; flag: string; values: AxisValue[] }[];
  /** Points in the full grid (more than were run when sampled). */
  gridSize: number;
  sample: { count: number; seed: number } | null;
  /** The reference (`full`, first) and the points run, in grid order. */
  points: SweepPoint[];
  /** Points whose results differ from every earlier point's (the reference included). */
  distinct: number;
  /** The front's axes: `cost` or `tokens` against answer recall. */
  frontAxis: 'cost' | 'tokens';
  /** Positions in `points` of the Pareto front, in point order (distinct points that do not crash only). */
  front: number[];
  /** Position in `points` of the recommendation; null when nothing passes. */
  recommended: number | null;
  recommendation: Recommendation;
  /** The underlying run: one unit per scenario × point, labelled with the point, and `full`; it carries the recommendation too. */
  run: RunResult;
}

const REFERENCE_SPEC: StrategySpec = { label: REFERENCE, strategy: REFERENCE, options: {} };

/**
 * Runs the points of every swept strategy (each strategy over its own grid of options, or a
 * seeded sample of all the points) and `full` as the reference on every scenario, and ranks them
 * as a run's strategies are ranked (metrics/recommend.ts). The grid is parsed and every point
 * validated with its strategy's schema before any scenario is loaded, and again with each
 * scenario's own options before any unit runs; a bad value is a usage error naming its --grid flag.
 */
export async function runSweep(options: SweepOptions): Promise<SweepResult> {
  const axes = options.grid.map(parseGridFlag);
  const names = checkAxes(axes);
  if (names.includes(REFERENCE)) throw new UsageError(`--grid '${axes.find((a) => a.strategy === REFERENCE)?.flag ?? ''}': full has no options to sweep`);
  const points = choosePoints(axes, options.sample);
  const groups = names.map((name) => specGroup(name, axesOf(axes, name), points));
  const { grid: _grid, sample: _sample, decision: _decision, front: _front, ...run } = options;
  const result = await runSuite({
    ...run,
    overrides: { ...options.overrides, strategies: [REFERENCE, ...names] },
    specsOf: (scenario) => [REFERENCE_SPEC, ...groups.flatMap((group) => group.specsOf(scenario))],
  }).catch((error: unknown) => {
    // A name no scenario defines either is looked up in the registry, which names the known ones.
    const name = names.find((n) => error instanceof UsageError && error.message.startsWith(`unknown strategy "${n}"`));
    if (name !== undefined) throw new UsageError(`--grid '${axes.find((a) => a.strategy === name)?.flag ?? name}': ${(error as Error).message}`);
    throw error;
  });
  return rankPoints(result, axes, points, names, options);
}

/** How the specs of one swept strategy are made for a scenario (registered, or a scenario's own module or command). */
function specGroup(name: string, axes: GridAxis[], all: readonly GridPoint[]): { specsOf: (scenario: Scenario) => StrategySpec[] } {
  const points = all.filter((point) => point.strategy === name);
  // A name the registry does not know may be the label of a scenario's own module or command
  // strategy: its points are validated per scenario, once the scenario is prepared.
  const strategy = sweptStrategy(axes, true);
  if (strategy === undefined) return { specsOf: specsForExternalPoints(name, axes, points) };
  for (const point of points) validatePoint(strategy, axes, point, pointOptions(axes, point));
  return { specsOf: specsForPoints(strategy, axes, points) };
}

/** The scenario's window, for the words of a decision nothing meets. */
function windowOf(run: RunResult, scenario: string): { window?: number } {
  const window = run.scenarios.find((s) => s.name === scenario)?.window;
  return window === undefined ? {} : { window };
}

export function rankPoints(run: RunResult, axes: readonly GridAxis[], grid: readonly GridPoint[], names: string[], options: SweepOptions): SweepResult {
  const reference: GridPoint = { index: -1, strategy: REFERENCE, values: {}, label: REFERENCE };
  const all = [reference, ...grid];
  const unitsOf = (label: string): UnitResult[] => run.units.filter((unit) => unit.strategy === label);
  const sameAs = collapseIdentical(all.map((point) => unitsOf(point.label)));
  const rows: DecisionRow[] = all.flatMap((point, i) =>
    sameAs[i] !== null
      ? []
      : unitsOf(point.label).map((unit) => ({
          label: point.label,
          strategy: point.strategy,
          settings: pointOptions(axes, point),
          summary: unit.summary,
          ...(unit.logs !== undefined ? { logs: unit.logs.map((log) => log.summary), logNames: unit.logs.map((log) => basename(log.transcript)) } : {}),
          ...windowOf(run, unit.scenario),
        })),
  );
  const recommendation = withRepeats(recommend(rows, options.decision ?? DEFAULT_DECISION), all, sameAs);
  const points = all.map((point, i): SweepPoint => {
    const first = all[sameAs[i] ?? i] as GridPoint;
    const settings = pointOptions(axes, point);
    const candidate = recommendation.candidates.find((c) => c.strategy === first.strategy && sameSettings(c.settings, pointOptions(axes, first)));
    return {
      index: point.index,
      strategy: point.strategy,
      label: point.label,
      values: point.values,
      settings,
      score: scorePoint(unitsOf(point.label)),
      onFront: false,
      sameAs: sameAs[i] === null ? null : first.label,
      verdict: candidate?.verdict ?? 'acceptable',
      reason: sameAs[i] === null ? (candidate?.reason ?? '') : `the same results as ${first.label}`,
      rank: candidate?.rank ?? 0,
      units: unitsOf(point.label).map((unit) => unit.summary),
    };
  });
  const frontAxis = options.front === 'tokens' || points.some((p) => p.score.costUsd === null) ? 'tokens' : 'cost';
  const front = paretoFront(points.map((p) => frontScore(p, frontAxis)));
  for (const i of front) (points[i] as SweepPoint).onFront = true;
  const recommended = points.findIndex((p) => p.sameAs === null && p.verdict === 'recommended');
  return {
    strategies: names,
    axes: axes.map(({ strategy, key, flag, values }) => ({ strategy, key, flag, values })),
    gridSize: gridSize(axes),
    sample: options.sample ?? null,
    points,
    distinct: sameAs.filter((s) => s === null).length,
    frontAxis,
    front,
    recommended: recommended < 0 ? null : recommended,
    recommendation,
    run: { ...run, recommendation },
  };
}

/** The reason says which points were not candidates because they repeat another's results exactly. */
function withRepeats(recommendation: Recommendation, points: readonly GridPoint[], sameAs: readonly (number | null)[]): Recommendation {
  const counts = new Map<number, number>();
  for (const first of sameAs) if (first !== null) counts.set(first, (counts.get(first) ?? 0) + 1);
  if (counts.size === 0) return recommendation;
  const words = [...counts].map(([first, n]) => `${n} point${n === 1 ? '' : 's'} give${n === 1 ? 's' : ''} the same results as ${points[first]?.label ?? '?'}`);
  return { ...recommendation, reason: `${recommendation.reason}; ${words.join(', ')} (same_as in sweep.csv)` };
}

/** For each point, the position of the first earlier point with identical summary rows (the label aside); null when none. */
function collapseIdentical(unitsPerPoint: readonly UnitResult[][]): (number | null)[] {
  const seen = new Map<string, number>();
  return unitsPerPoint.map((units, i) => {
    const key = JSON.stringify(
      units.map(({ summary: { strategy: _strategy, ...figures }, logs }) => [figures, logs?.map((log) => ({ ...log.summary, strategy: '' }))]),
    );
    const first = seen.get(key);
    if (first !== undefined) return first;
    seen.set(key, i);
    return null;
  });
}

function frontScore(point: SweepPoint, axis: 'cost' | 'tokens'): FrontScore | undefined {
  if (point.sameAs !== null || point.verdict === 'crashes') return undefined;
  return { spend: axis === 'cost' ? (point.score.costUsd ?? 0) : point.score.totalTokens, recall: point.score.answerRecall };
}

function sameSettings(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A point's score over its units: tokens, crashes and waiting summed; answer recall pooled as
 * correct answers / valid answers over every scenario (a scenario with more ask points weighs more, as
 * in a unit's own recall).
 */
function scorePoint(units: readonly UnitResult[]): PointScore {
  let asked = 0;
  let correct = 0;
  for (const unit of units) {
    for (const answer of unit.probes?.answers ?? []) {
      // Unreached ask points are not answers (a crash is scored in `crashes`), and an ask the
      // reader misses on `full`'s context measures the reader (`invalid`): both are left out, as
      // in a unit's own `answer_recall`.
      if (answer.unanswered === true || answer.invalid === true) continue;
      asked += 1;
      if (answer.correct) correct += 1;
    }
  }
  return {
    totalTokens: units.reduce((n, unit) => n + unit.summary.total_tokens, 0),
    answerRecall: asked === 0 ? null : correct / asked,
    crashes: units.reduce((n, unit) => n + (unit.summary.logs !== null ? (unit.summary.crashed_logs ?? 0) : unit.summary.crashed ? 1 : 0), 0),
    waitMs: units.reduce((n, unit) => n + unit.summary.wait_ms, 0),
    costUsd: units.some((unit) => unit.summary.cost_usd === null) ? null : units.reduce((n, unit) => n + (unit.summary.cost_usd ?? 0), 0),
  };
}
