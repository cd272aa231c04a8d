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
 * What a result records of a scenario: its settings and its transcripts' size and digest.
 * `logDigests` is handed each transcript's own digest (what a shard of a corpus records of each log).
 */
export function scenarioInfo(scenario: Scenario, transcripts: readonly Transcript[], logDigests?: (digests: string[]) => void): ScenarioInfo {
  const steps = transcripts.reduce((n, t) => n + countSteps(t), 0);
  return {
    name: scenario.name,
    file: artifactPath(scenario.file, dirname(scenario.file)),
    ...(scenario.description !== undefined ? { description: scenario.description } : {}),
    ...(scenario.stress === true ? { stress: true as const } : {}),
    transcript:
      scenario.transcript.kind === 'file'
        ? artifactPath(scenario.transcript.path, dirname(scenario.file))
        : `synthetic:${JSON.stringify(scenario.transcript.options)}`,
    ...(scenario.transcript.kind === 'file' ? { transcriptSha256: transcriptDigest(transcripts, logDigests) } : {}),
    provider: scenario.provider,
    model: scenario.model,
    window: scenario.window,
    promptCache: describeCacheRules(cacheRulesForModel(scenario.model, scenario.promptCache)),
    ...scenario.quota,
    steps,
    seed: scenario.seed,
    skippedLines: transcripts.reduce((n, t) => n + t.skipped.length, 0),
    ...(transcripts.length > 1 ? { logs: transcripts.length } : {}),
    ...(scenario.contextRot !== undefined
      ? { contextRot: { name: scenario.contextRot.name, points: scenario.contextRot.points.map(([t, p]) => [t, p]) } }
      : {}),
  };
}

/** A transcript's steps: its assistant messages. */
export function countSteps(transcript: Transcript): number {
  return transcript.events.filter((e) => e.type === 'message' && e.role === 'assistant').length;
}
