import { readdir, readFile } from 'node:fs/promises';
import { readHead } from '../transcript/importers/shared/lines.js';
import { basename, extname, join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { detectFormat, getImporter, importerNames } from '../transcript/importers/index.js';
import { isCanonicalFile, isCanonicalHead } from './load-transcript.js';
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
  // One read of its head for both questions: listing a folder of logs asks them of every file.
  const head = await readHead(file).catch(() => undefined);
  if (head === undefined) return false;
  if (isCanonicalHead(head)) return true;
  return (await detectFormat(file, head).catch(() => undefined)) !== undefined;
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

/** The JSON string "transcript", each letter as it is or escaped (`\u0074`); the case ignored, which only lets more texts be parsed. */
const TRANSCRIPT_KEY = new RegExp(`"${[...'transcript'].map((c) => `(?:${c}|\\\\u00${c.charCodeAt(0).toString(16)})`).join('')}"`, 'i');

async function looksLikeScenarioJson(file: string): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => '');
  // A text with no "transcript" (its letters as they are or as \u escapes) has no such key: not worth parsing a log's megabytes for.
  if (!TRANSCRIPT_KEY.test(text)) return false;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'transcript' in value && 'name' in value;
  } catch {
    return false;
  }
}

/** Scenario files, told by their name: a folder holding one is a suite, not a folder of logs. */
const SCENARIO_NAME = /\.(ya?ml)$/i;

/**
 * Whether a folder named on the command line is a folder of one's own logs: it holds no scenario
 * file (`.yaml`, `.yml`, a scenario `.json`) at any depth, and at least one log `import` reads.
 */
export async function isLogFolder(dir: string, from?: string): Promise<boolean> {
  const files = await listFiles(dir);
  if (files.some((file) => SCENARIO_NAME.test(file))) return false;
  const scenarioJson = await Promise.all(files.filter((f) => extname(f).toLowerCase() === '.json').map(looksLikeScenarioJson));
  if (scenarioJson.some(Boolean)) return false;
  for (const file of files) if (await isTranscriptFile(file, from)) return true;
  return false;
}

/**
 * The scenario `run` builds for a folder of logs (`~/.claude/projects/<project>/`,
 * `~/.codex/sessions/`): every log in it at any depth, in any format `import` reads, replayed as
 * one corpus; settings from the first log (model, window, prices), probes generated for each.
 */
export async function adHocFolderScenario(dir: string, from?: string): Promise<LoadedScenario> {
  const absolute = resolve(dir);
  const logFiles = await logFilesIn(absolute, from);
  if (logFiles.length === 0) throw new InputError({ file: absolute }, 'no log import reads in this folder');
  const data = scenarioFileSchema.parse({
    name: scenarioNameOf(absolute),
    transcript: basename(absolute),
    probes: 'generate',
    ...(from !== undefined ? { format: from } : {}),
  });
  return { file: absolute, data, adHoc: true, logFiles };
}

/**
 * The logs under `dir` at any depth that `import` reads (or, with `from`, every file), sorted:
 * what a folder names, on the command line or as a scenario's `transcript`.
 */
export async function logFilesIn(dir: string, from?: string): Promise<string[]> {
  const logs: string[] = [];
  for (const file of await listFiles(dir)) if (await isTranscriptFile(file, from)) logs.push(file);
  return logs;
}

/**
 * Every file under `dir`, sorted, hidden ones and another tool's `*.expected.json` left out. A
 * session's own folder beside its log (`<id>/` next to `<id>.jsonl`: Claude Code's subagents)
 * is not walked: its logs belong to that session (`sidechains: include`).
 */
async function listFiles(dir: string): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true }).catch(() => [])).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !names.has(`${entry.name}.jsonl`)) out.push(...(await listFiles(path)));
    else if (entry.isFile() && !entry.name.endsWith('.expected.json')) out.push(path);
  }
  return out;
}
