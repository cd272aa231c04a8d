import { dirname } from 'node:path';
import type { ShardCorpus } from '../metrics/shard-info.js';
import { CORPUS_LOGS } from '../metrics/corpus.js';
import { artifactPath } from '../paths.js';
import type { CorpusUnits } from './corpus-units.js';
import type { TakenLog } from './merge-corpora.js';
import type { PreparedScenario } from './prepared-scenario.js';
import { scenarioKey, type PlannedUnit } from './plan.js';
import { shardLogs, type ShardSpec } from './shard.js';

/** One log of a corpus a shard replayed, and what each unit of the corpus made of it: what `merge` combines the units from. */
export interface ShardLog {
  /** The corpus's place in the shard's `shard.corpora`. */
  corpus: number;
  log: TakenLog;
  /** Per unit of the corpus (`ShardCorpus.units`), its result over the log, packed (run/corpus-units.ts `packLogResults`). */
  packed: readonly Uint8Array[];
}

/** The corpora among prepared scenarios (more than `CORPUS_LOGS` logs), by `scenarioKey`, with their counts of logs. */
export function corpusSizes(prepared: ReadonlyMap<string, PreparedScenario>): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const [key, scenario] of prepared) {
    const logs = scenario.corpusLogs ?? scenario.logs?.length ?? 0;
    if (logs > CORPUS_LOGS) sizes.set(key, logs);
  }
  return sizes;
}

/**
 * Shard `i/n` of a run takes every n-th log of each corpus (run/shard.ts `shardLogs`): each
 * corpus's `logs` is cut to those before their probes are made (each log keeps its place,
 * `PreparedLog.index`, and the corpus its count, `corpusLogs`), so that the shard makes the probes
 * of its logs only and replays them through every unit of the corpus. A corpus of logs one file
 * each was cut as it was read (run/corpus-files.ts `keepShardLogs`) and is recorded by its files'
 * digests, its figures in `scenarios` those of the shard's logs (`figures: 'taken'`). Returns, per
 * corpus in plan order, what the shard's result records of it and the key the pool knows it by.
 * `digests`: each other corpus's logs' SHA-256 as read, in order (run/scenario-info.ts).
 */
export function takeShardLogs(
  prepared: ReadonlyMap<string, PreparedScenario>,
  planned: readonly PlannedUnit[],
  shard: ShardSpec,
  digests: ReadonlyMap<PreparedScenario, readonly string[]>,
): { key: string; corpus: ShardCorpus }[] {
  return [...corpusSizes(prepared)].map(([key, total]) => {
    const scenario = prepared.get(key) as PreparedScenario;
    const base = dirname(scenario.scenario.file);
    const units = planned.filter((unit) => scenarioKey(unit.scenario) === key).map((unit) => unit.index);
    const files = scenario.corpusFiles;
    if (files !== undefined && scenario.corpusLogs !== undefined) {
      // Read its own logs only (run/corpus-files.ts): known by its files, its figures those of its own logs.
      const logs = files.map(({ file, sha256 }) => ({ transcript: artifactPath(file, base), sha256 }));
      const taken = (scenario.logs ?? []).map((log) => log.index as number);
      return { key, corpus: { scenario: scenario.scenario.name, units, logs, taken, figures: 'taken' as const } };
    }
    const logs = scenario.logs ?? [];
    const sha256 = digests.get(scenario);
    if (sha256 === undefined) throw new Error(`corpus ${scenario.scenario.name}: no digest of its logs`);
    const corpus: ShardCorpus = {
      scenario: scenario.scenario.name,
      units,
      logs: logs.map((log, i) => ({ transcript: artifactPath(log.file, base), sha256: sha256[i] as string })),
      taken: shardLogs(total, shard),
    };
    scenario.logs = corpus.taken.map((index) => Object.assign(logs[index] as NonNullable<PreparedScenario['logs']>[number], { index }));
    scenario.corpusLogs = total;
    return { key, corpus };
  });
}

/** The pool's `onCorpusLogs` for a shard: each log of a corpus in turn, as `onShardLog` takes it. */
export function handShardLogs(corpora: readonly { key: string }[], onShardLog: (log: ShardLog) => void): (corpus: CorpusUnits) => void {
  return (corpus) => {
    const at = corpora.findIndex(({ key }) => key === corpus.key);
    if (at === -1) return;
    for (const { index, log, packed } of corpus.packedLogs()) {
      const probes = log.probes?.probes.map(({ probe, source }) => ({ id: probe.id, kind: probe.kind, source }));
      onShardLog({ corpus: at, log: { index, id: log.transcript.header.id, ...(probes !== undefined ? { probes } : {}) }, packed });
    }
  };
}
