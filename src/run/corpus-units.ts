import { dirname } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { deflateSync, inflateSync } from 'node:zlib';
import type { UnitResult } from '../metrics/types.js';
import { CORPUS_LOGS } from '../metrics/corpus.js';
import type { PreparedLog, PreparedScenario } from './prepared-scenario.js';
import { createLogCombiner, type CombinedLog } from './combine-logs.js';
import { scenarioKey, type PlannedUnit } from './plan.js';
import { InputError } from '../errors.js';

/** One log of a corpus to replay through every unit of the corpus in a run: the work a thread takes. */
export interface LogTask {
  key: string;
  /** The log's place among the corpus's logs (a shard's logs keep theirs: `PreparedLog.index`). */
  index: number;
  units: readonly PlannedUnit[];
  log: PreparedLog;
}

/** What each unit made of one log, one packed result per unit (`packLogResults`). */
type PackedLog = readonly Uint8Array[];

/**
 * The units of one corpus run log-major: a thread takes one log and replays every unit's strategy
 * on it (`UnitExecutor.runLog`), hands back each unit's result packed (`packLogResults`), and once
 * every log is in, each unit is combined from its logs' results in log order, with the combiner a
 * unit run log after log uses, so the results are the same (`createLogCombiner`,
 * run/combine-logs.ts). Logs come back in any order; they are combined in theirs.
 */
export interface CorpusUnits {
  key: string;
  /** The corpus's units of this run, in plan order. */
  units: readonly PlannedUnit[];
  /** The next log to replay, or undefined once every log is handed out. */
  take(): LogTask | undefined;
  /** Whether a log was handed out already (the units have started). */
  readonly started: boolean;
  /** The corpus's scenario without its logs, as a thread needs it beside each log (once a log is taken). */
  scenario(): PreparedScenario;
  /** Keeps what the units made of log `index` (`LogTask.index`); true once every log is in. */
  add(index: number, packed: PackedLog): boolean;
  /**
   * Once every log is in, before `combined`: each log, in log order, with what each unit made of
   * it as packed (what a shard of a corpus hands `merge`, run/shard.ts).
   */
  packedLogs(): Generator<PackedCorpusLog>;
  /** Logs in so far, of how many (0 of 0 before the first is taken). */
  readonly logs: { done: number; total: number };
  /**
   * Once every log is in: each unit and its result combined over every log, one unit at a time in
   * plan order (a unit's records are made as it is reached, so no two units are whole at once).
   */
  combined(): Generator<[PlannedUnit, UnitResult]>;
}

/** One log of a corpus and what each of the corpus's units (in plan order) made of it, packed (`packLogResults`). */
interface PackedCorpusLog {
  index: number;
  log: CombinedLog;
  packed: readonly Uint8Array[];
}

/**
 * Each unit's result packed apart (a structured clone, deflated): what a corpus's units made of a
 * log is held so until every log is in, at a tenth of its weight as objects (the records of 100
 * logs × 21 strategies held about 700 MB as objects), and crosses from a thread as bytes.
 */
export function packLogResults(results: readonly UnitResult[]): Uint8Array[] {
  return results.map(packLogResult);
}

/** One unit's result packed (`packLogResults`). */
export function packLogResult(result: UnitResult): Uint8Array {
  return deflateSync(serialize(result), { level: 1 });
}

function unpack(packed: Uint8Array): UnitResult {
  return deserialize(inflateSync(packed)) as UnitResult;
}

/** A result packed by `packLogResults` and read back from `file`: bytes that do not unpack are an InputError naming it and `field`. */
export function unpackLogResult(packed: Uint8Array, file: string, field: string): UnitResult {
  let result: unknown;
  try {
    result = unpack(packed);
  } catch (error) {
    throw new InputError({ file, field }, `not a packed log result: ${(error as Error).message}`);
  }
  const { scenario, strategy, summary, steps } = (result ?? {}) as Partial<UnitResult>;
  if (typeof scenario !== 'string' || typeof strategy !== 'string' || typeof summary !== 'object' || !Array.isArray(steps))
    throw new InputError({ file, field }, 'not a packed log result: no scenario, strategy, summary and steps');
  return result as UnitResult;
}

/**
 * The corpora among `units`' scenarios (scenarios of more logs than `CORPUS_LOGS`), each with its
 * units of this run. `prepared` must hold every scenario; a corpus's logs are read from it when
 * the first log is taken (its probes are made by then), and each is let go as it is handed out
 * but for what combining reads of it; with `release`, the corpus's entry in `prepared` is deleted
 * then, so that nothing else here holds the logs.
 */
export function corpusUnits(units: readonly PlannedUnit[], prepared: ReadonlyMap<string, PreparedScenario> | undefined, release: boolean): CorpusUnits[] {
  const byKey = new Map<string, PlannedUnit[]>();
  for (const unit of units) {
    const key = scenarioKey(unit.scenario);
    const scenario = prepared?.get(key);
    if ((scenario?.corpusLogs ?? scenario?.logs?.length ?? 0) <= CORPUS_LOGS) continue;
    const list = byKey.get(key) ?? [];
    list.push(unit);
    byKey.set(key, list);
  }
  return [...byKey].map(([key, list]) =>
    createCorpusUnits(key, list, () => {
      const scenario = prepared?.get(key) as PreparedScenario;
      if (release) (prepared as Map<string, PreparedScenario>).delete(key);
      return scenario;
    }),
  );
}

function createCorpusUnits(key: string, units: readonly PlannedUnit[], takeScenario: () => PreparedScenario): CorpusUnits {
  let logs: (PreparedLog | undefined)[] | undefined;
  let shared: PreparedScenario | undefined;
  let next = 0;
  const combinedLogs: CombinedLog[] = [];
  // Each log's place among the corpus's logs, and back (a shard's logs keep their places).
  const indices: number[] = [];
  const positions = new Map<number, number>();
  const packed: ((Uint8Array | undefined)[] | undefined)[] = [];
  let arrived = 0;
  return {
    key,
    units,
    get started() {
      return logs !== undefined;
    },
    get logs() {
      return { done: arrived, total: logs?.length ?? 0 };
    },
    scenario() {
      if (shared === undefined) throw new Error(`corpus ${key}: no log taken yet`);
      return shared;
    },
    take() {
      if (logs === undefined) {
        const scenario = takeScenario();
        logs = [...(scenario.logs ?? [])];
        const { logs: _logs, ...rest } = scenario;
        shared = rest;
      }
      const log = logs[next];
      if (log === undefined) return undefined;
      combinedLogs.push(combinedLogOf(log));
      const index = log.index ?? next;
      indices.push(index);
      positions.set(index, next);
      logs[next++] = undefined;
      return { key, index, units, log };
    },
    add(index, results) {
      const position = positions.get(index);
      if (position === undefined) throw new Error(`corpus ${key}: log ${index} was not handed out`);
      if (packed[position] === undefined) arrived += 1;
      packed[position] = [...results];
      return arrived === logs?.length;
    },
    *packedLogs() {
      for (const [position, log] of combinedLogs.entries()) {
        const own = packed[position];
        if (own === undefined || own.some((bytes) => bytes === undefined)) throw new Error(`corpus ${key}: log ${indices[position]} is not in`);
        yield { index: indices[position] as number, log, packed: own as Uint8Array[] };
      }
    },
    *combined() {
      const base = dirname(shared?.scenario.file ?? '.');
      for (const [position, unit] of units.entries()) {
        const combiner = createLogCombiner(base, { owned: true });
        combinedLogs.forEach((log, i) => {
          const own = packed[i];
          const bytes = own?.[position];
          if (own === undefined || bytes === undefined) throw new Error(`corpus ${key}: no result of log ${i} for ${unit.spec.label}`);
          own[position] = undefined;
          combiner.add({ log, result: unpack(bytes) });
        });
        yield [unit, combiner.finish()];
      }
    },
  };
}

/** What combining reads of a log: not its transcript or probe set. */
function combinedLogOf(log: PreparedLog): CombinedLog {
  const probes = log.probes?.probes.map(({ probe, source }) => ({ probe: { id: probe.id, kind: probe.kind }, source }));
  return { file: log.file, transcript: { header: { id: log.transcript.header.id } }, ...(probes !== undefined ? { probes: { probes } } : {}) };
}

/** The pool's progress event for a log of `corpus` through every unit (`UnitProgress`, phase `log`). */
export function logProgress(corpus: CorpusUnits): { phase: 'log'; unit: PlannedUnit; logs: { done: number; total: number } } {
  return { phase: 'log', unit: corpus.units[0] as PlannedUnit, logs: corpus.logs };
}

/** Each corpus by the plan index of each of its units. */
export function byUnit(corpora: readonly CorpusUnits[]): Map<number, CorpusUnits> {
  return new Map(corpora.flatMap((corpus) => corpus.units.map((unit) => [unit.index, corpus] as const)));
}
