import type { LogSummary, ProbeAnswer, RetentionCurve, UnitProbeResult, UnitResult } from '../metrics/types.js';
import type { ProbeKind } from '../transcript/types.js';
import type { PreparedLog } from './prepared-scenario.js';
import type { RunEvent, StepRecord } from '../metrics/run-events.js';
import { summarizeUnit } from '../metrics/summarize.js';
import { aggregateProbes } from '../probes/aggregate.js';
import { displayPath } from '../paths.js';
import { CORPUS_LOGS } from '../metrics/corpus.js';

/** One log of a scenario and what one strategy made of it. */
export interface LogResult {
  log: Pick<PreparedLog, 'file' | 'transcript' | 'probes'>;
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
export function combineLogResults(parts: readonly LogResult[]): UnitResult {
  const first = parts[0];
  if (first === undefined) throw new Error('combineLogResults: no logs');
  const steps: StepRecord[] = [];
  const events: RunEvent[] = [];
  const logs: LogSummary[] = [];
  const probeParts: { prefix: string; offset: Offset; probes: UnitProbeResult; list: { id: string; kind: ProbeKind; source: 'output' | 'agent' }[] }[] = [];
  const offset: Offset = { step: 0, atMs: 0 };
  for (const { log, result } of parts) {
    const at = { ...offset };
    for (const s of result.steps) steps.push({ ...s, step: s.step + at.step, atMs: s.atMs + at.atMs });
    for (const e of result.events) events.push(shiftEvent(e, at));
    const id = log.transcript.header.id;
    logs.push({ transcript: displayPath(log.file), id, firstStep: at.step, summary: result.summary });
    if (result.probes !== undefined) {
      const list = (log.probes?.probes ?? []).map((mp) => ({ id: `${id}/${mp.probe.id}`, kind: mp.probe.kind, source: mp.source }));
      probeParts.push({ prefix: `${id}/`, offset: at, probes: result.probes, list });
    }
    offset.step += result.summary.steps;
    offset.atMs += endTime(result);
  }
  const probes = probeParts.length === 0 ? undefined : combineProbes(probeParts);
  // At corpus scale the retention curves (a point per probe per step: most of a unit's weight)
  // are reduced to their figures; no chart of a corpus draws them (report/html-corpus.ts).
  if (probes !== undefined && parts.length > CORPUS_LOGS) probes.detail.retention = [];
  const summary = summarizeUnit({
    scenario: first.result.scenario,
    strategy: first.result.strategy,
    totalSteps: offset.step,
    steps,
    events,
    ...(probes !== undefined ? { probes: probes.figures } : {}),
  });
  summary.logs = parts.length;
  summary.crashed_logs = parts.filter((part) => part.result.summary.crashed).length;
  return {
    scenario: first.result.scenario,
    strategy: first.result.strategy,
    options: first.result.options,
    summary,
    steps,
    events,
    ...(first.result.thresholds !== undefined ? { thresholds: first.result.thresholds } : {}),
    ...(probes !== undefined ? { probes: probes.detail } : {}),
    logs,
  };
}

/** The virtual time a log's session ended at: its last step or event. */
function endTime(result: UnitResult): number {
  let end = 0;
  for (const step of result.steps) end = Math.max(end, step.atMs);
  for (const event of result.events) end = Math.max(end, event.atMs);
  return end;
}

function shiftEvent(event: RunEvent, at: Offset): RunEvent {
  return { ...event, step: event.step + at.step, atMs: event.atMs + at.atMs };
}

function combineProbes(
  parts: readonly { prefix: string; offset: Offset; probes: UnitProbeResult; list: { id: string; kind: ProbeKind; source: 'output' | 'agent' }[] }[],
) {
  const answers: ProbeAnswer[] = [];
  const retention: RetentionCurve[] = [];
  const afterCompaction: NonNullable<UnitProbeResult['specificsAfterCompaction']> = [];
  for (const { prefix, offset, probes } of parts) {
    for (const a of probes.answers) answers.push({ ...a, probeId: `${prefix}${a.probeId}`, step: a.step + offset.step });
    for (const c of probes.retention) {
      retention.push({ ...c, probeId: `${prefix}${c.probeId}`, points: c.points.map(([step, kept]): [number, 0 | 1] => [step + offset.step, kept]) });
    }
    for (const s of probes.specificsAfterCompaction ?? []) afterCompaction.push({ ...s, step: s.step + offset.step });
  }
  const { figures, ...detail } = aggregateProbes({
    probes: parts.flatMap((p) => p.list),
    answers,
    retention,
    specifics: meanSpecifics(parts.map((p) => p.probes.specifics)),
    ...(afterCompaction.length > 0 ? { specificsAfterCompaction: afterCompaction } : {}),
  });
  return { figures, detail };
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
