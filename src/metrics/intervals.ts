import { bootstrapRatioInterval } from './bootstrap.js';
import { deriveSeed } from '../random.js';
import { completedSteps, logOfStep, type LogCounts, type PairedFigures } from './paired-figures.js';

/** Bootstrap settings of the per-strategy intervals (docs/decision.md): fixed, so results stay byte-identical. */
const INTERVAL_OPTIONS = { resamples: 2000, confidence: 0.95, seed: 27 } as const;

/** 95 % intervals of a unit over several logs; `null` where not measured. */
export interface UnitIntervals {
  saving_ci_low: number | null;
  saving_ci_high: number | null;
  cost_vs_full_ci_low: number | null;
  cost_vs_full_ci_high: number | null;
  answer_recall_ci_low: number | null;
  answer_recall_ci_high: number | null;
  needed_recall_ci_low: number | null;
  needed_recall_ci_high: number | null;
}

export const NO_INTERVALS: UnitIntervals = {
  saving_ci_low: null,
  saving_ci_high: null,
  cost_vs_full_ci_low: null,
  cost_vs_full_ci_high: null,
  answer_recall_ci_low: null,
  answer_recall_ci_high: null,
  needed_recall_ci_low: null,
  needed_recall_ci_high: null,
};

/**
 * Per log of a unit (column `i` is log `i`), paired with the same log of `full`: the sums the
 * statistics take. `priced` is 0 for a log with a step of a pair without USD.
 */
interface LogSamples {
  tokens: { mine: Float64Array; theirs: Float64Array };
  cost: { mine: Float64Array; theirs: Float64Array; priced: Uint8Array };
  correct: Float64Array;
  asked: Float64Array;
  /** Needed uses reached in the log, and those whose fact the context held (kept or summarized). */
  needed: { held: Float64Array; reached: Float64Array };
}

/**
 * Percentile bootstrap intervals over the logs of a scenario of several logs (src/metrics/bootstrap.ts):
 * a resample draws as many logs as there are, with replacement, each log with its pair in `full`,
 * and computes the same statistic as the summary — saving = 1 − Σ tokens / Σ full's tokens and
 * cost_vs_full = Σ USD / Σ full's USD − 1 over the steps both completed, answer recall = Σ correct
 * / Σ answered, needed recall = Σ held / Σ reached — so the point estimate over all logs is the summary's figure. Seeded per scenario,
 * strategy and measure. Nothing for a unit of one log (no spread to resample). `completed`:
 * `full`'s completed steps (`completedSteps(full)`), when the caller has them already.
 */
export function unitIntervals(unit: PairedFigures, full: PairedFigures | undefined, completed = full && completedSteps(full)): UnitIntervals {
  const logs = unit.logs ?? [];
  if (logs.length < 2) return NO_INTERVALS;
  const samples = logSamples(unit, full, completed ?? new Map());
  const seed = (measure: string): number => deriveSeed(INTERVAL_OPTIONS.seed, `${unit.summary.scenario}\u0000${unit.summary.strategy}\u0000${measure}`);
  const interval = (measure: string, numerators: Float64Array, denominators: Float64Array, finish: (ratio: number) => number): [number | null, number | null] =>
    bootstrapRatioInterval(numerators, denominators, finish, { ...INTERVAL_OPTIONS, seed: seed(measure) }) ?? [null, null];
  const saving = full === undefined ? [null, null] : interval('saving', samples.tokens.mine, samples.tokens.theirs, (r) => 1 - r);
  const priced = samples.cost.priced.every((flag) => flag === 1);
  const cost = full === undefined || !priced ? [null, null] : interval('cost', samples.cost.mine, samples.cost.theirs, (r) => r - 1);
  const recall = samples.asked.some((n) => n > 0) ? interval('recall', samples.correct, samples.asked, (r) => r) : [null, null];
  const needed = samples.needed.reached.some((n) => n > 0) ? interval('needed', samples.needed.held, samples.needed.reached, (r) => r) : [null, null];
  return {
    saving_ci_low: saving[0] ?? null,
    saving_ci_high: saving[1] ?? null,
    cost_vs_full_ci_low: cost[0] ?? null,
    cost_vs_full_ci_high: cost[1] ?? null,
    answer_recall_ci_low: recall[0] ?? null,
    answer_recall_ci_high: recall[1] ?? null,
    needed_recall_ci_low: needed[0] ?? null,
    needed_recall_ci_high: needed[1] ?? null,
  };
}

/**
 * Each log's sums: over the unit's completed steps in the log (the log whose first step is the
 * last at or before theirs), in their order, its tokens and USD and those of `full`'s completed
 * step of the same number (`completed`); a log's USD is unpriced once a step of a pair has none.
 * Each log's steps are found by a search of the logs' first steps, in one pass over the unit's
 * steps (a scan of every step per log was quadratic: 35 s of a 480-log merge).
 */
function logSamples(unit: PairedFigures, full: PairedFigures | undefined, completed: ReadonlyMap<number, number>): LogSamples {
  const logs = unit.logs ?? [];
  const count = logs.length;
  const column = (pick: (counts: LogCounts) => number) => Float64Array.from(logs, (_, i) => (unit.counts?.[i] !== undefined ? pick(unit.counts[i]) : 0));
  const samples: LogSamples = {
    tokens: { mine: new Float64Array(count), theirs: new Float64Array(count) },
    cost: { mine: new Float64Array(count), theirs: new Float64Array(count), priced: new Uint8Array(count).fill(1) },
    correct: column((counts) => counts.correct),
    asked: column((counts) => counts.asked),
    needed: { held: column((counts) => counts.held), reached: column((counts) => counts.reached) },
  };
  const theirs = full?.steps;
  if (theirs === undefined) return samples;
  const starts = logs.map((log) => log.firstStep);
  const { step, ok, tokens, priced, cost } = unit.steps;
  const sums = samples.tokens;
  const usd = samples.cost;
  for (let i = 0; i < unit.steps.length; i++) {
    if (ok[i] !== 1) continue;
    const pair = completed.get(step[i] as number);
    if (pair === undefined) continue;
    const log = logOfStep(starts, step[i] as number);
    if (log < 0) continue;
    sums.mine[log] = (sums.mine[log] as number) + (tokens[i] as number);
    sums.theirs[log] = (sums.theirs[log] as number) + (theirs.tokens[pair] as number);
    if (usd.priced[log] === 1 && priced[i] === 1 && theirs.priced[pair] === 1) {
      usd.mine[log] = (usd.mine[log] as number) + (cost[i] as number);
      usd.theirs[log] = (usd.theirs[log] as number) + (theirs.cost[pair] as number);
    } else usd.priced[log] = 0;
  }
  return samples;
}
