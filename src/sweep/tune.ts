import type { RunResult, UnitResult } from '../metrics/types.js';
import type { RunOptions } from '../run/run-suite.js';
import type { StrategySpec } from '../scenario/types.js';
import type { Candidate } from '../metrics/recommendation.js';
import type { Strategy, TunableRange } from '../strategies/types.js';
import { runSuite } from '../run/run-suite.js';
import { applySavingVsFull } from '../metrics/summarize.js';
import { UsageError } from '../errors.js';
import { DEFAULT_DECISION, recommend, REFERENCE, type DecisionOptions } from '../metrics/recommend.js';
import { getStrategy, strategyNames } from '../strategies/index.js';
import { gridSize, pointAt, type GridAxis, type GridPoint } from './grid.js';
import { pointOptions, specsForExternalPoints, specsForPoints } from './points.js';
import { loadedStrategyModule, loadStrategyModules } from '../strategies/external/module-loader.js';
import { moduleSpec } from '../scenario/external-spec.js';
import { rankPoints, type SweepResult } from './run.js';

export interface TuneOptions extends Omit<RunOptions, 'specsOf' | 'shard' | 'decision'> {
  /** The strategies to tune (default: every registered strategy that declares `tunable` options). */
  strategies?: string[];
  /**
   * Strategy modules of one's own (absolute paths) to tune by their `tunable` options, labelled
   * after their file (`--strategy-module`): beside a `strategies` selection, else alone.
   */
  modules?: string[];
  /** Most point runs (a point on one scenario) the search may spend; `full` runs once besides. */
  budget?: number;
  decision?: DecisionOptions;
}

/** One round of the search: the points it ran. */
interface TuneRound {
  round: number;
  /** Lattice steps between a survivor and the neighbours tried this round, on its widest axis (the coarse grid's first). */
  stride: number;
  points: string[];
}

export interface TuneResult {
  /** The points run, ranked with their front and recommendation, as a sweep of them (`sweep.*` files). */
  sweep: SweepResult;
  rounds: TuneRound[];
  /** Point runs spent (points × scenarios), and what the full grid of the same options would take. */
  runs: number;
  gridRuns: number;
}

/** The default budget: a third of the grid, which the search is measured against (docs/decision.md). */
const GRID_SHARE = 1 / 3;

/**
 * The axes of every tunable strategy: each option it declares as tunable, over its range. Values
 * are `min + i × step`, rounded to the step's decimals, up to `max`.
 */
export function tunableAxes(names: readonly string[], strategyOf: (name: string) => Strategy = getStrategy): GridAxis[] {
  return names.flatMap((name) => {
    const tunable = strategyOf(name).tunable ?? {};
    return Object.entries(tunable).map(([key, range]) => ({
      flag: `${name}.${key}=${range.min}..${range.max}:${range.step}`,
      strategy: name,
      path: key.split('.'),
      key,
      values: rangeValues(range),
    }));
  });
}

function rangeValues(range: TunableRange): number[] {
  const decimals = (String(range.step).split('.')[1] ?? '').length;
  const count = Math.floor((range.max - range.min) / range.step + 1e-9) + 1;
  return Array.from({ length: count }, (_, i) => Number((range.min + i * range.step).toFixed(decimals)));
}

/**
 * Searches each strategy's tunable options for the setting to ship (coarse to fine successive
 * halving on the options' lattice): a coarse grid first (about four values per option), then, each
 * round, the better half of the points run so far, ranked as the recommendation ranks them (meets
 * the floor, then the objective; else fewest needed facts lost), has its lattice neighbours at half
 * the stride tried, until the stride is one step and no better point turns up, or the budget is
 * spent. `full` runs once, as the reference. Deterministic: the same inputs run the same points.
 */
export async function runTune(options: TuneOptions): Promise<TuneResult> {
  const modules = await loadTunedModules(options.modules ?? []);
  const registered = options.strategies ?? (modules.size > 0 ? [] : strategyNames().filter((name) => getStrategy(name).tunable !== undefined));
  const names = [...registered, ...modules.keys()];
  const strategyOf = (name: string): Strategy => modules.get(name)?.strategy ?? getStrategy(name);
  for (const name of names) if (strategyOf(name).tunable === undefined) throw new UsageError(`${name} declares no tunable options (see ctxbench strategies)`);
  const axes = tunableAxes(names, strategyOf);
  if (axes.length === 0) throw new UsageError('no strategy to tune: none declares tunable options');
  const lattice = new Lattice(axes, names);
  const budget = options.budget ?? Math.max(1, Math.floor(gridSize(axes) * GRID_SHARE));
  const decision = options.decision ?? DEFAULT_DECISION;
  const units: UnitResult[] = [];
  let first: RunResult | undefined;
  const ran = new Map<number, GridPoint>();
  const rounds: TuneRound[] = [];
  let scenarios = 1;
  let batch = lattice.coarse();
  for (let level = 0; batch.length > 0; level++) {
    const room = Math.floor((budget - ran.size * scenarios) / scenarios);
    const chosen = batch.slice(0, Math.max(0, room));
    if (chosen.length === 0) break;
    const result = await runPoints(withProgressAfter(options, units.length), { registered, modules }, axes, chosen, level === 0);
    first ??= result;
    scenarios = Math.max(1, result.scenarios.length);
    units.push(...result.units);
    for (const point of chosen) ran.set(point.index, point);
    rounds.push({ round: level + 1, stride: lattice.widest(level), points: chosen.map((p) => p.label) });
    const ranked = rankRan(units, axes, [...ran.values()], decision);
    const survivors = ranked.slice(0, Math.max(1, Math.ceil(ranked.length / 2)));
    // Each level halves the distance to the neighbours tried; at one step, it goes on while a survivor has an untried neighbour.
    batch = survivors
      .flatMap((point) => lattice.neighbours(point, level + 1))
      .filter((p, i, all) => !ran.has(p.index) && all.findIndex((q) => q.index === p.index) === i);
  }
  if (first === undefined) throw new UsageError(`--budget ${budget} runs no point`);
  const { recommendation: _r, ...base } = first;
  const run: RunResult = { ...base, units: applySavingVsFull(units) };
  const points = [...ran.values()].sort((a, b) => a.index - b.index);
  const sweep = rankPoints(run, axes, points, names, { grid: [], decision, scenarios: options.scenarios });
  return { sweep, rounds, runs: ran.size * scenarios, gridRuns: gridSize(axes) * scenarios };
}

/** A strategy module to tune: its path and the strategy it exports, by its label. */
interface TunedModule {
  path: string;
  strategy: Strategy;
}

/**
 * Loads the strategy modules to tune, labelled after their file as `run --strategy-module` labels
 * them; a module's `tunable` ranges are checked as a registered strategy's would be.
 */
async function loadTunedModules(paths: readonly string[]): Promise<Map<string, TunedModule>> {
  const specs = paths.map((path) => moduleSpec(path, undefined, {}));
  await loadStrategyModules(specs, '--strategy-module');
  const modules = new Map<string, TunedModule>();
  for (const spec of specs) {
    const path = spec.source?.kind === 'module' ? spec.source.path : spec.label;
    if (modules.has(spec.label)) throw new UsageError(`two strategy modules are labelled "${spec.label}" (a --strategy-module is named after its file)`);
    const strategy = loadedStrategyModule(path);
    const problem = tunableProblem(strategy.tunable);
    if (problem !== undefined) throw new UsageError(`--strategy-module ${path}: its \`tunable\` ${problem}`);
    modules.set(spec.label, { path, strategy });
  }
  return modules;
}

/** What is wrong with a module's `tunable` ranges, if anything (each a finite min ≤ max, step > 0). */
function tunableProblem(tunable: unknown): string | undefined {
  if (tunable === undefined) return undefined;
  if (typeof tunable !== 'object' || tunable === null) return 'is not an object of ranges';
  for (const [key, range] of Object.entries(tunable as Record<string, unknown>)) {
    const r = range as Partial<TunableRange> | null;
    const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
    if (r === null || !finite(r.min) || !finite(r.max) || !finite(r.step)) return `option ${key}: expects { min, max, step } numbers`;
    if (r.min > r.max || r.step <= 0) return `option ${key}: expects min ≤ max and a step above 0`;
  }
  return undefined;
}

/**
 * The options with their progress counted on from the `before` units earlier rounds ran: each round
 * is a run of its own, and a progress line of "4/2 units" in the second would read as a fault.
 */
function withProgressAfter(options: TuneOptions, before: number): TuneOptions {
  const onUnit = options.onUnit;
  if (onUnit === undefined || before === 0) return options;
  return { ...options, onUnit: (event) => onUnit({ ...event, index: event.index + before, total: event.total + before, done: event.done + before }) };
}

/** Runs `points` (and `full`, the first time) on every scenario: one run of the suite. */
async function runPoints(
  options: TuneOptions,
  tuned: { registered: string[]; modules: Map<string, TunedModule> },
  axes: GridAxis[],
  points: GridPoint[],
  withFull: boolean,
): Promise<RunResult> {
  const { strategies: _s, modules: _m, budget: _b, decision: _d, ...run } = options;
  const own = (name: string) => ({ axes: axes.filter((a) => a.strategy === name), points: points.filter((p) => p.strategy === name) });
  const specs = [
    ...tuned.registered.map((name) => specsForPoints(getStrategy(name), own(name).axes, own(name).points)),
    ...[...tuned.modules.keys()].map((label) => specsForExternalPoints(label, own(label).axes, own(label).points)),
  ];
  const reference: StrategySpec[] = withFull ? [{ label: REFERENCE, strategy: REFERENCE, options: {} }] : [];
  const modulePaths = [...tuned.modules.values()].map((m) => m.path);
  return runSuite({
    ...run,
    overrides: {
      ...options.overrides,
      strategies: [...(withFull ? [REFERENCE] : []), ...tuned.registered],
      ...(modulePaths.length > 0 ? { strategyModules: modulePaths } : {}),
    },
    specsOf: (scenario) => [...reference, ...specs.flatMap((of) => of(scenario))],
  });
}

/**
 * The points run so far, best first, as the recommendation ranks them: those meeting the floor
 * by the objective, then the rest by needed facts lost (answer recall where not measured), then
 * those that crash.
 */
function rankRan(units: readonly UnitResult[], axes: readonly GridAxis[], ran: readonly GridPoint[], decision: DecisionOptions): GridPoint[] {
  const rows = units.map((unit) => {
    const point = ran.find((p) => p.label === unit.strategy);
    return {
      label: unit.strategy,
      strategy: point?.strategy ?? unit.strategy,
      settings: point === undefined ? {} : pointOptions(axes, point),
      summary: unit.summary,
      ...(unit.logs !== undefined ? { logs: unit.logs.map((log) => log.summary) } : {}),
    };
  });
  const rec = recommend(rows, decision);
  const score = (c: Candidate): [number, number] => {
    const meets = c.verdict === 'acceptable' || (c.verdict === 'recommended' && rec.meetsFloor);
    if (meets) return [0, decision.objective === 'cost' ? (c.costUsd ?? c.totalTokens) : decision.objective === 'tokens' ? c.totalTokens : c.peakContextTokens];
    if (c.verdict === 'crashes') return [2, 0];
    return [1, c.neededLost ?? (c.answerRecall === null ? 1 : 1 - c.answerRecall)];
  };
  const byLabel = new Map(rec.candidates.map((c) => [`${c.strategy}\u0000${JSON.stringify(c.settings)}`, score(c)]));
  const keyOf = (p: GridPoint): [number, number] => byLabel.get(`${p.strategy}\u0000${JSON.stringify(pointOptions(axes, p))}`) ?? [3, 0];
  return [...ran].sort((a, b) => keyOf(a)[0] - keyOf(b)[0] || keyOf(a)[1] - keyOf(b)[1] || a.index - b.index);
}

/** The options' lattice of every tuned strategy: points by their grid index, and their neighbours. */
class Lattice {
  constructor(
    private readonly axes: readonly GridAxis[],
    private readonly names: readonly string[],
  ) {}

  /** Lattice steps between neighbours on `axis` at `level`: half the axis, then halved each level, at least one. */
  private stride(axis: GridAxis, level: number): number {
    return Math.max(1, Math.ceil((axis.values.length - 1) / 2 ** (level + 1)));
  }

  /** The widest stride of any axis at `level` (for the rounds' record). */
  widest(level: number): number {
    return Math.max(...this.axes.map((axis) => this.stride(axis, level)));
  }

  /** Per strategy, each axis at its ends and middle (three values; two or one on a short axis). */
  coarse(): GridPoint[] {
    return this.names.flatMap((name) => {
      const own = this.axes.filter((a) => a.strategy === name);
      const picks = own.map((axis) => {
        const step = this.stride(axis, 0);
        const at = Array.from({ length: Math.floor((axis.values.length - 1) / step) + 1 }, (_, i) => i * step);
        return at[at.length - 1] === axis.values.length - 1 ? at : [...at, axis.values.length - 1];
      });
      return product(picks).map((positions) => this.pointOf(name, positions));
    });
  }

  /** The points one stride of `level` away from `point` along each of its axes. */
  neighbours(point: GridPoint, level: number): GridPoint[] {
    const own = this.axes.filter((a) => a.strategy === point.strategy);
    const positions = own.map((axis) => axis.values.indexOf(point.values[axis.key] as number));
    return own.flatMap((axis, i) =>
      [-this.stride(axis, level), this.stride(axis, level)].flatMap((delta) => {
        const at = (positions[i] as number) + delta;
        if (at < 0 || at >= axis.values.length) return [];
        return [
          this.pointOf(
            point.strategy,
            positions.map((p, j) => (j === i ? at : p)),
          ),
        ];
      }),
    );
  }

  private pointOf(name: string, positions: readonly number[]): GridPoint {
    let index = 0;
    for (const other of this.names) {
      if (other === name) break;
      index += this.axes.filter((a) => a.strategy === other).reduce((n, a) => n * a.values.length, 1);
    }
    const own = this.axes.filter((a) => a.strategy === name);
    const offset = own.reduce((acc, axis, i) => acc * axis.values.length + (positions[i] as number), 0);
    return pointAt(this.axes, index + offset);
  }
}

function product(lists: readonly number[][]): number[][] {
  return lists.reduce<number[][]>((acc, list) => acc.flatMap((prefix) => list.map((v) => [...prefix, v])), [[]]);
}
