/**
 * A corpus's logs as files: what a run records of each (its path and the SHA-256 of its bytes)
 * and which of them a shard reads in full. A shard of a corpus replays a quarter of its logs; the
 * others it only hashes, so that its result still names every log, and merge still refuses a
 * shard that read another copy of one (docs/performance.md "Shards of a corpus, by log").
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CORPUS_LOGS } from '../metrics/corpus.js';
import { InputError } from '../errors.js';
import { displayPath } from '../paths.js';
import { shardLogs, type ShardSpec } from './shard.js';
import type { PreparedScenario } from './prepared-scenario.js';

/** One log of a corpus: its absolute path and the SHA-256 of the file's bytes. */
export interface CorpusFile {
  file: string;
  sha256: string;
}

/**
 * Whether logs read from these files are a corpus whose every log is one file (more than
 * `CORPUS_LOGS`, no subagent sidechains, which add logs only reading a file finds): a corpus whose
 * digests are of its files, and which a shard reads its own logs of only.
 */
export const isFileCorpus = (files: readonly string[], withSidechains: boolean): boolean => !withSidechains && files.length > CORPUS_LOGS;

/** Each file's SHA-256, in order; a file that cannot be read is an InputError naming it. */
export async function hashCorpusFiles(files: readonly string[]): Promise<CorpusFile[]> {
  const hashed: CorpusFile[] = [];
  for (const file of files) {
    const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
      throw new InputError({ file: displayPath(file) }, `cannot read log: ${error.code ?? error.message}`);
    });
    hashed.push({ file, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  return hashed;
}

/**
 * The places of the logs shard `shard` reads in full (all, without a shard): its own, and the
 * first, whose header resolves the scenario (provider, model) and whose steps are checked.
 */
export function logsToRead(total: number, shard: ShardSpec | undefined): number[] {
  if (shard === undefined) return Array.from({ length: total }, (_, i) => i);
  const own = shardLogs(total, shard);
  return own[0] === 0 ? own : [0, ...own];
}

/**
 * Cuts a shard's corpus, read at `read` (`logsToRead`), to the logs the shard replays, each with
 * its place among the corpus's logs (`PreparedLog.index`, which its fault draws and its place in
 * the combined units follow) and the corpus with its count of logs (`corpusLogs`).
 */
export function keepShardLogs(prepared: PreparedScenario, read: readonly number[], shard: ShardSpec): void {
  const total = prepared.corpusFiles?.length ?? 0;
  const own = new Set(shardLogs(total, shard));
  prepared.logs = (prepared.logs ?? []).flatMap((log, i) => {
    const index = read[i] as number;
    return own.has(index) ? [Object.assign(log, { index })] : [];
  });
  prepared.corpusLogs = total;
}
