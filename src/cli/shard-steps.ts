import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { InputError } from '../errors.js';
import type { PairedStep } from '../metrics/intervals.js';
import type { StepRecord } from '../metrics/run-events.js';
import type { RunResult, UnitResult } from '../metrics/types.js';
import { STEPS_PARQUET } from '../report/parquet.js';
import { givenPath } from '../paths.js';

/**
 * The steps of a result's summary-only units (a corpus's, result schema 2) as its `steps.parquet`
 * holds them, without holding them all: what the pairing with `full` reads of each unit's steps is
 * kept (a few numbers a step), and a unit's whole steps are read back from its own rows when asked.
 */
export interface ShardSteps {
  /** The unit at `position` of the result: its steps as the pairing with `full` reads them (metrics/summary-only.ts `savingInputOf`). */
  pairedOf(position: number): readonly PairedStep[];
  /** The unit at `position`: its whole steps, read back from its rows of the file (none: the unit has no rows). */
  load(position: number): Promise<StepRecord[]>;
}

/** The columns the pairing with `full` reads, and the two that say whose row it is. */
const PAIRING_COLUMNS = ['scenario', 'strategy', 'step', 'status', 'prompt_tokens', 'completion_tokens', 'overhead_tokens', 'cost_usd'];

/**
 * Reads the `steps.parquet` beside `resultFile` one row group at a time (the file has one per unit
 * with steps, report/parquet.ts): each row belongs to the unit of the result whose scenario and
 * strategy it names, its step after the last, in unit order. A missing or unreadable file, or rows
 * that follow no unit of the result, is an InputError naming the file (and the row).
 */
export async function readShardSteps(resultFile: string, result: RunResult): Promise<ShardSteps> {
  const path = join(dirname(resolve(resultFile)), STEPS_PARQUET);
  const shown = givenPath(path);
  if (!existsSync(path))
    throw new InputError({ file: shown }, `missing: ${givenPath(resultFile)} stores its corpus units summary-only, and their steps are in this file`);
  const read = async <T>(reading: () => Promise<T>): Promise<T> => {
    try {
      return await reading();
    } catch (error) {
      throw new InputError({ file: shown }, `not a steps Parquet file: ${(error as Error).message}`);
    }
  };
  const file = await read(() => asyncBufferFromFile(path));
  const metadata = await read(() => parquetMetadataAsync(file));
  const units = result.units;
  const paired: PairedStep[][] = units.map(() => []);
  const rows: { start: number; end: number }[] = units.map(() => ({ start: 0, end: 0 }));
  let position = 0;
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const groupRows = await read(() => parquetReadObjects({ file, metadata, rowStart, rowEnd, columns: PAIRING_COLUMNS }));
    for (const [k, row] of groupRows.entries()) {
      const at = rowStart + k;
      while (position < units.length && !isRowOf(row, units[position] as UnitResult, paired[position] as PairedStep[])) position++;
      const steps = paired[position];
      if (steps === undefined)
        throw new InputError(
          { file: shown, line: at + 1 },
          `row ${at + 1} (${String(row.scenario)} × ${String(row.strategy)}) follows no unit of ${givenPath(resultFile)}`,
        );
      if (steps.length === 0) (rows[position] as { start: number }).start = at;
      (rows[position] as { end: number }).end = at + 1;
      steps.push(pairedStepOf(row));
    }
    rowStart = rowEnd;
  }
  return {
    pairedOf: (at) => paired[at] ?? [],
    load: (at) => loadRows(file, metadata, rows[at], read),
  };
}

async function loadRows(
  file: AsyncBuffer,
  metadata: FileMetaData,
  range: { start: number; end: number } | undefined,
  read: <T>(reading: () => Promise<T>) => Promise<T>,
): Promise<StepRecord[]> {
  if (range === undefined || range.end === range.start) return [];
  const rows = await read(() => parquetReadObjects({ file, metadata, rowStart: range.start, rowEnd: range.end }));
  return rows.map(stepOf);
}

/** Whether `row` continues the steps of `unit` (its scenario and strategy, a step after the last). */
function isRowOf(row: Record<string, unknown>, unit: UnitResult, steps: readonly PairedStep[]): boolean {
  if (row.scenario !== unit.scenario || row.strategy !== unit.strategy) return false;
  const last = steps[steps.length - 1];
  return last === undefined || Number(row.step) > last.step;
}

const optional = (row: Record<string, unknown>, column: string): number | undefined =>
  row[column] === null || row[column] === undefined ? undefined : Number(row[column]);

function pairedStepOf(row: Record<string, unknown>): PairedStep {
  const cost = optional(row, 'cost_usd');
  return {
    step: Number(row.step),
    status: row.status as StepRecord['status'],
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    overheadTokens: Number(row.overhead_tokens),
    ...(cost !== undefined ? { costUsd: cost } : {}),
  };
}

/** A steps.parquet row as the step record it was written from (report/parquet.ts). */
function stepOf(row: Record<string, unknown>): StepRecord {
  const failure = row.failure === null || row.failure === undefined ? undefined : (row.failure as StepRecord['failure']);
  const hidden = optional(row, 'hidden_tokens');
  const reasoning = optional(row, 'reasoning_tokens');
  const writes = optional(row, 'cache_write_tokens');
  const cost = optional(row, 'cost_usd');
  const retrieval = optional(row, 'retrieval_tokens');
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
