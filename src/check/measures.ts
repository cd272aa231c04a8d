import type { LogSummary, UnitResult } from '../metrics/types.js';
import { isCorpus } from '../metrics/corpus.js';
import type { StepRecord } from '../metrics/run-events.js';
import { curveRetention } from '../probes/aggregate.js';

/**
 * A measure in paired form: the samples both runs have (a step, a probe), and the statistic of
 * the change over any selection of them. `statistic(pairs)` over all pairs is the point estimate;
 * over a resample, one bootstrap value.
 */
export interface PairedMeasure<T> {
  pairs: T[];
  statistic(pairs: readonly T[]): number | null;
}

/** One step both runs completed: what it cost in each (prompt + completion + overhead tokens). */
export interface StepPair {
  baseline: number;
  current: number;
}

/**
 * Tokens, paired by step: the change, in percent, of the tokens of the steps both runs completed
 * (100 × (Σ current / Σ baseline − 1)). Steps only one run reached are left out, so that a crash
 * (its own rule) is not read as a saving, nor surviving longer as a cost.
 */
export function pairTokens(baseline: UnitResult, current: UnitResult): PairedMeasure<StepPair> {
  if (isStoredSummaryOnly(baseline) || isStoredSummaryOnly(current)) return pairLogs(baseline, current, (log) => log.summary.total_tokens);
  return pairSteps(baseline, current, stepCost);
}

/** A unit whose result stores it summary-only (a corpus's, result schema 2): its steps and answers are not in it. */
export function isStoredSummaryOnly(unit: UnitResult): boolean {
  return isCorpus([unit]) && unit.steps.length === 0 && unit.summary.steps_completed > 0;
}

/**
 * A measure of units stored summary-only, paired by log instead of by step: the logs both runs
 * completed without a crash (a log either crashed on is the crash rule's), each log's `value` in
 * both. Over a corpus the log is the natural sample (its steps are not independent).
 */
function pairLogs(baseline: UnitResult, current: UnitResult, value: (log: LogSummary) => number | null): PairedMeasure<StepPair> {
  const before = new Map((baseline.logs ?? []).map((log) => [log.id, log]));
  const pairs: StepPair[] = [];
  for (const log of current.logs ?? []) {
    const then = before.get(log.id);
    if (then === undefined || then.summary.crashed || log.summary.crashed) continue;
    const b = value(then);
    const c = value(log);
    if (b !== null && c !== null) pairs.push({ baseline: b, current: c });
  }
  return { pairs, statistic: changeInPercent };
}

/** Cost in USD (StepRecord.costUsd, net of prompt cache), paired by step as tokens are; no pairs when either run is unpriced. */
export function pairCost(baseline: UnitResult, current: UnitResult): PairedMeasure<StepPair> {
  if (isStoredSummaryOnly(baseline) || isStoredSummaryOnly(current)) return pairLogs(baseline, current, (log) => log.summary.cost_usd);
  return pairSteps(baseline, current, (step) => step.costUsd);
}

function pairSteps(baseline: UnitResult, current: UnitResult, value: (step: StepRecord) => number | undefined): PairedMeasure<StepPair> {
  const before = new Map<number, number>();
  for (const step of baseline.steps) {
    const v = value(step);
    if (step.status === 'ok' && v !== undefined) before.set(step.step, v);
  }
  const pairs: StepPair[] = [];
  for (const step of current.steps) {
    const cost = before.get(step.step);
    const now = value(step);
    if (step.status === 'ok' && cost !== undefined && now !== undefined) pairs.push({ baseline: cost, current: now });
  }
  return { pairs, statistic: changeInPercent };
}

/** 100 × (Σ current / Σ baseline − 1); null when the baseline sums to 0. */
function changeInPercent(drawn: readonly StepPair[]): number | null {
  let b = 0;
  let c = 0;
  for (const pair of drawn) {
    b += pair.baseline;
    c += pair.current;
  }
  return b === 0 ? null : 100 * (c / b - 1);
}

function stepCost(step: StepRecord): number {
  return step.promptTokens + step.completionTokens + step.overheadTokens;
}

/** One probe asked in both runs: its correct answers and asks in each. */
export interface RecallPair {
  baselineCorrect: number;
  baselineAsked: number;
  currentCorrect: number;
  currentAsked: number;
}

/**
 * Answer recall, paired by probe id: the change, in points, of correct answers / answers over the
 * probes both runs asked (every ask point of a probe moves with it, so a probe is one sample).
 * Over all probes of both, this is exactly the change of the summary's `answer_recall`.
 */
export function pairRecall(baseline: UnitResult, current: UnitResult): PairedMeasure<RecallPair> {
  const summaryOnly = isStoredSummaryOnly(baseline) || isStoredSummaryOnly(current);
  const before = summaryOnly ? tallyLogs(baseline) : tallyAnswers(baseline);
  const pairs: RecallPair[] = [];
  for (const [id, now] of summaryOnly ? tallyLogs(current) : tallyAnswers(current)) {
    const then = before.get(id);
    if (then !== undefined) pairs.push({ baselineCorrect: then.correct, baselineAsked: then.asked, currentCorrect: now.correct, currentAsked: now.asked });
  }
  return {
    pairs,
    statistic(drawn) {
      let bc = 0;
      let ba = 0;
      let cc = 0;
      let ca = 0;
      for (const pair of drawn) {
        bc += pair.baselineCorrect;
        ba += pair.baselineAsked;
        cc += pair.currentCorrect;
        ca += pair.currentAsked;
      }
      return ba === 0 || ca === 0 ? null : 100 * (cc / ca - bc / ba);
    },
  };
}

function tallyAnswers(unit: UnitResult): Map<string, { correct: number; asked: number }> {
  const tally = new Map<string, { correct: number; asked: number }>();
  for (const answer of unit.probes?.answers ?? []) {
    // A probe never asked (the session crashed first) is not a wrong answer: the crash rule judges the crash.
    if (answer.unanswered === true) continue;
    const entry = tally.get(answer.probeId) ?? { correct: 0, asked: 0 };
    entry.asked += 1;
    if (answer.correct) entry.correct += 1;
    tally.set(answer.probeId, entry);
  }
  return tally;
}

/**
 * Answer recall of a unit stored summary-only, by log (its answers are in probes.csv, not in the
 * result): each log that answered weighs one, its recall the share of one ask.
 */
function tallyLogs(unit: UnitResult): Map<string, { correct: number; asked: number }> {
  const tally = new Map<string, { correct: number; asked: number }>();
  for (const log of unit.logs ?? []) if (log.summary.answer_recall !== null) tally.set(log.id, { correct: log.summary.answer_recall, asked: 1 });
  return tally;
}

/** One probe whose retention both runs measured: the share of its points that kept the evidence. */
export interface RetentionPair {
  baseline: number;
  current: number;
}

/**
 * Retention, paired by probe id: the change, in points, of the mean per-probe retention over the
 * probes both runs measured (the summary's `retention` is the same mean over each run's own).
 */
export function pairRetention(baseline: UnitResult, current: UnitResult): PairedMeasure<RetentionPair> {
  const before = retentionByProbe(baseline);
  const pairs: RetentionPair[] = [];
  for (const [id, now] of retentionByProbe(current)) {
    const then = before.get(id);
    if (then !== undefined) pairs.push({ baseline: then, current: now });
  }
  return {
    pairs,
    statistic(drawn) {
      if (drawn.length === 0) return null;
      let difference = 0;
      for (const pair of drawn) difference += pair.current - pair.baseline;
      return (100 * difference) / drawn.length;
    },
  };
}

function retentionByProbe(unit: UnitResult): Map<string, number> {
  const out = new Map<string, number>();
  for (const curve of unit.probes?.retention ?? []) {
    const value = curveRetention(curve);
    if (value !== null) out.set(curve.probeId, value);
  }
  return out;
}
