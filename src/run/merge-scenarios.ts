import type { RunResult, ScenarioInfo } from '../metrics/types.js';
import type { ShardCorpus, ShardInfo } from '../metrics/shard-info.js';
import { InputError } from '../errors.js';

/** A shard's result, for messages that name its file. */
interface ShardResult {
  file: string;
  result: RunResult;
}

/** The figures of a corpus a shard counts over its own logs only (`ShardCorpus.figures`), which merge adds up. */
const OWN_FIGURES = ['steps', 'skippedLines'] as const;

/**
 * The scenarios of a run merged from its shards, as the unsharded run records them. Every shard
 * records the same scenarios, but for the corpora it read its own logs of only (`figures:
 * 'taken'`, run/corpus-files.ts): there `steps` and `skippedLines` count its logs, and the
 * merged figures are their sums over the shards (the digest and the count of logs are of the
 * whole corpus in every shard). Refuses (InputError naming the file and the field) shards that
 * disagree on which corpora count their own logs, a corpus with no scenario of its name, a figure
 * that is not a count, and scenarios that differ otherwise.
 */
export function mergeScenarios(files: readonly ShardResult[], shards: readonly ShardInfo[]): ScenarioInfo[] {
  const first = files[0] as ShardResult;
  const reference = shards[0]?.corpora ?? [];
  const own = reference.flatMap((corpus, c) => (corpus.figures === 'taken' ? [c] : []));
  const places = files.map((file, i) => ownPlaces(file, shards[i]?.corpora ?? [], reference, first.file));
  const common = (i: number): string => JSON.stringify(files[i]?.result.scenarios.map((info, at) => (places[i]?.has(at) === true ? withoutOwn(info) : info)));
  const expected = common(0);
  files.forEach((file, i) => {
    if (common(i) !== expected) throw new InputError({ file: file.file, field: 'scenarios' }, 'is not a shard of the same run: different scenarios');
  });
  if (own.length === 0) return first.result.scenarios;
  const sums = new Map<number, Record<(typeof OWN_FIGURES)[number], number>>();
  files.forEach((file, i) => {
    for (const at of places[i] ?? []) {
      const info = file.result.scenarios[at] as ScenarioInfo;
      const sum = sums.get(at) ?? { steps: 0, skippedLines: 0 };
      for (const figure of OWN_FIGURES) sum[figure] += countOf(info[figure], file.file, `scenarios.${at}.${figure}`);
      sums.set(at, sum);
    }
  });
  // The same keys in the same order as each shard's: the merged file is the unsharded run's byte for byte.
  return first.result.scenarios.map((info, at) => {
    const sum = sums.get(at);
    return sum === undefined ? info : { ...info, ...sum };
  });
}

/** The places in a shard's `scenarios` of the corpora it counts its own logs of, checked against the first shard's corpora. */
function ownPlaces(shard: ShardResult, corpora: readonly ShardCorpus[], reference: readonly ShardCorpus[], firstFile: string): Set<number> {
  const places = new Set<number>();
  corpora.forEach((corpus, c) => {
    const figures = reference[c]?.figures;
    if (corpus.figures !== figures)
      throw new InputError(
        { file: shard.file, field: `shard.corpora.${c}.figures` },
        `is not a shard of the same ctxbench: corpus "${corpus.scenario}" counts ${describe(corpus.figures)}, ${describe(figures)} in ${firstFile}`,
      );
    if (corpus.figures !== 'taken') return;
    const at = shard.result.scenarios.findIndex((info) => info.name === corpus.scenario);
    if (at === -1) throw new InputError({ file: shard.file, field: 'scenarios' }, `records no scenario "${corpus.scenario}", a corpus of shard.corpora.${c}`);
    places.add(at);
  });
  return places;
}

const describe = (figures: ShardCorpus['figures']): string => (figures === 'taken' ? "the steps of the shard's own logs" : 'the steps of every log');

function withoutOwn(info: ScenarioInfo): Omit<ScenarioInfo, (typeof OWN_FIGURES)[number]> {
  const { steps: _steps, skippedLines: _skipped, ...rest } = info;
  return rest;
}

function countOf(value: unknown, file: string, field: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw new InputError({ file, field }, `is ${JSON.stringify(value) ?? 'absent'}, not a count of the shard's own logs`);
}
