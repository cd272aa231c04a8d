import type { StepRecord } from './run-events.js';
import type { LogSummary, NeededRecord, ProbeAnswer, SummaryRow } from './types.js';
import { countNeeded } from './needed.js';

/** What the pairing with `full` reads of a step: its number, status, tokens and cost. */
type PairedStep = Pick<StepRecord, 'step' | 'status' | 'promptTokens' | 'completionTokens' | 'overheadTokens' | 'costUsd'>;

/** What the pairing with `full` and the intervals read of a unit: its summary, steps, logs and probe answers. */
export interface SavingInput {
  summary: SummaryRow;
  steps: readonly PairedStep[];
  logs?: readonly LogSummary[];
  probes?: {
    answers: readonly Pick<ProbeAnswer, 'probeId' | 'correct' | 'unanswered' | 'invalid'>[];
    needed?: readonly Pick<NeededRecord, 'useStep' | 'outcome'>[];
  };
}

/** A unit's steps as the pairing reads them, a column per figure (step `i` is the `i`-th of each). */
interface PairedSteps {
  readonly length: number;
  readonly step: Float64Array;
  /** 1 where the step's status is `ok`. */
  readonly ok: Uint8Array;
  /** prompt + completion + overhead tokens, added in that order. */
  readonly tokens: Float64Array;
  /** 1 where the step has a `costUsd`; `cost` is 0 where not. */
  readonly priced: Uint8Array;
  readonly cost: Float64Array;
}

/** One log's answers and needed uses as the intervals count them. */
export interface LogCounts {
  /** Answers asked (not unanswered, not invalid) and, of them, right. */
  asked: number;
  correct: number;
  /** Needed uses reached, and of them those whose fact the context held (kept or summarized). */
  reached: number;
  held: number;
}

/**
 * What `pairSummaries` reads of a unit (metrics/summarize.ts): its summary, its steps in columns
 * and, over several logs, its logs and each one's counts. A unit kept so for its pairing holds a
 * few bytes a step, where its step records as objects held about a hundred (a 477-log corpus's 21
 * units: 75 MB of a merge's live heap).
 */
export interface PairedFigures {
  summary: SummaryRow;
  steps: PairedSteps;
  logs?: readonly LogSummary[];
  /** Per log of `logs`, in their order (when there are two or more): what the unit's answers and needed uses count in it. */
  counts?: readonly LogCounts[];
}

/** A unit's figures for its pairing with `full`: the same figures as its records give. Pure. */
export function pairedFiguresOf(unit: SavingInput): PairedFigures {
  const logs = unit.logs;
  return {
    summary: unit.summary,
    steps: pairedStepsOf(unit.steps),
    ...(logs !== undefined ? { logs } : {}),
    ...(logs !== undefined && logs.length >= 2 ? { counts: logCountsOf(logs, unit.probes) } : {}),
  };
}

function pairedStepsOf(steps: readonly PairedStep[]): PairedSteps {
  const length = steps.length;
  const columns = {
    length,
    step: new Float64Array(length),
    ok: new Uint8Array(length),
    tokens: new Float64Array(length),
    priced: new Uint8Array(length),
    cost: new Float64Array(length),
  };
  steps.forEach((step, i) => {
    columns.step[i] = step.step;
    columns.ok[i] = step.status === 'ok' ? 1 : 0;
    columns.tokens[i] = step.promptTokens + step.completionTokens + step.overheadTokens;
    if (step.costUsd === undefined) return;
    columns.priced[i] = 1;
    columns.cost[i] = step.costUsd;
  });
  return columns;
}

/**
 * `full`'s completed steps by number: the place of the last `ok` step of each (what a step of
 * another unit is paired with).
 */
export function completedSteps(full: PairedFigures): Map<number, number> {
  const places = new Map<number, number>();
  const { step, ok, length } = full.steps;
  for (let i = 0; i < length; i++) if (ok[i] === 1) places.set(step[i] as number, i);
  return places;
}

/**
 * The log whose first step (`starts`, ascending) is the last at or before `step`; -1 before the
 * first log (or with none).
 */
export function logOfStep(starts: readonly number[], step: number): number {
  let low = 0;
  let high = starts.length - 1;
  if (high < 0 || step < (starts[0] as number)) return -1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= step) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Each log's answers and needed uses. An answer is the log's whose id and a `/` begin its probe
 * id (combine-logs.ts prefixes them so), and counts as answer_recall counts it (an ask point not
 * reached, or not valid there because the reader missed it from full's context, is no answer).
 * Each answer is matched at each `/` of its id, not against every log: a scan of every answer per
 * log was 3.6 s of a 477-log merge. A needed use is the log's its use step falls in.
 */
function logCountsOf(logs: readonly LogSummary[], probes: SavingInput['probes']): LogCounts[] {
  const counts = logs.map((): LogCounts => ({ asked: 0, correct: 0, reached: 0, held: 0 }));
  const byId = new Map<string, LogCounts[]>();
  logs.forEach((log, i) => byId.set(log.id, [...(byId.get(log.id) ?? []), counts[i] as LogCounts]));
  for (const answer of probes?.answers ?? []) {
    if (answer.unanswered === true || answer.invalid === true) continue;
    const id = answer.probeId;
    for (let at = id.indexOf('/'); at !== -1; at = id.indexOf('/', at + 1)) {
      for (const count of byId.get(id.slice(0, at)) ?? []) {
        count.asked += 1;
        if (answer.correct) count.correct += 1;
      }
    }
  }
  const starts = logs.map((log) => log.firstStep);
  const uses: Pick<NeededRecord, 'outcome'>[][] = logs.map(() => []);
  for (const record of probes?.needed ?? []) uses[logOfStep(starts, record.useStep)]?.push(record);
  uses.forEach((records, i) => {
    const { reached, held } = countNeeded(records);
    Object.assign(counts[i] as LogCounts, { reached, held });
  });
  return counts;
}
