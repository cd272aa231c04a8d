import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { InputError } from '../errors.js';
import { isCorpus } from '../metrics/corpus.js';
import type { StepRecord } from '../metrics/run-events.js';
import type { RunResult, UnitResult } from '../metrics/types.js';
import { STEPS_PARQUET } from '../report/parquet.js';
import { partedFile, type ReportFile, type UnitDetails } from '../report/types.js';
import { givenPath } from '../paths.js';

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

/**
 * The steps of each unit of `result` read back from the `steps.parquet` beside `resultFile`, by the
 * unit's position in the result: its rows are the run of rows with its scenario and strategy, in
 * unit order (a unit without steps has none). A missing or unreadable file, or rows that do not
 * follow the result's units, is an InputError naming the file.
 */
export async function readUnitSteps(resultFile: string, result: RunResult): Promise<(position: number) => StepRecord[]> {
  const path = join(dirname(resolve(resultFile)), STEPS_PARQUET);
  const shown = givenPath(path);
  if (!existsSync(path))
    throw new InputError({ file: shown }, `missing: ${givenPath(resultFile)} stores its corpus units summary-only, and their steps are in this file`);
  let rows: Record<string, unknown>[];
  try {
    rows = await parquetReadObjects({ file: await asyncBufferFromFile(path) });
  } catch (error) {
    throw new InputError({ file: shown }, `not a steps Parquet file: ${(error as Error).message}`);
  }
  const byUnit: StepRecord[][] = result.units.map(() => []);
  let position = 0;
  for (const [i, row] of rows.entries()) {
    while (position < result.units.length && !isRowOf(row, result.units[position] as UnitResult, byUnit[position] as StepRecord[])) position++;
    const steps = byUnit[position];
    if (steps === undefined)
      throw new InputError(
        { file: shown, line: i + 1 },
        `row ${i + 1} (${String(row.scenario)} × ${String(row.strategy)}) follows no unit of ${givenPath(resultFile)}`,
      );
    steps.push(stepOf(row));
  }
  return (at) => byUnit[at] ?? [];
}

/** Whether `row` continues the steps of `unit` (its scenario and strategy, a step after the last). */
function isRowOf(row: Record<string, unknown>, unit: UnitResult, steps: readonly StepRecord[]): boolean {
  if (row.scenario !== unit.scenario || row.strategy !== unit.strategy) return false;
  const last = steps[steps.length - 1];
  return last === undefined || Number(row.step) > last.step;
}

/** A steps.parquet row as the step record it was written from (report/parquet.ts). */
function stepOf(row: Record<string, unknown>): StepRecord {
  const optional = (column: string): number | undefined => (row[column] === null || row[column] === undefined ? undefined : Number(row[column]));
  const failure = row.failure === null || row.failure === undefined ? undefined : (row.failure as StepRecord['failure']);
  const hidden = optional('hidden_tokens');
  const reasoning = optional('reasoning_tokens');
  const writes = optional('cache_write_tokens');
  const cost = optional('cost_usd');
  const retrieval = optional('retrieval_tokens');
  return {
    step: Number(row.step),
    messageId: String(row.message_id),
    atMs: Number(row.at_ms),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    contextTokens: Number(row.context_tokens),
    contextMessages: Number(row.context_messages),
    ...(hidden !== undefined ? { hiddenTokens: hidden } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
    cachedPrefixTokens: Number(row.cached_prefix_tokens),
    ...(writes !== undefined ? { cacheWriteTokens: writes } : {}),
    ...(cost !== undefined ? { costUsd: cost } : {}),
    overheadTokens: Number(row.overhead_tokens),
    ...(retrieval !== undefined ? { retrievalTokens: retrieval } : {}),
    retries: Number(row.retries),
    rateLimitHits: Number(row.rate_limit_hits),
    waitMs: Number(row.wait_ms),
    status: row.status as StepRecord['status'],
    ...(failure !== undefined ? { failure } : {}),
  };
}

/** The merged result's units for the step files: each with its steps read back (its events, answers and needed uses are not). */
export function stepDetails(result: RunResult, stepsOf: (planIndex: number) => readonly StepRecord[]): UnitDetails {
  return {
    count: result.units.length,
    load: (i) => {
      const unit = result.units[i] as UnitResult;
      return isCorpus([unit]) ? { ...unit, steps: [...stepsOf(i)] } : unit;
    },
  };
}

/** The CSVs whose rows a merge of results stored summary-only takes from the shards' files, unit by unit (not rendered again: the same bytes, for less work). */
export const SHARD_CSV_FILES = ['steps.csv', 'events.csv', 'probes.csv', 'needed.csv'] as const;

/**
 * `name` (one of `SHARD_CSV_FILES`) of the merged run, in parts: the header of the first shard's,
 * then each plan index's rows as its shard wrote them (a unit's rows follow each other, in the
 * shard's unit order). One shard file is read at a time; a missing one is an InputError naming it.
 */
export function mergedShardCsv(name: string, shards: readonly { file: string; result: RunResult }[], planned: number): ReportFile {
  return partedFile(name, function* () {
    const rowsOf = new Map<number, string>();
    let header: string | undefined;
    for (const { file, result } of shards) {
      const path = join(dirname(resolve(file)), name);
      if (!existsSync(path))
        throw new InputError(
          { file: givenPath(path) },
          `missing: the merge of results stored summary-only takes its rows from it (run each shard with the default reports, or --reports json,csv,parquet, and merge it from its folder)`,
        );
      const text = readFileSync(path, 'utf8');
      const records = splitRecords(text);
      header ??= records[0]?.text ?? '';
      const chunks = chunksByUnit(records.slice(1), result.units);
      result.shard?.units.forEach((planIndex, position) => rowsOf.set(planIndex, chunks[position] ?? ''));
    }
    yield header ?? '';
    for (let i = 0; i < planned; i++) yield rowsOf.get(i) ?? '';
  });
}

/** One CSV record: its text with its newline, and its first two cells (scenario, strategy). */
interface CsvRecord {
  text: string;
  key: string;
}

/** The records of a CSV ctxbench wrote (a quoted cell may hold newlines; `""` is a quote inside one). */
function splitRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let start = 0;
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === 34) quoted = !quoted;
    else if (char === 10 && !quoted) {
      const record = text.slice(start, at + 1);
      records.push({ text: record, key: firstCells(record) });
      start = at + 1;
    }
  }
  return records;
}

/** The first two cells of a record, unquoted, joined by NUL. */
function firstCells(record: string): string {
  const cells: string[] = [];
  let at = 0;
  while (cells.length < 2 && at < record.length) {
    if (record[at] === '"') {
      let end = at + 1;
      let cell = '';
      for (; end < record.length; end++) {
        if (record[end] === '"' && record[end + 1] === '"') {
          cell += '"';
          end++;
        } else if (record[end] === '"') break;
        else cell += record[end];
      }
      cells.push(cell);
      at = end + 2;
    } else {
      const end = record.slice(at).search(/[,\n]/);
      cells.push(end === -1 ? record.slice(at) : record.slice(at, at + end));
      at = end === -1 ? record.length : at + end + 1;
    }
  }
  return cells.join('\u0000');
}

/** The rows of each unit of a shard, by its position: the runs of records with its scenario and strategy, in unit order. */
function chunksByUnit(records: readonly CsvRecord[], units: readonly UnitResult[]): string[] {
  const chunks = units.map(() => '');
  let position = 0;
  for (const record of records) {
    while (position < units.length && record.key !== unitKey(units[position] as UnitResult)) position++;
    if (position >= units.length) break;
    chunks[position] += record.text;
  }
  return chunks;
}

function unitKey(unit: UnitResult): string {
  return `${unit.scenario}\u0000${unit.strategy}`;
}
