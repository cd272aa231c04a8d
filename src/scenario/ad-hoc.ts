import { readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { detectFormat, getImporter, importerNames } from '../transcript/importers/index.js';
import { isCanonicalFile } from './load-transcript.js';
import { scenarioFileSchema } from './schema.js';
import type { LoadedScenario } from './load.js';

/** Extensions a scenario file has; a `.json` file may be either, and is told apart by its content. */
const SCENARIO_ONLY = new Set(['.yaml', '.yml']);

/**
 * Whether a file given where a scenario is expected is a transcript: a canonical `*.ctx.jsonl`
 * (or any file whose first line is a canonical session header), or a log an importer recognises
 * (the same detection as `ctxbench import`), or any file when the format is named (`from`).
 * A `.json` file whose top level is an object with a `transcript` field stays a scenario.
 */
export async function isTranscriptFile(file: string, from?: string): Promise<boolean> {
  if (SCENARIO_ONLY.has(extname(file).toLowerCase())) return false;
  if (file.endsWith('.ctx.jsonl')) return true;
  if (extname(file).toLowerCase() === '.json' && (await looksLikeScenarioJson(file))) return false;
  if (from !== undefined) return true;
  if (await isCanonicalFile(file)) return true;
  return (await detectFormat(file).catch(() => undefined)) !== undefined;
}

/**
 * The scenario `run` builds for a transcript named on the command line: the transcript, its own
 * probes or (when it has none) probes generated from it, every registered strategy, and every
 * other field left to its default (provider from the dialect, window from the header). `from`
 * names the log's format when its content cannot tell.
 */
export async function adHocScenario(file: string, from?: string): Promise<LoadedScenario> {
  const absolute = resolve(file);
  if (from !== undefined && !importerNames().includes(from)) getImporter(from);
  const hasProbes = await holdsProbes(absolute);
  const data = scenarioFileSchema.parse({
    name: scenarioNameOf(absolute),
    transcript: basename(absolute),
    ...(hasProbes ? {} : { probes: 'generate' }),
    ...(from !== undefined ? { format: from } : {}),
  });
  return { file: absolute, data, adHoc: true };
}

/** `fixtures/real/claude-code/hello world.jsonl` → `hello-world`: a name the scenario schema accepts. */
function scenarioNameOf(file: string): string {
  const stem = basename(file).replace(/(\.ctx\.jsonl|\.traj\.json|\.jsonl|\.json|\.txt)$/i, '');
  const name = stem.replace(/[^a-z0-9._-]+/gi, '-').replace(/^[^a-z0-9]+/i, '');
  return name === '' ? 'transcript' : name;
}

/** Probe events are canonical-only: an agent's own log never holds one. */
async function holdsProbes(file: string): Promise<boolean> {
  if (!file.endsWith('.ctx.jsonl') && !(await isCanonicalFile(file))) return false;
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError({ file }, `cannot read the transcript: ${error.code ?? error.message}`);
  });
  return /"type"\s*:\s*"probe"/.test(text);
}

async function looksLikeScenarioJson(file: string): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => '');
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'transcript' in value && 'name' in value;
  } catch {
    return false;
  }
}
