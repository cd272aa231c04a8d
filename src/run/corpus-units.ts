import { dirname } from 'node:path';
import type { UnitResult } from '../metrics/types.js';
import { CORPUS_LOGS } from '../metrics/corpus.js';
import type { PreparedLog, PreparedScenario } from './prepared-scenario.js';
import { createLogCombiner } from './combine-logs.js';
import { scenarioKey, type PlannedUnit } from './plan.js';

/** One log of a corpus to replay through every unit of the corpus in a run: the work a thread takes. */
export interface LogTask {
  key: string;
  index: number;
  units: readonly PlannedUnit[];
  log: PreparedLog;
}

/**
 * The units of one corpus run log-major: a thread takes one log and replays every unit's strategy
 * on it (`UnitExecutor.runLog`), and the units are combined here from the logs' results in log
 * order, with the same combiner a unit run log after log uses, so the results are the same
 * (`createLogCombiner`, run/combine-logs.ts). Logs are handed out in index order, so a log that
 * comes back before one handed out earlier waits for at most as many logs as are in flight.
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
  /**
   * The results of log `index`, one per unit in `units`' order. Once every log is in, the units'
   * combined results in plan order; undefined until then.
   */
  add(index: number, results: readonly UnitResult[]): UnitResult[] | undefined;
}

/**
 * The corpora among `units`' scenarios (scenarios of more logs than `CORPUS_LOGS`), each with its
 * units of this run. `prepared` must hold every scenario; a corpus's logs are read from it when
 * the first log is taken (its probes are made by then) and let go as each is combined; with
 * `release`, its entry in `prepared` is deleted then, so that nothing else here holds the logs.
 */
export function corpusUnits(units: readonly PlannedUnit[], prepared: ReadonlyMap<string, PreparedScenario> | undefined, release: boolean): CorpusUnits[] {
  const byKey = new Map<string, PlannedUnit[]>();
  for (const unit of units) {
    const key = scenarioKey(unit.scenario);
    if ((prepared?.get(key)?.logs?.length ?? 0) <= CORPUS_LOGS) continue;
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
  let combiners: ReturnType<typeof createLogCombiner>[] = [];
  let next = 0;
  let combined = 0;
  const waiting = new Map<number, readonly UnitResult[]>();
  return {
    key,
    units,
    get started() {
      return logs !== undefined;
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
        combiners = units.map(() => createLogCombiner(dirname(scenario.scenario.file)));
      }
      const log = logs[next];
      if (log === undefined) return undefined;
      return { key, index: next++, units, log };
    },
    add(index, results) {
      waiting.set(index, results);
      for (let ready = waiting.get(combined); ready !== undefined; ready = waiting.get(combined)) {
        const log = logs?.[combined] as PreparedLog;
        ready.forEach((result, i) => combiners[i]?.add({ log, result }));
        waiting.delete(combined);
        // Combined: what is left of the log here is in the units' records.
        (logs as (PreparedLog | undefined)[])[combined] = undefined;
        combined += 1;
      }
      if (combined < (logs?.length ?? Infinity)) return undefined;
      return combiners.map((combiner) => combiner.finish());
    },
  };
}

/** Each corpus by the plan index of each of its units. */
export function byUnit(corpora: readonly CorpusUnits[]): Map<number, CorpusUnits> {
  return new Map(corpora.flatMap((corpus) => corpus.units.map((unit) => [unit.index, corpus] as const)));
}
