import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, parse, relative, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { displayPath } from '../paths.js';

/**
 * Which folders ctxbench writes its reports into, and which of their files are its own. A folder
 * ctxbench wrote holds `.ctxbench-out`, listing the files the last command wrote there: the next
 * one may write there again, and removes the files of that list it does not write itself (a run
 * with `--reports json` leaves no earlier `index.html` beside its result). Nothing else in the
 * folder is ever touched.
 */
export const OUT_MARKER = '.ctxbench-out';

/**
 * Every file a ctxbench command may leave in an output folder (reports, sweep files, the lock and
 * the journal of a run under way). A folder holding nothing else was written by a ctxbench from
 * before the marker (the default `reports/latest/` of every existing user): it is adopted, its
 * files taken as ctxbench's own. One file of any other name and the folder is the user's.
 */
export const KNOWN_OUT_FILES: readonly string[] = [
  'result.json',
  'index.html',
  'summary.csv',
  'steps.csv',
  'steps.parquet',
  'events.csv',
  'probes.csv',
  'needed.csv',
  'summary.md',
  'junit.xml',
  'sweep.json',
  'sweep.csv',
  'sweep.html',
  '.lock',
  '.journal.jsonl',
  OUT_MARKER,
];

interface Marker {
  tool: 'ctxbench';
  files: string[];
}

/**
 * Refuses (exit 2, before any work) an output folder that is not ctxbench's to write: a file
 * system root or the home folder (whatever they hold), or a folder holding files ctxbench did
 * not write (no marker, and a name it never writes). A missing or empty folder is fine.
 */
export function refuseForeignOutDir(out: string, flag = '--out'): void {
  const path = resolve(out);
  if (parse(path).root === path || path === resolve(homedir()))
    throw new UsageError(
      `${flag} ${displayPath(out)} is ${parse(path).root === path ? 'the root of a file system' : 'your home folder'}: choose a folder for the reports`,
    );
  const entries = listFolder(path);
  if (entries === undefined || entries.length === 0 || entries.includes(OUT_MARKER)) return;
  const foreign = entries.filter((name) => !KNOWN_OUT_FILES.includes(name) || !isFile(join(path, name))).sort();
  if (foreign.length === 0) return;
  const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? ` and ${foreign.length - 3} more` : '');
  throw new UsageError(
    `${flag} ${displayPath(out)} holds files ctxbench did not write (${shown}): choose an empty folder, or one ctxbench wrote (it marks those with ${OUT_MARKER})`,
  );
}

/**
 * After a command wrote `written` into `out`: removes the files the previous command listed in
 * the marker (or, in an adopted folder, the known report files) that this one did not write,
 * unless `prune` is false (`report` adds renderings beside the result it reads), and lists what
 * is there now in the marker. Returns the files removed, relative to `out`.
 */
export function markOutDir(out: string, written: readonly string[], options: { prune: boolean }): string[] {
  const path = resolve(out);
  const now = written.map((file) => relative(path, resolve(file)));
  const previous = previousFiles(path);
  const stale = previous.filter((file) => !now.includes(file));
  if (options.prune) for (const file of stale) rmSync(join(path, file), { force: true });
  const files = [...new Set([...now, ...(options.prune ? [] : stale)])].sort();
  writeFileSync(join(path, OUT_MARKER), `${JSON.stringify({ tool: 'ctxbench', files } satisfies Marker)}\n`);
  return options.prune ? stale : [];
}

/** The report files a previous command left in `out`: its marker's list, or the known files of an adopted folder. */
function previousFiles(out: string): string[] {
  const marker = readMarker(join(out, OUT_MARKER));
  if (marker !== undefined) return marker.files.filter((file) => isOwnName(out, file));
  const run = new Set(['.lock', '.journal.jsonl', OUT_MARKER]);
  return (listFolder(out) ?? []).filter((name) => KNOWN_OUT_FILES.includes(name) && !run.has(name) && isFile(join(out, name)));
}

/** A marker's file name that is a plain file inside `out` (a hand-edited marker cannot name `../x`). */
function isOwnName(out: string, file: string): boolean {
  const path = resolve(out, file);
  return dirname(path) === out && basename(path) === file && file !== OUT_MARKER;
}

function readMarker(path: string): Marker | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<Marker>;
    if (data.tool === 'ctxbench' && Array.isArray(data.files) && data.files.every((f) => typeof f === 'string')) return data as Marker;
  } catch {
    // Missing or unreadable: a folder of before the marker, or one a user emptied.
  }
  return undefined;
}

function listFolder(path: string): string[] | undefined {
  try {
    return readdirSync(path);
  } catch {
    return undefined; // missing (created by the command), or not a folder (checkOutDir says so)
  }
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}
