import { copyFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isCorpus } from '../metrics/corpus.js';
import type { RunResult } from '../metrics/types.js';
import { STEPS_PARQUET } from '../report/parquet.js';

/**
 * The files beside a `result.json` (schema 2) that hold what its summary-only units (a corpus's)
 * do not: their steps, events, probe answers and needed uses. `report` and `merge` cannot render
 * them again from the result; they read them back or copy them.
 */
const DETAIL_FILES = ['steps.csv', 'events.csv', 'probes.csv', 'needed.csv', STEPS_PARQUET] as const;

export function isDetailFile(name: string): boolean {
  return (DETAIL_FILES as readonly string[]).includes(name);
}

/** Whether a result stores any unit summary-only (whose details are in the files beside it). */
export function holdsSummaryOnly(result: RunResult): boolean {
  return result.units.some((unit) => isCorpus([unit]) && unit.steps.length === 0 && unit.summary.steps_completed > 0);
}

/**
 * Copies the detail files of `formats` (csv, parquet) beside `resultFile` into `out` (when `out` is
 * another folder), for the reports of a result that cannot make them again. Returns the paths written; a file missing beside
 * the result is left out.
 */
export function copyDetailFiles(resultFile: string, out: string, formats: readonly string[]): string[] {
  const from = dirname(resolve(resultFile));
  if (from === resolve(out)) return [];
  const written: string[] = [];
  for (const name of DETAIL_FILES) {
    const source = join(from, name);
    if (!formats.includes(name === STEPS_PARQUET ? 'parquet' : 'csv') || !existsSync(source)) continue;
    copyFileSync(source, join(out, name));
    written.push(join(out, name));
  }
  return written;
}
