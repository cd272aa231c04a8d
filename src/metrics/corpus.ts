/**
 * Past this many logs a scenario is a corpus: its units keep no per-probe retention curves
 * (run/combine-logs.ts) and the HTML report shows it in aggregate views with a per-log
 * drill-down instead of per-step charts and per-event timelines (report/html-corpus.ts).
 */
export const CORPUS_LOGS = 25;

/** Whether a unit (or any of a scenario's units) covers a corpus of logs. */
export function isCorpus(units: readonly { logs?: readonly unknown[] }[]): boolean {
  return units.some((unit) => (unit.logs?.length ?? 0) > CORPUS_LOGS);
}
