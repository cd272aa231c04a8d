import type { NeededRecord, ProbeAnswer } from './types.js';

/**
 * The summary's needed-fact figures of a unit (SummaryRow `needed_*`), reduced from its needed
 * records: `facts` = the uses reached (every outcome but `unanswered`); `recall` = (`kept` +
 * `summarized`) / reached; `recoverable` and `lost` = their shares of reached. All `null` when the
 * scenario has no needed uses; the shares `null` when none was reached.
 */
export interface NeededFigures {
  facts: number | null;
  recall: number | null;
  recoverable: number | null;
  lost: number | null;
}

export const NO_NEEDED: NeededFigures = { facts: null, recall: null, recoverable: null, lost: null };

/** What `neededFigures` reads of a record. */
type Outcome = Pick<NeededRecord, 'outcome'>;

export function neededFigures(records: readonly Outcome[] | undefined): NeededFigures {
  if (records === undefined || records.length === 0) return NO_NEEDED;
  const { reached, held, recoverable, lost } = countNeeded(records);
  if (reached === 0) return { facts: 0, recall: null, recoverable: null, lost: null };
  return { facts: reached, recall: held / reached, recoverable: recoverable / reached, lost: lost / reached };
}

/** The uses reached, and of them those held (`kept` or `summarized`), `recoverable` and `lost`. */
export function countNeeded(records: readonly Outcome[]): { reached: number; held: number; recoverable: number; lost: number } {
  let reached = 0;
  let held = 0;
  let recoverable = 0;
  let lost = 0;
  for (const { outcome } of records) {
    if (outcome === 'unanswered') continue;
    reached += 1;
    if (outcome === 'kept' || outcome === 'summarized') held += 1;
    else if (outcome === 'recoverable') recoverable += 1;
    else lost += 1;
  }
  return { reached, held, recoverable, lost };
}

/**
 * Answer recall over the ask points whose fact is needed later (`ProbeAnswer.neededLater`), counted
 * as `answer_recall` counts (unanswered and invalid ask points left out); `null` when none is left.
 */
export function answerRecallNeeded(answers: readonly Pick<ProbeAnswer, 'neededLater' | 'unanswered' | 'invalid' | 'correct'>[]): number | null {
  let asked = 0;
  let correct = 0;
  for (const answer of answers) {
    if (answer.neededLater !== true || answer.unanswered === true || answer.invalid === true) continue;
    asked += 1;
    if (answer.correct) correct += 1;
  }
  return asked === 0 ? null : correct / asked;
}
