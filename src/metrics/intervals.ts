import { bootstrapInterval } from './bootstrap.js';
import { deriveSeed } from '../random.js';
import { completedSteps, logOfStep, type PairedFigures } from './paired-figures.js';

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

/** One log of a unit, paired with the same log of `full`: the sums the statistics take. */
interface LogSample {
  tokens: { mine: number; theirs: number };
  cost: { mine: number; theirs: number } | null;
  correct: number;
  asked: number;
  /** Needed uses reached in the log, and those whose fact the context held (kept or summarized). */
  needed: { held: number; reached: number };
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
  const interval = (measure: string, statistic: (drawn: readonly LogSample[]) => number | null): [number | null, number | null] =>
    bootstrapInterval(samples, statistic, { ...INTERVAL_OPTIONS, seed: seed(measure) }) ?? [null, null];
  const saving =
    full === undefined
      ? [null, null]
      : interval('saving', (drawn) =>
          ratio(
            drawn.map((s) => s.tokens),
            (r) => 1 - r,
          ),
        );
  const priced = samples.every((s) => s.cost !== null);
  const cost =
    full === undefined || !priced
      ? [null, null]
      : interval('cost', (drawn) =>
          ratio(
            drawn.map((s) => s.cost as { mine: number; theirs: number }),
            (r) => r - 1,
          ),
        );
  const recall = samples.some((s) => s.asked > 0) ? interval('recall', recallOf) : [null, null];
  const needed = samples.some((s) => s.needed.reached > 0) ? interval('needed', neededRecallOf) : [null, null];
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
 * Each log's sample: over the unit's completed steps in the log (the log whose first step is the
 * last at or before theirs), in their order, its tokens and USD and those of `full`'s completed
 * step of the same number (`completed`); the USD is null once a step of the pair has none. Each
 * log's steps are found by a search of the logs' first steps, in one pass over the unit's steps (a
 * scan of every step per log was quadratic: 35 s of a 480-log merge).
 */
function logSamples(unit: PairedFigures, full: PairedFigures | undefined, completed: ReadonlyMap<number, number>): LogSample[] {
  const logs = unit.logs ?? [];
  const starts = logs.map((log) => log.firstStep);
  const samples = logs.map((_, i): LogSample => {
    const counts = unit.counts?.[i];
    return {
      tokens: { mine: 0, theirs: 0 },
      cost: { mine: 0, theirs: 0 },
      correct: counts?.correct ?? 0,
      asked: counts?.asked ?? 0,
      needed: { held: counts?.held ?? 0, reached: counts?.reached ?? 0 },
    };
  });
  const { step, ok, tokens, priced, cost } = unit.steps;
  const theirs = full?.steps;
  if (theirs === undefined) return samples;
  for (let i = 0; i < unit.steps.length; i++) {
    if (ok[i] !== 1) continue;
    const pair = completed.get(step[i] as number);
    if (pair === undefined) continue;
    const sample = samples[logOfStep(starts, step[i] as number)];
    if (sample === undefined) continue;
    sample.tokens.mine += tokens[i] as number;
    sample.tokens.theirs += theirs.tokens[pair] as number;
    if (sample.cost !== null && priced[i] === 1 && theirs.priced[pair] === 1) {
      sample.cost.mine += cost[i] as number;
      sample.cost.theirs += theirs.cost[pair] as number;
    } else sample.cost = null;
  }
  return samples;
}

function ratio(pairs: readonly { mine: number; theirs: number }[], finish: (ratio: number) => number): number | null {
  let mine = 0;
  let theirs = 0;
  for (const pair of pairs) {
    mine += pair.mine;
    theirs += pair.theirs;
  }
  return theirs === 0 ? null : finish(mine / theirs);
}

function recallOf(drawn: readonly LogSample[]): number | null {
  let correct = 0;
  let asked = 0;
  for (const sample of drawn) {
    correct += sample.correct;
    asked += sample.asked;
  }
  return asked === 0 ? null : correct / asked;
}

function neededRecallOf(drawn: readonly LogSample[]): number | null {
  let held = 0;
  let reached = 0;
  for (const sample of drawn) {
    held += sample.needed.held;
    reached += sample.needed.reached;
  }
  return reached === 0 ? null : held / reached;
}
