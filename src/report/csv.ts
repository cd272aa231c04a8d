import { escapeControl } from '../control-chars.js';
import type { RunEvent, StepRecord } from '../metrics/run-events.js';
import { summaryColumnsOf } from '../metrics/columns.js';
import type { RunResult, UnitResult } from '../metrics/types.js';
import { csvRecord, type Cell } from './csv-format.js';
import { storedNumber, storedValue } from './json.js';
import { detailsOf, partedFile, type ReportFile, type Reporter, type UnitDetails } from './types.js';

type Row = Record<string, Cell>;

/** Fractional numbers keep at most this many decimals (DESIGN.md §8 ratios read as 0.1234). */
const DECIMALS = 4;

/** `steps.csv`: one row per scenario × strategy × step. */
const STEP_COLUMNS = [
  'scenario',
  'strategy',
  'step',
  'message_id',
  'at_ms',
  'status',
  'failure',
  'prompt_tokens',
  'completion_tokens',
  'context_tokens',
  'context_messages',
  'cached_prefix_tokens',
  'overhead_tokens',
  'retries',
  'rate_limit_hits',
  'wait_ms',
  'retrieval_tokens',
  // Of prompt_tokens: what the log does not hold (hidden prefix, post-compaction re-attachments)
  // and the current turn's reasoning the API re-sends; appended so earlier columns keep their place.
  'hidden_tokens',
  'reasoning_tokens',
  'cache_write_tokens',
  'cost_usd',
] as const;

/**
 * `events.csv`: one row per timeline event. `kind` says what happened: the strategy's action,
 * the failure kind (failure, crash), the call purpose (call), `wait`, or `recorded-compaction`.
 * `ms` is a wait's length or a rate limit's retry hint; `input_tokens`/`output_tokens` are a call's.
 */
const EVENT_COLUMNS = [
  'scenario',
  'strategy',
  'step',
  'at_ms',
  'type',
  'kind',
  'reason',
  'mode',
  'tokens_before',
  'tokens_after',
  'detail',
  'ms',
  'input_tokens',
  'output_tokens',
] as const;

/**
 * `probes.csv`: one row per scenario × strategy × probe answer (a probe asked at one point).
 * `judge_total` is the LLM judge's total (0–20) in live runs with the judge on; empty otherwise,
 * and when the judge could not score the answer (result.json has its error).
 */
const PROBE_COLUMNS = [
  'scenario',
  'strategy',
  'probe_id',
  'kind',
  'asked_at',
  'step',
  'question',
  'expected',
  'answer',
  'correct',
  'retrieved',
  'correct_with_retrieval',
  'retrieval_tokens',
  // Last, so scripts reading the columns before them are unaffected; empty when not judged.
  'judge_total',
  // What the context held of the fact (kept … unanswered); `valid` false: left out of recall.
  'outcome',
  'valid',
  // Whether the probe's fact is used after this ask point (a needed use of it later); empty when needed facts were not computed.
  'needed_later',
] as const;

/**
 * Written last (after `needed_later`) only when the reader's context-length effect was on: whether the answer
 * is still correct under it (empty on unanswered asks), and the probability the reader retrieved
 * evidence at that length.
 */
const ROT_PROBE_COLUMNS = ['correct_rot', 'rot_probability'] as const;

/**
 * `needed.csv`: one row per scenario × strategy × use of a needed fact (docs/probes.md, "Needed
 * recall"): the fact as the using message wrote it, its kind, the step it was last seen before and
 * the step that used it, and what the strategy's context held of it there.
 */
const NEEDED_COLUMNS = ['scenario', 'strategy', 'fact', 'kind', 'source_step', 'use_step', 'outcome'] as const;

/** `summary.csv`, `steps.csv`, `events.csv`, `probes.csv` and `needed.csv` (header only when nothing was probed or needed). */
export function renderCsv(result: RunResult, details: UnitDetails = detailsOf(result)): ReportFile[] {
  const summaries = result.units.map((unit) => unit.summary);
  return [
    {
      file: 'summary.csv',
      contents: toCsv(
        summaryColumnsOf(summaries),
        summaries.map((row) => ({ ...row, cost_usd: usd(row.cost_usd) })),
      ),
    },
    ...unitCsvFiles(hasRotRecall(summaries)).map(({ file, header, part }) =>
      // The header, then each unit's rows as a part of its own, made as it is read: a corpus's rows are never all in memory at once.
      partedFile(file, function* () {
        yield header;
        for (let i = 0; i < details.count; i++) yield part(details.load(i));
      }),
    ),
  ];
}

/** Whether `probes.csv` has the context-length effect's columns: some unit's summary has its recall. */
export function hasRotRecall(summaries: readonly UnitResult['summary'][]): boolean {
  return summaries.some((row) => row.answer_recall_rot !== undefined);
}

/** A CSV of a row per step, event, answer or needed use: its header, and the part of it one unit's rows make. */
export interface UnitCsvFile {
  file: string;
  header: string;
  /** The unit's rows, in the stored form of the unit (report/json.ts `storedForm`). */
  part(unit: UnitResult): string;
}

/**
 * `steps.csv`, `events.csv`, `probes.csv` (with the context-length effect's columns when `rot`,
 * `hasRotRecall`) and `needed.csv`, a unit at a time: the file is its header, then each unit's part.
 */
export function unitCsvFiles(rot: boolean): UnitCsvFile[] {
  const probeColumns = rot ? [...PROBE_COLUMNS, ...ROT_PROBE_COLUMNS] : PROBE_COLUMNS;
  const file = (name: string, columns: readonly string[], rowsOf: (unit: UnitResult) => Iterable<Row>): UnitCsvFile => ({
    file: name,
    header: toCsv(columns, []),
    part: (unit) => toCsv(columns, rowsOf(unit), false),
  });
  return [
    file('steps.csv', STEP_COLUMNS, stepRows),
    file('events.csv', EVENT_COLUMNS, eventRows),
    file('probes.csv', probeColumns, probeRows),
    file('needed.csv', NEEDED_COLUMNS, neededRows),
  ];
}

function toCsv(columns: readonly string[], rows: Iterable<Row>, header = true): string {
  const lines: string[] = header ? [csvRecord(columns, formatNumber)] : [];
  // Each row as its cells in column order (csv-format.ts writes them as csv-stringify did).
  const cells: Cell[] = new Array<Cell>(columns.length);
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) {
      const cell = row[columns[i] as string];
      // Each number in its stored form (a no-op on a stored unit's): a unit renders as its stored copy would, uncopied.
      cells[i] = typeof cell === 'number' ? storedNumber(cell) : typeof cell === 'object' && cell !== null ? (storedValue(cell) as Cell) : cell;
    }
    lines.push(csvRecord(cells, formatNumber));
  }
  // A cell can quote transcript text: control characters (ESC sequences) are written escaped.
  // Reasons and details can quote transcript text too: csvRecord never lets a spreadsheet run one as a formula.
  return escapeControl(lines.join(''));
}

/** A number read into a cell's text, in its stored form (`storedNumber`). */
function stored<T extends number | undefined>(value: T): number | null | Exclude<T, number> {
  return typeof value === 'number' ? storedNumber(value) : (value as Exclude<T, number>);
}

/** Dollars keep micro-dollar precision (a step costs fractions of a cent); unpriced is empty. */
function usd(value: number | null | undefined): string | undefined {
  return value === null || value === undefined ? undefined : Number(value.toFixed(6)).toString();
}

function formatNumber(value: number): string {
  if (Number.isInteger(value) || !Number.isFinite(value)) return String(value);
  const rounded = Number(value.toFixed(DECIMALS));
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

// Each unit's rows are made one at a time as they are written (generators): a corpus unit's 20,000
// row objects held in one array outlived the young generation and went to the collector's old one.
function* stepRows(unit: UnitResult): Generator<Row> {
  for (const step of unit.steps as StepRecord[])
    yield {
      scenario: unit.scenario,
      strategy: unit.strategy,
      step: step.step,
      message_id: step.messageId,
      at_ms: step.atMs,
      status: step.status,
      failure: step.failure,
      prompt_tokens: step.promptTokens,
      completion_tokens: step.completionTokens,
      context_tokens: step.contextTokens,
      context_messages: step.contextMessages,
      cached_prefix_tokens: step.cachedPrefixTokens,
      overhead_tokens: step.overheadTokens,
      retrieval_tokens: step.retrievalTokens ?? 0,
      cache_write_tokens: step.cacheWriteTokens ?? 0,
      cost_usd: usd(stored(step.costUsd)),
      retries: step.retries,
      rate_limit_hits: step.rateLimitHits,
      wait_ms: step.waitMs,
      hidden_tokens: step.hiddenTokens,
      reasoning_tokens: step.reasoningTokens,
    };
}

function* probeRows(unit: UnitResult): Generator<Row> {
  for (const answer of unit.probes?.answers ?? [])
    yield {
      scenario: unit.scenario,
      strategy: unit.strategy,
      probe_id: answer.probeId,
      kind: answer.kind,
      asked_at: answer.askedAt,
      step: answer.step,
      question: answer.question,
      expected: answer.expected,
      answer: answer.answer,
      correct: answer.correct,
      retrieved: answer.retrieved,
      correct_with_retrieval: answer.correctWithRetrieval,
      retrieval_tokens: answer.retrievalTokens,
      judge_total: answer.judge !== undefined && 'total' in answer.judge ? answer.judge.total : undefined,
      outcome: answer.outcome,
      valid: answer.unanswered === true ? undefined : answer.invalid !== true,
      needed_later: answer.neededLater,
      correct_rot: answer.rot?.correct,
      rot_probability: answer.rot?.probability,
    };
}

function* neededRows(unit: UnitResult): Generator<Row> {
  for (const record of unit.probes?.needed ?? [])
    yield {
      scenario: unit.scenario,
      strategy: unit.strategy,
      fact: record.fact,
      kind: record.kind,
      source_step: record.sourceStep,
      use_step: record.useStep,
      outcome: record.outcome,
    };
}

function* eventRows(unit: UnitResult): Generator<Row> {
  for (const event of unit.events) {
    const cells = eventCells(event);
    if (cells === undefined) continue;
    yield { scenario: unit.scenario, strategy: unit.strategy, step: event.step, at_ms: event.atMs, type: event.type, ...cells };
  }
}

/** The event-specific cells; `undefined` for step events, which `steps.csv` already holds. */
function eventCells(event: RunEvent): Row | undefined {
  switch (event.type) {
    case 'step':
      return undefined;
    case 'action':
      return {
        kind: event.action,
        reason: event.reason,
        mode: event.mode,
        tokens_before: event.tokensBefore,
        tokens_after: event.tokensAfter,
        detail: event.detail,
      };
    case 'call':
      return {
        kind: event.purpose,
        reason: event.failure,
        detail: event.ok ? 'ok' : 'failed',
        input_tokens: event.inputTokens,
        output_tokens: event.outputTokens,
      };
    case 'failure':
      return {
        kind: event.failure.kind,
        reason: event.failure.message,
        detail: `attempt ${stored(event.attempt)}`,
        ms: event.failure.kind === 'rate-limit' ? event.failure.retryAfterMs : undefined,
      };
    case 'wait':
      return { kind: 'wait', reason: event.reason, ms: event.ms };
    case 'crash':
      return { kind: event.kind, reason: event.message };
    case 'recorded-compaction':
      return { kind: 'recorded-compaction', tokens_before: event.tokensBefore, tokens_after: event.tokensAfter, detail: event.id };
  }
}

export const csv = { name: 'csv', render: renderCsv } satisfies Reporter;
