import type { LogSummary, NeededRecord, ProbeAnswer, RetentionCurve, UnitProbeResult, UnitResult } from '../metrics/types.js';
import { answerRecallNeeded, neededFigures } from '../metrics/needed.js';
import type { ProbeKind } from '../transcript/types.js';
import type { RunEvent, StepRecord } from '../metrics/run-events.js';
import { summarizeUnit } from '../metrics/summarize.js';
import { aggregateProbes, curveRetention } from '../probes/aggregate.js';
import { artifactPath } from '../paths.js';
import { CORPUS_LOGS } from '../metrics/corpus.js';

/** What combining reads of a log (a `PreparedLog` is one): its path, its id and its probes' ids, kinds and sources. */
export interface CombinedLog {
  file: string;
  transcript: { header: { id: string } };
  probes?: { probes: readonly { probe: { id: string; kind: ProbeKind }; source: 'output' | 'agent' }[] };
}

/** One log of a scenario and what one strategy made of it. */
export interface LogResult {
  log: CombinedLog;
  result: UnitResult;
}

/** Where a log's steps and virtual times start in the combined unit. */
interface Offset {
  step: number;
  atMs: number;
}

/**
 * One scenario × strategy result over several logs, as one summary row: the logs' steps and
 * events one after another (step numbers and virtual times continued from the previous log, so
 * that `saving_vs_full` pairs the same step of the same log and charts read left to right), the
 * row reduced from them by the same reducer as any unit — tokens, steps, waits and compactions
 * summed, peaks as the max, recall over every probe of every log, `crashed` when any log crashed,
 * `crash_step` the first crash — plus `logs` and `crashed_logs`. Each log's own summary stays in
 * `logs`; past `CORPUS_LOGS` logs the per-probe retention curves are left out (500 logs × every
 * strategy held 5.7 GB with them; the retention figures are reduced from the curves first, so they
 * are the same either way). Pure.
 */
export function combineLogResults(parts: readonly LogResult[], base = '.'): UnitResult {
  const combiner = createLogCombiner(base);
  for (const part of parts) combiner.add(part);
  return combiner.finish();
}

/**
 * `combineLogResults` one log at a time, as the logs are replayed: each log's records are moved
 * into the unit's as it comes, so that a unit of a corpus is never held twice (every log's result,
 * and the unit made of them).
 */
/**
 * `base`: the scenario file's folder, which log paths outside the working directory are shown
 * relative to. `owned`: each result added is the caller's to give up (unpacked for this alone, as
 * `merge` and a corpus run unpack each log's): its steps, events, answers and needed uses are
 * moved to the unit's steps and times in place, not copied (a 477-log unit's 70,000 records
 * copied were most of what a merge left for the collector).
 */
export function createLogCombiner(base: string, { owned = false }: { owned?: boolean } = {}): { add(part: LogResult): void; finish(): UnitResult } {
  let first: UnitResult | undefined;
  const steps: StepRecord[] = [];
  const events: RunEvent[] = [];
  const logs: LogSummary[] = [];
  const probes: CombinedProbes = { list: [], answers: [], retention: [], shares: [], afterCompaction: [], specifics: [] };
  let probed = false;
  let crashedLogs = 0;
  const offset: Offset = { step: 0, atMs: 0 };
  // A record moved in place once (`owned`): one the result holds twice is copied the second time, not moved twice.
  const movedOnce = new Set<object>();
  const move = <T extends object>(record: T, change: Partial<T>): T => {
    if (!owned || movedOnce.has(record)) return { ...record, ...change };
    movedOnce.add(record);
    return Object.assign(record, change);
  };
  return {
    add({ log, result }) {
      first ??= result;
      const at = { ...offset };
      // Before its records are moved (in place when `owned`).
      const end = endTime(result);
      const count = result.summary.steps;
      for (const s of result.steps) steps.push(move(s, { step: s.step + at.step, atMs: s.atMs + at.atMs }));
      for (const e of result.events) events.push(move(e, { step: e.step + at.step, atMs: e.atMs + at.atMs }));
      const id = log.transcript.header.id;
      logs.push({ transcript: artifactPath(log.file, base), id, firstStep: at.step, summary: result.summary });
      if (result.summary.crashed) crashedLogs += 1;
      // At corpus scale the retention curves (a point per probe per step: most of a unit's weight)
      // are reduced to their shares as they come; no chart of a corpus draws them (report/html-corpus.ts).
      const isCorpus = logs.length > CORPUS_LOGS;
      if (isCorpus) probes.retention = [];
      if (result.probes !== undefined) {
        probed = true;
        addProbes(probes, { prefix: `${id}/`, offset: at, keepCurves: !isCorpus, move }, result.probes, log.probes?.probes ?? []);
      }
      offset.step += count;
      offset.atMs += end;
    },
    finish() {
      if (first === undefined) throw new Error('combineLogResults: no logs');
      const combined = probed ? aggregateCombined(probes) : undefined;
      const summary = summarizeUnit({
        scenario: first.scenario,
        strategy: first.strategy,
        totalSteps: offset.step,
        steps,
        events,
        ...(combined !== undefined ? { probes: combined.figures } : {}),
      });
      summary.logs = logs.length;
      summary.crashed_logs = crashedLogs;
      return {
        scenario: first.scenario,
        strategy: first.strategy,
        options: first.options,
        summary,
        steps,
        events,
        ...(first.thresholds !== undefined ? { thresholds: first.thresholds } : {}),
        ...(combined !== undefined ? { probes: combined.detail } : {}),
        logs,
      };
    },
  };
}

/** The probes of the logs so far, their answers and curves moved to the unit's steps and ids. */
interface CombinedProbes {
  list: { id: string; kind: ProbeKind; source: 'output' | 'agent' }[];
  answers: ProbeAnswer[];
  retention: RetentionCurve[];
  /** Each curve's retention, kept when the curves are not (past `CORPUS_LOGS` logs). */
  shares: { kind: ProbeKind; share: number | null }[];
  afterCompaction: NonNullable<UnitProbeResult['specificsAfterCompaction']>;
  specifics: UnitProbeResult['specifics'][];
  /** The needed uses of the logs that had them (absent: none had). */
  needed?: NeededRecord[];
}

function addProbes(
  into: CombinedProbes,
  { prefix, offset, keepCurves, move }: { prefix: string; offset: Offset; keepCurves: boolean; move: <T extends object>(record: T, change: Partial<T>) => T },
  probes: UnitProbeResult,
  logProbes: NonNullable<CombinedLog['probes']>['probes'],
): void {
  for (const mp of logProbes) into.list.push({ id: `${prefix}${mp.probe.id}`, kind: mp.probe.kind, source: mp.source });
  for (const a of probes.answers) into.answers.push(move(a, { probeId: `${prefix}${a.probeId}`, step: a.step + offset.step }));
  for (const c of probes.retention) {
    into.shares.push({ kind: c.kind, share: curveRetention(c) });
    if (!keepCurves) continue;
    into.retention.push({ ...c, probeId: `${prefix}${c.probeId}`, points: c.points.map(([step, kept]): [number, 0 | 1] => [step + offset.step, kept]) });
  }
  for (const s of probes.specificsAfterCompaction ?? []) into.afterCompaction.push(move(s, { step: s.step + offset.step }));
  into.specifics.push(probes.specifics);
  if (probes.needed !== undefined) {
    into.needed ??= [];
    for (const r of probes.needed) into.needed.push(move(r, { sourceStep: r.sourceStep + offset.step, useStep: r.useStep + offset.step }));
  }
}

function aggregateCombined(probes: CombinedProbes) {
  const { figures, ...detail } = aggregateProbes({
    probes: probes.list,
    answers: probes.answers,
    retention: probes.retention,
    retentionShares: probes.shares,
    specifics: meanSpecifics(probes.specifics),
    ...(probes.afterCompaction.length > 0 ? { specificsAfterCompaction: probes.afterCompaction } : {}),
  });
  const { needed } = probes;
  if (needed === undefined) return { figures, detail };
  return {
    figures: { ...figures, needed: neededFigures(needed), answerRecallNeeded: answerRecallNeeded(probes.answers) },
    detail: { ...detail, needed },
  };
}

/** The virtual time a log's session ended at: its last step or event. */
function endTime(result: UnitResult): number {
  let end = 0;
  for (const step of result.steps) end = Math.max(end, step.atMs);
  for (const event of result.events) end = Math.max(end, event.atMs);
  return end;
}

type Specifics = UnitProbeResult['specifics'];

/** Each share as the mean over the logs that measured it. */
function meanSpecifics(all: readonly Specifics[]): Specifics {
  const mean = (pick: (s: Specifics) => number | null): number | null => {
    const values = all.map(pick).filter((v): v is number => v !== null);
    return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  };
  return { paths: mean((s) => s.paths), commands: mean((s) => s.commands), numbers: mean((s) => s.numbers) };
}
