import type { ProbeAnswer, RecallFigures, RetentionCurve, UnitProbeResult } from '../metrics/types.js';
import type { ProbeKind } from '../transcript/types.js';

/**
 * The recall figures of a unit, reduced from its probe answers and retention curves. Definitions
 * (the summary's `retention`, `answer_recall`, `probes`):
 * - retention of one probe = the share of its measured points that kept the evidence, where a
 *   point is a context at or after the step its evidence became visible: every step sent without
 *   a crash, and the end context (see observer.ts). Unit retention = the mean over probes that have
 *   at least one point, so that a probe planted late weighs as much as one planted early. Probes
 *   that cannot be measured (`notInSession`, no evidence found in the transcript) are left out;
 *   `null` when none is left.
 * - answer recall = correct answers / answers, over every probe × ask point asked; an ask point
 *   the session never reached (a crash, or past its end) is not an answer: it is left out and
 *   counted in `unanswered`. `null` when nothing was asked.
 * - with retrieval: the same, graded on the answer given after following retrieval hints.
 * - count = the number of probes of the scenario.
 * - judge mean (live runs with the judge on) = the mean judge total (0–20) over the answers the
 *   judge scored; answers it could not score (an error) are left out, `null` when none is left.
 *   Absent when no answer carries a judgement, so a run without the judge is unchanged.
 */

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The share of a curve's points that kept the evidence; null for an empty curve. */
export function curveRetention(curve: RetentionCurve): number | null {
  return curve.points.length === 0 ? null : curve.points.filter(([, kept]) => kept === 1).length / curve.points.length;
}

function judgeMean(answers: readonly ProbeAnswer[]): { judgeMean?: number | null } {
  const judged = answers.flatMap((a) => (a.judge === undefined ? [] : [a.judge]));
  if (judged.length === 0) return {};
  return { judgeMean: mean(judged.flatMap((j) => ('total' in j ? [j.total] : []))) };
}

function meanRetention(curves: readonly RetentionCurve[]): number | null {
  return mean(curves.map(curveRetention).filter((r): r is number => r !== null));
}

function shareCorrect(answers: readonly ProbeAnswer[], isCorrect: (a: ProbeAnswer) => boolean): number | null {
  const asked = answers.filter((a) => a.unanswered !== true);
  return asked.length === 0 ? null : asked.filter(isCorrect).length / asked.length;
}

function countUnanswered(answers: readonly ProbeAnswer[]): number {
  return answers.filter((a) => a.unanswered === true).length;
}

export interface AggregateInput {
  /** Every probe of the scenario, with its kind (for `count` and `byKind`). */
  probes: readonly { id: string; kind: ProbeKind }[];
  answers: ProbeAnswer[];
  retention: RetentionCurve[];
  specifics: UnitProbeResult['specifics'];
  specificsAfterCompaction?: UnitProbeResult['specificsAfterCompaction'];
}

/** The unit's probe result and its summary figures. */
export function aggregateProbes(input: AggregateInput): UnitProbeResult & { figures: RecallFigures } {
  const { probes, answers, retention } = input;
  const kinds = [...new Set(probes.map((p) => p.kind))];
  const byKind: Partial<Record<ProbeKind, RecallFigures>> = {};
  for (const kind of kinds) {
    const ofKind = answers.filter((a) => a.kind === kind);
    byKind[kind] = {
      retention: meanRetention(retention.filter((c) => c.kind === kind)),
      answerRecall: shareCorrect(ofKind, (a) => a.correct),
      count: probes.filter((p) => p.kind === kind).length,
      unanswered: countUnanswered(ofKind),
    };
  }
  const sumTokens = (a: ProbeAnswer): number => a.inputTokens + a.outputTokens;
  return {
    answers,
    retention,
    recall: {
      withoutRetrieval: shareCorrect(answers, (a) => a.correct),
      withRetrieval: shareCorrect(answers, (a) => a.correctWithRetrieval),
      retrievalTokens: answers.reduce((n, a) => n + a.retrievalTokens, 0),
      probeTokens: answers.reduce((n, a) => n + sumTokens(a), 0),
      ...judgeMean(answers),
    },
    byKind,
    specifics: input.specifics,
    ...(input.specificsAfterCompaction === undefined ? {} : { specificsAfterCompaction: input.specificsAfterCompaction }),
    figures: {
      retention: meanRetention(retention),
      answerRecall: shareCorrect(answers, (a) => a.correct),
      count: probes.length,
      unanswered: countUnanswered(answers),
    },
  };
}
