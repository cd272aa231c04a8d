import type { RunResult } from '../metrics/types.js';
import { runSuite } from '../run/run-suite.js';
import { spearman } from './spearman.js';
import { createRandom } from '../random.js';
import { quantile } from '../stats.js';

/**
 * `generate --like A --check B` (docs/scenarios.md, "Does it rank as real logs do?"): the
 * strategies run on the real logs A the fit saw, on the real logs B it did not see, and on the
 * sessions generated like A; their rankings by saving and by needed recall are compared with
 * Spearman's rank correlation. Generated-like-A against B should come as close to 1 as real A
 * against B does. The seed that draws the sessions moves a Spearman by up to 0.5 at a dozen logs a
 * side, so the sessions are drawn with several seeds, and the verdict is on all seeds' sessions
 * together: each strategy's figure averaged over the seeds, then ranked (`pooledVsB`). A mean of
 * per-seed Spearmans stays low however many seeds are drawn (each seed's draw noise lowers its own
 * Spearman, and averaging does not take that back).
 */

/** Ten strategies of different kinds: windows, cuts by age, maskings, summaries, production policies. */
const CHECK_STRATEGIES = [
  'rolling-window',
  'tiered-truncation',
  'state-anchor',
  'codex-rebuild',
  'observation-masking',
  'llm-summary-every-n',
  'clear-tool-results',
  'claude-code-autocompact',
  'gemini-cli-compress',
  'surgical-eviction',
] as const;

const CHECK_WINDOW = 32_000;

/** How far below real A vs real B the generated sessions' mean Spearman may fall before `--check` fails. */
export const CHECK_TOLERANCE = 0.1;

export interface CheckOptions {
  /** Folders of logs: the real logs the fit saw and real logs it did not see. */
  readonly realA: string;
  readonly realB: string;
  /** The sessions generated like A, one folder per generation seed (a seed's sessions, not the replay's). */
  readonly generated: readonly { readonly seed: number; readonly folder: string }[];
  readonly window?: number;
  readonly strategies?: readonly string[];
  /** The replay's seed (default 42). */
  readonly seed?: number;
  readonly workers?: number;
}

/** One figure of a strategy on the three sets; `generated` per seed, in the order of `CheckResult.seeds`. */
interface SetFigures {
  readonly realA: number | null;
  readonly realB: number | null;
  readonly generated: readonly (number | null)[];
}

/** One strategy's figures on the three sets. */
export interface CheckRow {
  readonly strategy: string;
  readonly saving: SetFigures;
  readonly neededRecall: SetFigures;
}

/** Spearman over the strategies measured on both sets; null when fewer than 3 are. */
export interface RankAgreement {
  readonly realAvsB: number | null;
  /** Generated-like-A vs real B per seed, in the order of `CheckResult.seeds`. */
  readonly generatedVsBPerSeed: readonly (number | null)[];
  /** Their mean over the seeds where it is defined (null where none is). */
  readonly generatedVsB: number | null;
  /** Their spread: the lowest and the highest. */
  readonly generatedVsBMin: number | null;
  readonly generatedVsBMax: number | null;
  /**
   * The generated figure pooled over the seeds (each strategy's mean, the "saving G" column)
   * against real B and against real A: the ranking with the seed noise averaged out, for judging
   * a change to the generator, and what `--check` judges (`pooledVsB`).
   */
  readonly pooledVsB: number | null;
  readonly pooledVsA: number | null;
  /** How far `pooledVsB` rests on which seeds were drawn (`resamplePooled`); null with one seed. */
  readonly pooledVsBResampled: ResampledRank | null;
}

/**
 * `pooledVsB` taken again over resamples of the seeds (as many seeds, drawn with replacement): how
 * much the verdict rests on the seeds drawn. At three seeds there are only ten distinct resamples,
 * so it says whether one seed carries the verdict; at twelve it is a spread.
 */
export interface ResampledRank {
  /** The 5th and 95th percentiles (nearest rank) of the resampled pooled Spearman against real B. */
  readonly low: number;
  readonly high: number;
  /** The share of resamples within the line (`pooledVsB` ≥ real A vs real B − `CHECK_TOLERANCE`); null without a line. */
  readonly withinLine: number | null;
}

/** Resamples of the seeds and their own seed: fixed, so `check.json` is the same for the same run. */
const RESAMPLES = 1000;
const RESAMPLE_SEED = 38;

export interface CheckResult {
  readonly window: number;
  /** The generation seeds, one set of sessions each. */
  readonly seeds: readonly number[];
  readonly rows: readonly CheckRow[];
  readonly saving: RankAgreement;
  readonly neededRecall: RankAgreement;
}

/**
 * Runs `full` and the strategies over real A, real B and each seed's sessions in one run (mocked
 * providers; A and B replayed once whatever the number of seeds) and compares the rankings.
 */
export async function checkLike(options: CheckOptions): Promise<CheckResult> {
  const window = options.window ?? CHECK_WINDOW;
  const strategies = [...(options.strategies ?? CHECK_STRATEGIES)];
  const result = await runSuite({
    scenarios: [options.realA, options.realB, ...options.generated.map((g) => g.folder)],
    overrides: { window, strategies: ['full', ...strategies], seed: options.seed ?? 42, tpm: null, rpm: null, lenient: true },
    workers: options.workers ?? 1,
    summaryOnlyCorpus: true,
  });
  const [a, b, ...g] = result.scenarios.map((s) => s.name);
  const rows = strategies.map((strategy): CheckRow => {
    const figure = (scenario: string | undefined, pick: (r: RunResult['units'][number]['summary']) => number | null): number | null => {
      const unit = result.units.find((u) => u.scenario === scenario && u.strategy === strategy);
      return unit === undefined ? null : pick(unit.summary);
    };
    const figures = (pick: (r: RunResult['units'][number]['summary']) => number | null): SetFigures => ({
      realA: figure(a, pick),
      realB: figure(b, pick),
      generated: g.map((s) => figure(s, pick)),
    });
    return { strategy, saving: figures((r) => r.saving_vs_full), neededRecall: figures((r) => r.needed_recall) };
  });
  const seeds = options.generated.map((s) => s.seed);
  return {
    window,
    seeds,
    rows,
    saving: rankAgreement(rows, seeds.length, (r) => r.saving),
    neededRecall: rankAgreement(rows, seeds.length, (r) => r.neededRecall),
  };
}

/** Spearman of real A and of each seed's sessions against real B, on one figure of each row. */
export function rankAgreement(rows: readonly CheckRow[], seeds: number, figure: (r: CheckRow) => SetFigures): RankAgreement {
  const column = (pick: (f: SetFigures) => number | null): (number | null)[] => rows.map((r) => pick(figure(r)));
  const realA = column((f) => f.realA);
  const realB = column((f) => f.realB);
  const pooled = column((f) => meanOf(f.generated));
  const perSeed = Array.from({ length: seeds }, (_, i) =>
    rankAgainst(
      column((f) => f.generated[i] ?? null),
      realB,
    ),
  );
  const realAvsB = rankAgainst(realA, realB);
  const generated = rows.map((r) => figure(r).generated);
  return {
    realAvsB,
    ...overSeeds(perSeed),
    pooledVsB: rankAgainst(pooled, realB),
    pooledVsA: rankAgainst(pooled, realA),
    pooledVsBResampled: resamplePooled(generated, realB, seeds, lineOf(realAvsB)),
  };
}

/**
 * The pooled ranking against real B over `RESAMPLES` draws of `seeds` seeds with replacement
 * (`generated[strategy][seed]`), with the share at or above `line`; null with fewer than 2 seeds
 * or where no draw ranks (fewer than 3 strategies measured).
 */
export function resamplePooled(
  generated: readonly (readonly (number | null)[])[],
  realB: readonly (number | null)[],
  seeds: number,
  line: number | null,
): ResampledRank | null {
  if (seeds < 2) return null;
  const random = createRandom(RESAMPLE_SEED);
  const values: number[] = [];
  const picks: number[] = new Array<number>(seeds).fill(0);
  for (let r = 0; r < RESAMPLES; r++) {
    for (let k = 0; k < seeds; k++) picks[k] = random.int(0, seeds - 1);
    const rho = rankAgainst(
      generated.map((g) => meanOf(picks.map((i) => g[i] ?? null))),
      realB,
    );
    if (rho !== null) values.push(rho);
  }
  if (values.length === 0) return null;
  const within = line === null ? null : values.filter((v) => v >= line).length / values.length;
  return { low: quantile(values, 0.05), high: quantile(values, 0.95), withinLine: within };
}

/** The mean and the spread of per-seed figures, over the seeds where one is defined. */
export function overSeeds(perSeed: readonly (number | null)[]): Omit<RankAgreement, 'realAvsB' | 'pooledVsB' | 'pooledVsA' | 'pooledVsBResampled'> {
  const defined = perSeed.filter((v): v is number => v !== null);
  const extreme = (pick: (...vs: number[]) => number): number | null => (defined.length === 0 ? null : pick(...defined));
  return { generatedVsBPerSeed: perSeed, generatedVsB: meanOf(perSeed), generatedVsBMin: extreme(Math.min), generatedVsBMax: extreme(Math.max) };
}

/** The mean of the values that are defined; null when none is. */
export function meanOf(values: readonly (number | null)[]): number | null {
  const defined = values.filter((v): v is number => v !== null);
  return defined.length === 0 ? null : defined.reduce((sum, v) => sum + v, 0) / defined.length;
}

/** The line a pooled figure must reach: real A vs real B less `CHECK_TOLERANCE` (the verdict's and the resamples' share alike); none without real A vs real B. */
function lineOf(realAvsB: number | null): number | null {
  return realAvsB === null ? null : realAvsB - CHECK_TOLERANCE;
}

/** The measures on which all seeds' sessions together (`pooledVsB`) rank more than `CHECK_TOLERANCE` below real A vs real B. */
export function shortfallsOf(result: Pick<CheckResult, 'saving' | 'neededRecall'>): ('saving' | 'needed recall')[] {
  const short = (s: RankAgreement): boolean => {
    const line = lineOf(s.realAvsB);
    return line !== null && s.pooledVsB !== null && s.pooledVsB < line;
  };
  return [...(short(result.saving) ? ['saving' as const] : []), ...(short(result.neededRecall) ? ['needed recall' as const] : [])];
}

/** The share of resamples of the seeds within the line under which a pooled verdict that holds is said to rest on the seeds drawn. */
const STEADY_SHARE = 0.9;

/** The measures whose pooled verdict holds but would fail in more than a tenth of resamples of the seeds (a pass that is a draw). */
export function unsteadyPasses(result: Pick<CheckResult, 'saving' | 'neededRecall'>): ('saving' | 'needed recall')[] {
  const short = shortfallsOf(result);
  const unsteady = (measure: 'saving' | 'needed recall'): boolean => {
    const within = (measure === 'saving' ? result.saving : result.neededRecall).pooledVsBResampled?.withinLine ?? null;
    return !short.includes(measure) && within !== null && within < STEADY_SHARE;
  };
  return (['saving', 'needed recall'] as const).filter(unsteady);
}

/** Where a failed measure passes in some resamples of the seeds: the share, and that more seeds would tell. */
export function seedDependence(result: Pick<CheckResult, 'saving' | 'neededRecall'>, short: readonly ('saving' | 'needed recall')[]): string {
  const shares = short.flatMap((measure) => {
    const within = (measure === 'saving' ? result.saving : result.neededRecall).pooledVsBResampled?.withinLine ?? 0;
    return within > 0 ? [`${measure} within the line in ${(within * 100).toFixed(0)} % of resamples of the seeds`] : [];
  });
  return shares.length === 0 ? '' : `; ${shares.join(', ')}: the verdict rests on the seeds drawn, draw more (--seeds)`;
}

/** Spearman of one set's figures against another's (real B's, or real A's), over the strategies measured on both. */
function rankAgainst(set: readonly (number | null)[], other: readonly (number | null)[]): number | null {
  const pairs = set.flatMap((a, i) => {
    const b = other[i] ?? null;
    return a === null || b === null ? [] : [[a, b] as const];
  });
  return spearman(
    pairs.map((p) => p[0]),
    pairs.map((p) => p[1]),
  );
}
