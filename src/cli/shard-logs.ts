import { closeSync, existsSync, fstatSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { InputError } from '../errors.js';
import type { RunResult } from '../metrics/types.js';
import type { ShardCorpus } from '../metrics/shard-info.js';
import type { ShardLogs } from '../run/merge-corpora.js';
import type { ShardLog } from '../run/shard-corpora.js';
import { givenPath } from '../paths.js';
import { parseInput } from '../validate.js';
import { redactWhereSecret } from '../redact/index.js';
import { readRange } from './file-range.js';
import { packLogResult, unpackLogResult } from '../run/corpus-units.js';

/**
 * Beside a shard's `result.json` when the run has a corpus (docs/performance.md, "Shards of a
 * corpus"): what each unit of the corpus made of each log the shard took, for `merge` to combine
 * each unit from every shard's logs. `shard-logs.json` says what is where; `shard-logs.bin` holds
 * the results, each a structured clone (`node:v8` serialize) deflated, one after another.
 */
const SHARD_LOGS_FILE = 'shard-logs.json';
const SHARD_LOGS_DATA = 'shard-logs.bin';
const FORMAT = 'ctxbench-shard-logs';
/** Raised when the files' layout or meaning changes: a merge refuses files of another version. */
const VERSION = 1;

const takenLogSchema = z.strictObject({
  index: z.number().int().min(0),
  id: z.string(),
  probes: z
    .array(z.strictObject({ id: z.string(), kind: z.enum(['recall', 'artifact', 'continuation', 'decision']), source: z.enum(['output', 'agent']) }))
    .optional(),
  /** Per unit of the corpus: the byte offset and length of its packed result in `shard-logs.bin`. */
  results: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
});
const manifestSchema = z.strictObject({
  format: z.literal(FORMAT),
  version: z.number().int(),
  shard: z.strictObject({ index: z.number().int(), count: z.number().int() }),
  corpora: z.array(z.strictObject({ scenario: z.string(), logs: z.array(takenLogSchema) })),
});
type Manifest = z.infer<typeof manifestSchema>;

/**
 * Writes a shard's logs into `out` as the run hands them over (run-suite.ts `onShardLog`): the
 * results to `shard-logs.bin` under a temporary name as they come, then `finish` writes
 * `shard-logs.json` and renames the data into place. Each result is redacted first, unless `redact` is false (`--no-redact`).
 * A `--resume` (`resume`) that hands over no log (its corpus came from the journal) keeps the
 * files of the run it resumes; any other run that hands over none writes none (a stale pair in
 * `out` is then pruned with the reports it no longer writes).
 */
export function createShardLogsWriter(
  out: string,
  { redact, resume }: { redact: boolean; resume: boolean },
): { add(log: ShardLog): void; finish(result: RunResult): string[]; abort(): void } {
  const data = join(out, SHARD_LOGS_DATA);
  const temporary = `${data}.${process.pid}.tmp`;
  let fd: number | undefined;
  let offset = 0;
  const corpora: Manifest['corpora'] = [];
  return {
    add({ corpus, log, packed }) {
      fd ??= openSync(temporary, 'w');
      const results: [number, number][] = [];
      for (const given of packed) {
        // Written redacted as every artifact is (unless --no-redact): a result holds the transcript's strings.
        const result = redact ? unpackLogResult(given, SHARD_LOGS_DATA, 'results') : undefined;
        const redacted = result !== undefined ? redactWhereSecret(result) : undefined;
        const bytes = redacted !== undefined && redacted !== result ? packLogResult(redacted) : given;
        writeSync(fd, bytes);
        results.push([offset, bytes.length]);
        offset += bytes.length;
      }
      while (corpora.length <= corpus) corpora.push({ scenario: '', logs: [] });
      (corpora[corpus] as Manifest['corpora'][number]).logs.push({ ...log, results });
    },
    finish(result) {
      const shard = result.shard;
      const known = shard?.corpora ?? [];
      // Only a resume keeps the files of the run it resumes (its journal's fingerprint vouches for the logs); any other run's are stale.
      if (fd === undefined || shard === undefined)
        return resume && known.some((c) => c.taken.length > 0) && existsSync(join(out, SHARD_LOGS_FILE)) ? paths(out) : [];
      closeSync(fd);
      fd = undefined;
      const manifest: Manifest = {
        format: FORMAT,
        version: VERSION,
        shard: { index: shard.index, count: shard.count },
        corpora: known.map((corpus, i) => ({ scenario: corpus.scenario, logs: corpora[i]?.logs ?? [] })),
      };
      renameSync(temporary, data);
      writeFileSync(join(out, SHARD_LOGS_FILE), `${JSON.stringify(manifest)}\n`);
      return paths(out);
    },
    abort() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      rmSync(temporary, { force: true });
    },
  };
}

const paths = (out: string): string[] => [join(out, SHARD_LOGS_FILE), join(out, SHARD_LOGS_DATA)];

/**
 * The logs a shard's result (`resultFile`) took of its corpora, read from the files beside it:
 * undefined when it took none. A missing file, a manifest of another format or version, of
 * another shard, or results that lie outside the data file, is an InputError naming the file and
 * the field. The data file is read a result at a time (`read`); `close` ends the reading.
 */
export function readShardLogs(resultFile: string, result: RunResult): (ShardLogs & { close(): void }) | undefined {
  const shard = result.shard;
  const corpora = shard?.corpora ?? [];
  if (shard === undefined || !corpora.some((corpus) => corpus.taken.length > 0)) return undefined;
  const folder = dirname(resolve(resultFile));
  const file = givenPath(join(dirname(resultFile), SHARD_LOGS_FILE));
  const dataFile = givenPath(join(dirname(resultFile), SHARD_LOGS_DATA));
  for (const [path, shown] of [
    [join(folder, SHARD_LOGS_FILE), file],
    [join(folder, SHARD_LOGS_DATA), dataFile],
  ] as const) {
    if (!existsSync(path))
      throw new InputError(
        { file: shown },
        `missing: ${givenPath(resultFile)} took logs of a corpus, and what its units made of them is in this file (keep the whole shard folder)`,
      );
  }
  const manifest = parseManifest(join(folder, SHARD_LOGS_FILE), file);
  if (manifest.shard.index !== shard.index || manifest.shard.count !== shard.count)
    throw new InputError(
      { file, field: 'shard' },
      `is of shard ${manifest.shard.index}/${manifest.shard.count}, not of ${givenPath(resultFile)}'s ${shard.index}/${shard.count}`,
    );
  const fd = openSync(join(folder, SHARD_LOGS_DATA), 'r');
  try {
    checkRanges(manifest, corpora, fstatSync(fd).size, file, dataFile);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return {
    file,
    corpora: manifest.corpora,
    read(corpus, log, unit) {
      const [offset, length] = manifest.corpora[corpus]?.logs[log]?.results[unit] ?? [0, 0];
      return readRange(fd, offset, length, () => new InputError({ file: dataFile }, `ends before byte ${offset + length}`));
    },
    close: () => closeSync(fd),
  };
}

function parseManifest(path: string, file: string): Manifest {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InputError({ file }, `not a shard-logs file: ${(error as Error).message}`);
  }
  const version = (data as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version !== VERSION)
    throw new InputError({ file, field: 'version' }, `is shard-logs version ${version}; this ctxbench reads version ${VERSION}: run the shard again with it`);
  return parseInput(manifestSchema, data, { file, what: 'not a shard-logs file' });
}

/** Every result's range lies inside the data file, and each log has one result per unit of its corpus. */
function checkRanges(manifest: Manifest, corpora: readonly ShardCorpus[], size: number, file: string, dataFile: string): void {
  if (manifest.corpora.length !== corpora.length)
    throw new InputError({ file, field: 'corpora' }, `lists ${manifest.corpora.length} corpora, the shard's result ${corpora.length}`);
  manifest.corpora.forEach((corpus, c) => {
    const units = (corpora[c] as ShardCorpus).units.length;
    corpus.logs.forEach((log, l) => {
      const field = `corpora.${c}.logs.${l}.results`;
      if (log.results.length !== units) throw new InputError({ file, field }, `has ${log.results.length} results, one per unit of the corpus's ${units}`);
      log.results.forEach(([offset, length], u) => {
        if (offset + length > size)
          throw new InputError({ file, field: `${field}.${u}` }, `lies past the end of ${dataFile} (${size} bytes): the file is cut short`);
      });
    });
  });
}
