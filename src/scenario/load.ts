import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { InputError, UsageError } from '../errors.js';
import { parseInput, readDocument } from '../validate.js';
import { displayPath, refuseIrregularFile } from '../paths.js';
import { scenarioFileSchema, type ScenarioFile } from './schema.js';
import { importerNames } from '../transcript/importers/index.js';
import { adHocFolderScenario, adHocScenario, isLogFolder, isTranscriptFile, logFilesIn } from './ad-hoc.js';

/** A scenario file read and validated, not yet resolved against its transcript. */
export interface LoadedScenario {
  file: string;
  data: ScenarioFile;
  /** Built by `run` for a transcript named on the command line (scenario/ad-hoc.ts), not read from a file. */
  adHoc?: boolean;
  /** A folder of logs named on the command line: the logs found in it, any depth (scenario/ad-hoc.ts). */
  logFiles?: string[];
}

const SCENARIO_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * Expands files and folders into scenario files: folders are searched recursively for
 * `.yaml`, `.yml` and `.json`, in sorted order so a suite always runs in the same order. A folder
 * that holds no scenario file but agent logs (`isLogFolder`) stays itself: one scenario over its
 * logs (scenario/ad-hoc.ts).
 */
export async function expandScenarioPaths(paths: readonly string[], from?: string): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) throw new UsageError(`no such scenario file or folder: ${path}`);
    if (info.isDirectory()) out.push(...((await isLogFolder(path, from)) ? [resolve(path)] : await listScenarioFiles(path)));
    else if (info.isFile()) out.push(resolve(path));
    else await refuseIrregularFile(path, 'a scenario or transcript given to run');
  }
  return out;
}

async function listScenarioFiles(dir: string): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listScenarioFiles(path)));
    else if (SCENARIO_EXTENSIONS.has(extname(entry.name))) out.push(resolve(path));
  }
  return out;
}

/**
 * Reads and validates one scenario file; errors name the file, line and field. A transcript
 * given in its place becomes an ad-hoc scenario (scenario/ad-hoc.ts); `from` names its format.
 */
export async function loadScenarioFile(file: string, options: { from?: string } = {}): Promise<LoadedScenario> {
  if ((await stat(file).catch(() => undefined))?.isDirectory() === true) return adHocFolderScenario(file, options.from);
  if (await isTranscriptFile(file, options.from)) return adHocScenario(file, options.from);
  if (extname(file).toLowerCase() === '.jsonl') {
    throw new InputError(
      { file },
      `neither a scenario nor a transcript of a known format; name its format with --from (one of: ${importerNames().join(', ')})`,
    );
  }
  const shown = displayPath(file);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError({ file: shown }, `cannot read scenario: ${error.code ?? error.message}`);
  });
  return parseScenarioText(text, shown);
}

export function parseScenarioText(text: string, file: string): LoadedScenario {
  const doc = readDocument(text, file);
  const data = parseInput(scenarioFileSchema, doc.data, { file, lineOf: doc.lineOf });
  if (data.format !== undefined && !importerNames().includes(data.format)) {
    throw new InputError(
      { file, line: doc.lineOf(['format']), field: 'format' },
      `unknown transcript format "${data.format}"; known formats: ${importerNames().join(', ')}`,
    );
  }
  return { file: resolve(file), data };
}

/** Resolves a path written in a scenario relative to the scenario file's folder. */
export function resolveRelative(scenarioFile: string, path: string): string {
  return resolve(dirname(scenarioFile), path);
}

/** Characters that make a scenario's `transcript` a pattern rather than one file's name. */
const GLOB_CHARS = /[*?]/;

/**
 * The logs a scenario's `transcript` names when it is a folder (every log in it at any depth that
 * `import` reads, as for a folder named on the command line: ad-hoc.ts `logFilesIn`) or a pattern
 * with `*` / `?` in its last segment (`fixtures/real/mini-swe-agent/*.traj.json`: the matching
 * files of that one folder); sorted, so a run always replays them in the same order. Hidden files
 * and another tool's `*.expected.json` are left out. `undefined` when it names one file: the
 * scenario has a single log. `format` (the scenario's) makes every file of a folder a log.
 * @throws InputError on the scenario's `transcript` field when nothing matches.
 */
export async function listTranscriptLogs(path: string, scenarioFile: string, format?: string): Promise<string[] | undefined> {
  const last = basename(path);
  if (!GLOB_CHARS.test(last)) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isDirectory()) return undefined;
    const logs = await logFilesIn(path, format);
    if (logs.length === 0) throw new InputError({ file: scenarioFile, field: 'transcript' }, `no log that import reads in the folder ${path}`);
    return logs;
  }
  const folder = dirname(path);
  const matcher = patternToRegExp(last);
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const files = entries
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.') && matcher.test(entry.name) && !entry.name.endsWith('.expected.json'))
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => join(folder, name));
  if (files.length === 0) throw new InputError({ file: scenarioFile, field: 'transcript' }, `no transcript matches ${path}`);
  return files;
}

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${escaped}$`);
}
