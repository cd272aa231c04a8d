import type { RunEvent } from './run-events.js';
import type { UnitResult } from './types.js';
import { isCorpus } from './corpus.js';

/**
 * A unit over a corpus of logs as a run keeps it in memory once its whole form is streamed to disk
 * (the run journal, cli/run-session.ts): everything but its per-step records, its per-event
 * timeline, its per-probe answers and curves and its needed uses. Those are most of a unit's weight (21 units of
 * 500 logs held more than 2.5 GB with them), and no view of a corpus reads them (report/html-corpus.ts
 * draws the logs' summaries): the reports that write them (the CSVs, steps.parquet) read the whole
 * units back one at a time, and `result.json` stores a corpus's units in this form (schema 2).
 * Idempotent: a summary-only unit is returned the same. Kept: the crash events and the provider faults behind them, from
 * which every report words its crash reasons. A unit of fewer logs is returned as it is. Pure.
 */
export function summaryOnly(unit: UnitResult): UnitResult {
  if (!isCorpus([unit])) return unit;
  const probes =
    unit.probes === undefined
      ? undefined
      : (() => {
          const { recallCurve: _curve, specificsAfterCompaction: _after, needed: _needed, ...rest } = unit.probes;
          return { ...rest, answers: [], retention: [] };
        })();
  return {
    ...unit,
    steps: [],
    events: unit.events.filter(isCrashEvidence),
    ...(probes !== undefined ? { probes } : {}),
    spanMs: unit.spanMs ?? spanOf(unit),
  };
}

/** The unit's span on the virtual clock: its last step's or event's time (0 with neither). */
export function spanOf(unit: Pick<UnitResult, 'steps' | 'events' | 'spanMs'>): number {
  if (unit.spanMs !== undefined) return unit.spanMs;
  let last = 0;
  for (const step of unit.steps) last = Math.max(last, step.atMs);
  for (const event of unit.events) last = Math.max(last, event.atMs);
  return last;
}

/** A crash, or a provider fault (a malformed body, a timeout) that may have ended the session. */
function isCrashEvidence(event: RunEvent): boolean {
  if (event.type === 'crash') return true;
  return event.type === 'failure' && ('malformed' in event.failure || 'timedOut' in event.failure);
}
