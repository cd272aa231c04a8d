import type { StepRecord } from './run-events.js';
import type { LogSummary, NeededRecord, ProbeAnswer } from './types.js';
import { bootstrapInterval } from './bootstrap.js';
import { deriveSeed } from '../random.js';
import { countNeeded } from './needed.js';

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

/** What the pairing with `full` reads of a step: its number, status, tokens and cost. */
export type PairedStep = Pick<StepRecord, 'step' | 'status' | 'promptTokens' | 'completionTokens' | 'overheadTokens' | 'costUsd'>;

/** What the intervals need of a unit: its steps, its logs and its probe answers. */
export interface IntervalInput {
  summary: { scenario: string; strategy: string };
  steps: readonly PairedStep[];
  logs?: readonly LogSummary[];
  probes?: {
    answers: readonly Pick<ProbeAnswer, 'probeId' | 'correct' | 'unanswered' | 'invalid'>[];
    needed?: readonly Pick<NeededRecord, 'useStep' | 'outcome'>[];
  };
}

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
 * strategy and measure. Nothing for a unit of one log (no spread to resample).
 */
export function unitIntervals(unit: IntervalInput, full: IntervalInput | undefined): UnitIntervals {
  const logs = unit.logs ?? [];
  if (logs.length < 2) return NO_INTERVALS;
  // Each log's steps and needed uses, found once (a scan of every step per log was quadratic: 35 s
  // of a 480-log merge).
  const starts = logs.map((log) => log.firstStep);
  const mine = byLog(unit.steps, starts, (step) => step.step);
  const theirs = byLog(full?.steps ?? [], starts, (step) => step.step);
  const uses = byLog(unit.probes?.needed ?? [], starts, (record) => record.useStep);
  const answers = answersByLog(logs, unit.probes?.answers ?? []);
  const samples = logs.map((_, i) => logSample({ mine: mine[i] ?? [], theirs: theirs[i] ?? [], needed: uses[i] ?? [], answers: answers[i] as Answered }));
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

/** What falls in each log: its steps, or needed uses, by the log whose first step is the last at or before theirs. */
function byLog<T>(items: readonly T[], starts: readonly number[], stepOf: (item: T) => number): T[][] {
  const groups: T[][] = starts.map(() => []);
  for (const item of items) {
    const step = stepOf(item);
    let low = 0;
    let high = starts.length - 1;
    if (high < 0 || step < (starts[0] as number)) continue;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= step) low = middle;
      else high = middle - 1;
    }
    (groups[low] as T[]).push(item);
  }
  return groups;
}

/** A log's answers as answer recall counts them: those asked, and of them those right. */
interface Answered {
  correct: number;
  asked: number;
}

/**
 * Each log's answers: an answer is the log's whose id and a `/` begin its probe id (combine-logs.ts
 * prefixes them so), and counts as answer_recall counts it (an ask point not reached, or not valid
 * there because the reader missed it from full's context, is no answer). Each answer is matched
 * at each `/` of its id, not against every log: a scan of every answer per log was 3.6 s of a
 * 477-log merge.
 */
function answersByLog(logs: readonly LogSummary[], answers: NonNullable<IntervalInput['probes']>['answers']): Answered[] {
  const counts = logs.map((): Answered => ({ correct: 0, asked: 0 }));
  const byId = new Map<string, Answered[]>();
  logs.forEach((log, i) => byId.set(log.id, [...(byId.get(log.id) ?? []), counts[i] as Answered]));
  for (const answer of answers) {
    if (answer.unanswered === true || answer.invalid === true) continue;
    const id = answer.probeId;
    for (let at = id.indexOf('/'); at !== -1; at = id.indexOf('/', at + 1)) {
      for (const count of byId.get(id.slice(0, at)) ?? []) {
        count.asked += 1;
        if (answer.correct) count.correct += 1;
      }
    }
  }
  return counts;
}

/** One log's items: the unit's steps, full's steps, the unit's needed uses, its answers counted. */
interface LogItems {
  mine: readonly PairedStep[];
  theirs: readonly PairedStep[];
  needed: readonly Pick<NeededRecord, 'useStep' | 'outcome'>[];
  answers: Answered;
}

function logSample(items: LogItems): LogSample {
  const baseline = new Map<number, PairedStep>();
  for (const step of items.theirs) if (step.status === 'ok') baseline.set(step.step, step);
  const tokens = { mine: 0, theirs: 0 };
  let cost: { mine: number; theirs: number } | null = { mine: 0, theirs: 0 };
  for (const step of items.mine) {
    const theirs = baseline.get(step.step);
    if (step.status !== 'ok' || theirs === undefined) continue;
    tokens.mine += stepTokens(step);
    tokens.theirs += stepTokens(theirs);
    if (cost !== null && step.costUsd !== undefined && theirs.costUsd !== undefined) {
      cost.mine += step.costUsd;
      cost.theirs += theirs.costUsd;
    } else cost = null;
  }
  const needed = countNeeded(items.needed);
  return { tokens, cost, correct: items.answers.correct, asked: items.answers.asked, needed: { held: needed.held, reached: needed.reached } };
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

function stepTokens(step: PairedStep): number {
  return step.promptTokens + step.completionTokens + step.overheadTokens;
}
