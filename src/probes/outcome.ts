import type { ProbeAnswer, ProbeOutcome } from '../metrics/types.js';
import { isAbsenceAnswer } from './grade.js';

/**
 * What a context held of a probe's fact at an ask point (DESIGN.md §6, issue 25): the class a
 * reviewer reads to see why a strategy's recall fell. Decided from the context, not from the
 * reader, except where only the reader can tell: a value fetched back through a retrieval hint
 * (`recoverable`) and a different value read from the context (`contradicted`).
 */
export interface HeldFact {
  /** An evidence text of the probe is verbatim in the context. */
  verbatim: boolean;
  /** The expected value (its ground truth) is in the context, in any message. */
  truth: boolean;
  /** An older value of the same fact (`Probe.superseded`) is in the context. */
  older: boolean;
}

/** The outcome of one answered ask point; `unanswered` ask points never reach here. */
export function classifyOutcome(held: HeldFact, answer: Pick<ProbeAnswer, 'answer' | 'correct' | 'retrieved' | 'correctWithRetrieval'>): ProbeOutcome {
  if (held.verbatim) return 'kept';
  if (held.truth) return 'paraphrased';
  if (answer.retrieved && answer.correctWithRetrieval && !answer.correct) return 'recoverable';
  if (held.older) return 'stale';
  if (!answer.correct && !isAbsenceAnswer(answer.answer) && !answer.answer.startsWith('(probe call failed')) return 'contradicted';
  return 'lost';
}
