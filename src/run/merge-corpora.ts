import type { UnitResult } from '../metrics/types.js';
import type { ShardCorpus } from '../metrics/shard-info.js';
import type { ProbeKind } from '../transcript/types.js';
import { InputError } from '../errors.js';
import { createLogCombiner, type CombinedLog } from './combine-logs.js';
import { unpackLogResult } from './corpus-units.js';

/** One log a shard took of a corpus, as combining reads it: its place, its id and its probes. */
export interface TakenLog {
  index: number;
  id: string;
  probes?: { id: string; kind: ProbeKind; source: 'output' | 'agent' }[];
}

/**
 * What `merge` reads of one shard's corpora besides its result (cli/shard-logs.ts reads it from
 * the files beside the result): per corpus of `shard.corpora`, the logs it took, and the packed
 * result of each of the corpus's units over each of them.
 */
export interface ShardLogs {
  /** The file messages name for it. */
  file: string;
  /** Per corpus, in the order of `shard.corpora`: the logs taken, in the order of `taken`. */
  corpora: readonly { scenario: string; logs: readonly TakenLog[] }[];
  /** The packed result (`packLogResults`) of the corpus's unit at `unit` (its place in `units`) over its `log`-th log taken. */
  read(corpus: number, log: number, unit: number): Uint8Array;
}

/** A shard's result file, its record of the corpora, and what it holds of their logs. */
export interface CorpusShard {
  file: string;
  corpora: readonly ShardCorpus[];
  logs: ShardLogs | undefined;
}

/** Where each log of a corpus was replayed: a shard and the log's place among those it took. */
interface Owner {
  shard: CorpusShard;
  corpus: number;
  position: number;
}

/** A corpus of a run merged from its shards: its units, and each combined from every shard's logs in log order. */
export interface MergedCorpus {
  units: readonly number[];
  /** The unit at `position` of `units` over every log, as an unsharded run combines it (run/combine-logs.ts). */
  combine(position: number): UnitResult;
}

/**
 * The corpora the shards of one run took by log, checked and ready to combine: every shard records
 * the same corpora with the same logs (their names and the SHA-256 of each transcript as read),
 * every log was taken by exactly one shard, and each shard that took logs brings what its units
 * made of them. Anything else is an InputError naming the file and the field.
 */
export function mergeCorpora(shards: readonly CorpusShard[]): MergedCorpus[] {
  const first = shards[0];
  if (first === undefined) return [];
  for (const shard of shards) assertSameCorpora(first, shard);
  return first.corpora.map((corpus, c) => {
    const owners = ownersOf(shards, c);
    return {
      units: corpus.units,
      combine(position) {
        // Log paths are stored as the result names them (`artifactPath`), which it leaves as they are.
        const combiner = createLogCombiner('.', { owned: true });
        corpus.logs.forEach((entry, index) => {
          const { shard, position: at } = owners[index] as Owner;
          const logs = shard.logs as ShardLogs;
          const taken = (logs.corpora[c] as { logs: readonly TakenLog[] }).logs[at] as TakenLog;
          const log: CombinedLog = {
            file: entry.transcript,
            transcript: { header: { id: taken.id } },
            ...(taken.probes !== undefined ? { probes: { probes: taken.probes.map(({ id, kind, source }) => ({ probe: { id, kind }, source })) } } : {}),
          };
          combiner.add({ log, result: unpackLogResult(logs.read(c, at, position), logs.file, `corpora.${c}.logs.${at}.results.${position}`) });
        });
        return combiner.finish();
      },
    };
  });
}

/** Shards of one run recorded the same corpora, units and logs; the first log that differs is named. */
function assertSameCorpora(first: CorpusShard, other: CorpusShard): void {
  if (first.corpora.length !== other.corpora.length)
    throw new InputError({ file: other.file, field: 'shard.corpora' }, `records ${other.corpora.length} corpora, not ${first.corpora.length} as ${first.file}`);
  other.corpora.forEach((corpus, c) => {
    const reference = first.corpora[c] as ShardCorpus;
    const field = `shard.corpora.${c}`;
    if (corpus.scenario !== reference.scenario || JSON.stringify(corpus.units) !== JSON.stringify(reference.units))
      throw new InputError(
        { file: other.file, field },
        `is not a shard of the same run: corpus "${corpus.scenario}", not "${reference.scenario}" as in ${first.file}`,
      );
    if (corpus.logs.length !== reference.logs.length)
      throw new InputError(
        { file: other.file, field: `${field}.logs` },
        `corpus "${corpus.scenario}" has ${corpus.logs.length} logs, ${reference.logs.length} in ${first.file}`,
      );
    corpus.logs.forEach((log, i) => {
      const theirs = reference.logs[i] as ShardCorpus['logs'][number];
      if (log.transcript !== theirs.transcript)
        throw new InputError(
          { file: other.file, field: `${field}.logs.${i}.transcript` },
          `log ${i + 1} is ${log.transcript}, not ${theirs.transcript} as in ${first.file}`,
        );
      if (log.sha256 !== theirs.sha256)
        throw new InputError(
          { file: other.file, field: `${field}.logs.${i}.sha256` },
          `log ${i + 1} (${log.transcript}) is not the log ${first.file} read: sha256 ${log.sha256.slice(0, 12)}…, not ${theirs.sha256.slice(0, 12)}…`,
        );
    });
  });
}

/** Each log of corpus `c` and the shard that took it; a log taken twice or by none is refused. */
function ownersOf(shards: readonly CorpusShard[], c: number): Owner[] {
  const owners: (Owner | undefined)[] = [];
  const corpus = (shards[0] as CorpusShard).corpora[c] as ShardCorpus;
  for (const shard of shards) {
    const own = shard.corpora[c] as ShardCorpus;
    if (own.taken.length === 0) continue;
    const logs = shard.logs;
    if (logs === undefined)
      throw new InputError({ file: shard.file, field: `shard.corpora.${c}.taken` }, 'took logs of a corpus, but merge was given none of them');
    const taken = logs.corpora[c]?.logs ?? [];
    if (JSON.stringify(taken.map((log) => log.index)) !== JSON.stringify(own.taken))
      throw new InputError({ file: logs.file, field: `corpora.${c}.logs` }, `holds other logs than ${shard.file} took (shard.corpora.${c}.taken)`);
    own.taken.forEach((index, position) => {
      if (index < 0 || index >= corpus.logs.length)
        throw new InputError({ file: shard.file, field: `shard.corpora.${c}.taken.${position}` }, `log ${index} is not a log of corpus "${corpus.scenario}"`);
      const earlier = owners[index];
      if (earlier !== undefined)
        throw new InputError(
          { file: shard.file, field: `shard.corpora.${c}.taken.${position}` },
          `log ${index + 1} of corpus "${corpus.scenario}" (${corpus.logs[index]?.transcript ?? ''}) is also in ${earlier.shard.file}`,
        );
      owners[index] = { shard, corpus: c, position };
    });
  }
  const missing = corpus.logs.flatMap((log, i) => (owners[i] === undefined ? [`${i + 1} (${log.transcript})`] : []));
  if (missing.length > 0) {
    const shown = missing.length > 5 ? `${missing.slice(0, 5).join(', ')} and ${missing.length - 5} more` : missing.join(', ');
    throw new InputError(
      { file: (shards[0] as CorpusShard).file, field: `shard.corpora.${c}` },
      `logs of corpus "${corpus.scenario}" missing from every shard: ${shown}`,
    );
  }
  return owners as Owner[];
}
