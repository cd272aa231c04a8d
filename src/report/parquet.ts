import { ByteWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import type { ColumnSource } from 'hyparquet-writer';
import type { StepRecord } from '../metrics/run-events.js';
import { escapeControl } from '../control-chars.js';
import type { RunResult, UnitResult } from '../metrics/types.js';
import { storedNumber } from './json.js';
import { detailsOf, type ReportFile, type Reporter, type UnitDetails } from './types.js';

/** The file every step of a run goes to, beside `steps.csv` (the same rows and columns). */
export const STEPS_PARQUET = 'steps.parquet';

type ColumnType = 'STRING' | 'INT32' | 'DOUBLE';

/** One column of `steps.parquet`: its name (as in `steps.csv`), type, and the step's value. */
interface StepColumn {
  name: string;
  type: ColumnType;
  value: (step: StepRecord, unit: UnitResult) => string | number | null;
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

/**
 * The columns of `steps.csv`, in its order, typed: counts are INT32, times and dollars DOUBLE (a
 * corpus's virtual times pass 2^31 ms), ids and kinds STRING. Optional fields are null when absent,
 * where the CSV leaves the cell empty.
 */
const STEP_PARQUET_COLUMNS: readonly StepColumn[] = [
  { name: 'scenario', type: 'STRING', value: (_, unit) => unit.scenario },
  { name: 'strategy', type: 'STRING', value: (_, unit) => unit.strategy },
  { name: 'step', type: 'INT32', value: (step) => step.step },
  { name: 'message_id', type: 'STRING', value: (step) => step.messageId },
  { name: 'at_ms', type: 'DOUBLE', value: (step) => step.atMs },
  { name: 'status', type: 'STRING', value: (step) => step.status },
  { name: 'failure', type: 'STRING', value: (step) => orNull(step.failure) },
  { name: 'prompt_tokens', type: 'INT32', value: (step) => step.promptTokens },
  { name: 'completion_tokens', type: 'INT32', value: (step) => step.completionTokens },
  { name: 'context_tokens', type: 'INT32', value: (step) => step.contextTokens },
  { name: 'context_messages', type: 'INT32', value: (step) => step.contextMessages },
  { name: 'cached_prefix_tokens', type: 'INT32', value: (step) => step.cachedPrefixTokens },
  { name: 'overhead_tokens', type: 'INT32', value: (step) => step.overheadTokens },
  { name: 'retries', type: 'INT32', value: (step) => step.retries },
  { name: 'rate_limit_hits', type: 'INT32', value: (step) => step.rateLimitHits },
  { name: 'wait_ms', type: 'DOUBLE', value: (step) => step.waitMs },
  { name: 'retrieval_tokens', type: 'INT32', value: (step) => orNull(step.retrievalTokens) },
  { name: 'hidden_tokens', type: 'INT32', value: (step) => orNull(step.hiddenTokens) },
  { name: 'reasoning_tokens', type: 'INT32', value: (step) => orNull(step.reasoningTokens) },
  { name: 'cache_write_tokens', type: 'INT32', value: (step) => orNull(step.cacheWriteTokens) },
  { name: 'cost_usd', type: 'DOUBLE', value: (step) => orNull(step.costUsd) },
];

/**
 * `steps.parquet`: every step of every unit, one row group per unit with steps, in the result's
 * unit order; pandas, polars and DuckDB read it as they read `steps.csv`. Made as it is read, one
 * unit at a time (a corpus's 400,000 steps are never in memory together), and byte-identical for
 * the same result: no time or host is written into it.
 */
function renderParquet(_result: RunResult, details: UnitDetails = detailsOf(_result)): ReportFile[] {
  return [{ file: STEPS_PARQUET, contents: '', bytes: () => stepParquetChunks(details) }];
}

/** The file's bytes in chunks: its header, one row group per unit, then its footer. */
function* stepParquetChunks(details: UnitDetails): Generator<Uint8Array> {
  const file = createStepParquet();
  for (let i = 0; i < details.count; i++) yield file.add(details.load(i));
  yield file.finish();
}

/**
 * `steps.parquet` of `count` units that `load` reads one at a time and may wait for (`merge` reads
 * each unit's rows back from its shard's file): the bytes the reporter writes for the same units.
 */
export function stepParquetFile(count: number, load: (i: number) => Promise<UnitResult>): ReportFile {
  return {
    file: STEPS_PARQUET,
    contents: '',
    bytes: async function* () {
      const file = createStepParquet();
      for (let i = 0; i < count; i++) yield file.add(await load(i));
      yield file.finish();
    },
  };
}

/** A Parquet writer of step rows: each unit's bytes (a row group, the file's header before the first) as it is added, then the footer. */
export function createStepParquet(): { add(unit: UnitResult): Uint8Array; finish(): Uint8Array } {
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({ writer, schema: STEP_SCHEMA, codec: 'SNAPPY', createdBy: 'ctxbench' });
  return {
    add(unit) {
      if (unit.steps.length > 0) void parquet.write({ columnData: columnsOf(unit), rowGroupSize: unit.steps.length });
      return takeBytes(writer);
    },
    finish() {
      void parquet.finish();
      return takeBytes(writer);
    },
  };
}

const STEP_SCHEMA = schemaFromColumnData({
  columnData: STEP_PARQUET_COLUMNS.map((column) => ({ name: column.name, data: [], type: column.type, nullable: true })),
});

function columnsOf(unit: UnitResult): ColumnSource[] {
  return STEP_PARQUET_COLUMNS.map((column) => ({ name: column.name, data: unit.steps.map((step) => cellOf(column.value(step, unit))) }));
}

/** A cell as steps.csv writes it: control characters in a text (a model's or a log's ids) escaped, so no reader's terminal runs them. */
function cellOf(value: string | number | null): string | number | null {
  // A number in its stored form (a no-op on a stored unit's): a unit renders as its stored copy would, uncopied.
  return typeof value === 'string' ? escapeControl(value) : typeof value === 'number' ? storedNumber(value) : value;
}

/** What the writer holds so far, copied out, and the writer emptied (the file's offsets run on). */
function takeBytes(writer: ByteWriter): Uint8Array {
  const bytes = writer.getBytes().slice();
  writer.index = 0;
  return bytes;
}

export const parquet = { name: 'parquet', render: renderParquet } satisfies Reporter;
