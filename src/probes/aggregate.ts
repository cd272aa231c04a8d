import {
  PROBE_OUTCOMES,
  type ProbeAnswer,
  type ProbeOutcome,
  type RecallFigures,
  type RecallPoint,
  type RetentionCurve,
  type UnitProbeResult,
} from '../metrics/types.js';
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
 *   counted in `unanswered`. An ask point the reader did not answer from `full`'s context there
 *   (`invalid`) measures the reader, not the strategy: it is left out too and counted in
 *   `invalid`. `null` when nothing valid was asked.
 * - outcomes = how many ask points ended in each class (probes/outcome.ts), invalid ones included:
 *   the class says what the context held, whichever reader reads it.
 * - recall curve = per step with a valid answer, the answers and how many were right.
 * - with retrieval: the same, graded on the answer given after following retrieval hints.
 * - with context rot (only when the reader's context-length effect was on, probes/context-rot.ts):
 *   the same ask points, graded on `rot.correct`; apart from answer recall, never in its place.
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

function meanRetention(curves: readonly { share: number | null }[]): number | null {
  return mean(curves.map((curve) => curve.share).filter((r): r is number => r !== null));
}

/** An answer that counts for recall: asked, and valid there. */
function isCounted(answer: ProbeAnswer): boolean {
  return answer.unanswered !== true && answer.invalid !== true;
}

function shareCorrect(answers: readonly ProbeAnswer[], isCorrect: (a: ProbeAnswer) => boolean): number | null {
  const asked = answers.filter(isCounted);
  return asked.length === 0 ? null : asked.filter(isCorrect).length / asked.length;
}

function countUnanswered(answers: readonly ProbeAnswer[]): number {
  return answers.filter((a) => a.unanswered === true).length;
}

function countInvalid(answers: readonly ProbeAnswer[]): number {
  return answers.filter((a) => a.invalid === true).length;
}

function countOutcomes(answers: readonly ProbeAnswer[]): Record<ProbeOutcome, number> {
  const counts = Object.fromEntries(PROBE_OUTCOMES.map((o) => [o, 0])) as Record<ProbeOutcome, number>;
  for (const answer of answers) {
    const outcome = answer.outcome ?? (answer.unanswered === true ? 'unanswered' : undefined);
    if (outcome !== undefined) counts[outcome]++;
  }
  return counts;
}

function mixOf(probes: AggregateInput['probes']): NonNullable<UnitProbeResult['mix']> {
  const kinds: Partial<Record<ProbeKind, number>> = {};
  const sources = { output: 0, agent: 0 };
  for (const probe of probes) {
    kinds[probe.kind] = (kinds[probe.kind] ?? 0) + 1;
    sources[probe.source ?? 'agent']++;
  }
  return { kinds, sources };
}

function recallCurveOf(answers: readonly ProbeAnswer[]): RecallPoint[] {
  const bySteps = new Map<number, RecallPoint>();
  for (const answer of answers) {
    if (!isCounted(answer)) continue;
    const point = bySteps.get(answer.step) ?? { step: answer.step, answered: 0, correct: 0 };
    point.answered++;
    if (answer.correct) point.correct++;
    bySteps.set(answer.step, point);
  }
  return [...bySteps.values()].sort((a, b) => a.step - b.step);
}

export interface AggregateInput {
  /** Every probe of the scenario, with its kind (for `count` and `byKind`) and where its evidence lies (for `mix`). */
  probes: readonly { id: string; kind: ProbeKind; source?: 'output' | 'agent' }[];
  answers: ProbeAnswer[];
  retention: RetentionCurve[];
  /**
   * Each curve's retention (`curveRetention`), in curve order, when the curves are not all kept (a
   * corpus's, run/combine-logs.ts): the figures are reduced from these instead of `retention`.
   */
  retentionShares?: readonly { kind: ProbeKind; share: number | null }[];
  specifics: UnitProbeResult['specifics'];
  specificsAfterCompaction?: UnitProbeResult['specificsAfterCompaction'];
}

/** The unit's probe result and its summary figures. */
export function aggregateProbes(input: AggregateInput): UnitProbeResult & { figures: RecallFigures } {
  const { probes, answers, retention } = input;
  const shares = input.retentionShares ?? retention.map((curve) => ({ kind: curve.kind, share: curveRetention(curve) }));
  const kinds = [...new Set(probes.map((p) => p.kind))];
  const byKind: Partial<Record<ProbeKind, RecallFigures>> = {};
  for (const kind of kinds) {
    const ofKind = answers.filter((a) => a.kind === kind);
    byKind[kind] = {
      retention: meanRetention(shares.filter((c) => c.kind === kind)),
      answerRecall: shareCorrect(ofKind, (a) => a.correct),
      count: probes.filter((p) => p.kind === kind).length,
      unanswered: countUnanswered(ofKind),
      invalid: countInvalid(ofKind),
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
      ...rotRecall(answers, (withContextRot) => ({ withContextRot })),
    },
    byKind,
    outcomes: countOutcomes(answers),
    mix: mixOf(probes),
    recallCurve: recallCurveOf(answers),
    specifics: input.specifics,
    ...(input.specificsAfterCompaction === undefined ? {} : { specificsAfterCompaction: input.specificsAfterCompaction }),
    figures: {
      retention: meanRetention(shares),
      answerRecall: shareCorrect(answers, (a) => a.correct),
      count: probes.length,
      unanswered: countUnanswered(answers),
      invalid: countInvalid(answers),
      ...rotRecall(answers, (answerRecallRot) => ({ answerRecallRot })),
    },
  };
}

/** Answer recall under context rot, as `field` builds it; nothing when no answer was graded under rot (the option was off). */
function rotRecall<T>(answers: readonly ProbeAnswer[], field: (recall: number | null) => T): T | Record<string, never> {
  if (!answers.some((a) => a.rot !== undefined)) return {};
  return field(shareCorrect(answers, (a) => a.rot?.correct === true));
}
