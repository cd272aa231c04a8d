import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import type { ScenarioInfo } from '../metrics/types.js';
import type { Scenario } from '../scenario/types.js';
import type { Transcript } from '../transcript/types.js';
import { artifactPath } from '../paths.js';
import { cacheRulesForModel, describeCacheRules } from '../cache/families.js';

/**
 * The SHA-256 of transcripts as read: each log's header and events, one JSON line each, in order;
 * with `each`, each log's own as well, from the same lines.
 */
function transcriptDigest(transcripts: readonly Transcript[], each?: (digests: string[]) => void): string {
  const hash = createHash('sha256');
  const digests: string[] = [];
  for (const transcript of transcripts) {
    const own = each !== undefined ? createHash('sha256') : undefined;
    const update = (line: string): void => {
      hash.update(line);
      own?.update(line);
    };
    update(`${JSON.stringify(transcript.header)}\n`);
    for (const event of transcript.events) update(`${JSON.stringify(event)}\n`);
    if (own !== undefined) digests.push(own.digest('hex'));
  }
  each?.(digests);
  return hash.digest('hex');
}

/**
 * The digest of a corpus of logs one file each (run/corpus-files.ts): the SHA-256 of its logs'
 * SHA-256s (each of the file's bytes), one hex line each, in order. Every shard of a run reads
 * every log's bytes, not every log, so every shard's result holds it, and merge checks each log.
 */
export function corpusDigest(files: readonly { sha256: string }[]): string {
  const hash = createHash('sha256');
  for (const { sha256 } of files) hash.update(`${sha256}\n`);
  return hash.digest('hex');
}

/** What `scenarioInfo` records of a corpus of logs one file each, beyond the transcripts it read: every log's file digest, and how many logs (all, whatever was read). */
export interface CorpusOfFiles {
  files: readonly { sha256: string }[];
}

/**
 * What a result records of a scenario: its settings and its transcripts' size and digest. A
 * corpus of logs one file each (`corpus`) has `corpusDigest` for its digest (`logFilesSha256`) and its every log
 * counted, while `steps` and `skippedLines` count the transcripts given (a shard's own: its
 * result says so, `ShardCorpus.figures`). `logDigests` is handed each transcript's own digest
 * (what a shard of another corpus records of each log).
 */
export function scenarioInfo(
  scenario: Scenario,
  transcripts: readonly Transcript[],
  options: { corpus?: CorpusOfFiles | undefined; logDigests?: ((digests: string[]) => void) | undefined } = {},
): ScenarioInfo {
  const { corpus, logDigests } = options;
  const steps = transcripts.reduce((n, t) => n + countSteps(t), 0);
  const logs = corpus?.files.length ?? transcripts.length;
  return {
    name: scenario.name,
    file: artifactPath(scenario.file, dirname(scenario.file)),
    ...(scenario.description !== undefined ? { description: scenario.description } : {}),
    ...(scenario.stress === true ? { stress: true as const } : {}),
    transcript:
      scenario.transcript.kind === 'file'
        ? artifactPath(scenario.transcript.path, dirname(scenario.file))
        : `synthetic:${JSON.stringify(scenario.transcript.options)}`,
    ...(scenario.transcript.kind !== 'file'
      ? {}
      : corpus !== undefined
        ? { logFilesSha256: corpusDigest(corpus.files) }
        : { transcriptSha256: transcriptDigest(transcripts, logDigests) }),
    provider: scenario.provider,
    model: scenario.model,
    window: scenario.window,
    promptCache: describeCacheRules(cacheRulesForModel(scenario.model, scenario.promptCache)),
    ...scenario.quota,
    steps,
    seed: scenario.seed,
    skippedLines: transcripts.reduce((n, t) => n + t.skipped.length, 0),
    ...(logs > 1 ? { logs } : {}),
    ...(scenario.contextRot !== undefined
      ? { contextRot: { name: scenario.contextRot.name, points: scenario.contextRot.points.map(([t, p]) => [t, p]) } }
      : {}),
  };
}

/** A transcript's steps: its assistant messages. */
export function countSteps(transcript: Transcript): number {
  return transcript.events.filter((e) => e.type === 'message' && e.role === 'assistant').length;
}
