import type { RunResult, UnitResult } from '../metrics/types.js';
import type { RunOptions } from '../engine/run-suite.js';
import { runSuite } from '../engine/run-suite.js';
import { UsageError } from '../errors.js';
import { checkAxes, choosePoints, gridSize, parseGridFlag, type AxisValue, type GridAxis, type GridPoint } from './grid.js';
import { pointOptions, specsForExternalPoints, specsForPoints, sweptStrategy, validatePoint } from './points.js';
import { paretoFront, recommend, type Constraints, type PointScore, type Recommendation } from './pareto.js';

export interface SweepOptions extends Omit<RunOptions, 'specsOf' | 'shard'> {
  /** `--grid strategy.option=values` flags (src/sweep/grid.ts); they must name one strategy. */
  grid: string[];
  /** Run a seeded sample of this many points instead of the whole grid. */
  sample?: { count: number; seed: number };
  /** Constraints of the recommendation (default: no crash). */
  constraints?: Constraints;
}

/** One point of a sweep and what it scored over the sweep's scenarios. */
export interface SweepPoint {
  /** Position in the full grid. */
  index: number;
  label: string;
  values: Record<string, AxisValue>;
  score: PointScore;
  onFront: boolean;
  /** The point's summary row per scenario. */
  units: UnitResult['summary'][];
}

/** The outcome of a sweep: every point, the Pareto front, the recommendation, and the run. */
export interface SweepResult {
  strategy: string;
  axes: { key: string; flag: string; values: AxisValue[] }[];
  /** Points in the full grid (more than were run when sampled). */
  gridSize: number;
  sample: { count: number; seed: number } | null;
  constraints: Constraints;
  points: SweepPoint[];
  /** Positions in `points` of the Pareto front, in point order. */
  front: number[];
  recommendation: Recommendation;
  /** The underlying run: one unit per scenario × point, labelled with the point. */
  run: RunResult;
}

/** By default a recommended point must not crash. */
const DEFAULT_CONSTRAINTS: Constraints = { maxCrashes: 0 };

/**
 * Runs one strategy over a grid of its options (or a seeded sample of it) on every scenario, and
 * ranks the points. The grid is parsed and every point validated with the strategy's own schema
 * before any scenario is loaded, and again with each scenario's own options for the strategy
 * before any unit runs; a bad value is a usage error naming its --grid flag.
 */
export async function runSweep(options: SweepOptions): Promise<SweepResult> {
  const axes = options.grid.map(parseGridFlag);
  // A name the registry does not know may be the label of a scenario's own module or command
  // strategy: its points are validated per scenario, once the scenario is prepared.
  const name = checkAxes(axes);
  const strategy = sweptStrategy(axes, true);
  const points = choosePoints(axes, options.sample);
  if (strategy !== undefined) for (const point of points) validatePoint(strategy, axes, point, pointOptions(axes, point));
  const { grid: _grid, sample: _sample, constraints: _constraints, ...run } = options;
  const result = await runSuite({
    ...run,
    overrides: { ...options.overrides, strategies: [name] },
    specsOf: strategy !== undefined ? specsForPoints(strategy, axes, points) : specsForExternalPoints(name, axes, points),
  }).catch((error: unknown) => {
    // A name no scenario defines either is looked up in the registry, which names the known ones.
    if (error instanceof UsageError && error.message.startsWith(`unknown strategy "${name}"`))
      throw new UsageError(`--grid '${axes[0]?.flag ?? name}': ${error.message}`);
    throw error;
  });
  return rankPoints(result, axes, points, name, options);
}

function rankPoints(run: RunResult, axes: readonly GridAxis[], points: readonly GridPoint[], strategy: string, options: SweepOptions): SweepResult {
  const scores = points.map((point) => scorePoint(run.units.filter((unit) => unit.strategy === point.label)));
  const front = paretoFront(scores);
  const constraints = options.constraints ?? DEFAULT_CONSTRAINTS;
  return {
    strategy,
    axes: axes.map(({ key, flag, values }) => ({ key, flag, values })),
    gridSize: gridSize(axes),
    sample: options.sample ?? null,
    constraints,
    points: points.map((point, i) => ({
      index: point.index,
      label: point.label,
      values: point.values,
      score: scores[i] as PointScore,
      onFront: front.includes(i),
      units: run.units.filter((unit) => unit.strategy === point.label).map((unit) => unit.summary),
    })),
    front,
    recommendation: recommend(scores, constraints),
    run,
  };
}

/**
 * A point's score over its units: tokens, crashes and waiting summed; answer recall pooled as
 * correct answers / answers over every scenario (a scenario with more ask points weighs more, as
 * in a unit's own recall).
 */
function scorePoint(units: readonly UnitResult[]): PointScore {
  let asked = 0;
  let correct = 0;
  for (const unit of units) {
    for (const answer of unit.probes?.answers ?? []) {
      // Unreached ask points are not answers; a crash is scored in `crashes`.
      if (answer.unanswered === true) continue;
      asked += 1;
      if (answer.correct) correct += 1;
    }
  }
  return {
    totalTokens: units.reduce((n, unit) => n + unit.summary.total_tokens, 0),
    answerRecall: asked === 0 ? null : correct / asked,
    crashes: units.filter((unit) => unit.summary.crashed).length,
    waitMs: units.reduce((n, unit) => n + unit.summary.wait_ms, 0),
    costUsd: units.some((unit) => unit.summary.cost_usd === null) ? null : units.reduce((n, unit) => n + (unit.summary.cost_usd ?? 0), 0),
  };
}
