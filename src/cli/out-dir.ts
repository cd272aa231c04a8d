import {
  accessSync,
  appendFileSync,
  closeSync,
  constants,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { displayPath } from '../paths.js';
import { refuseForeignOutDir } from './out-owner.js';
import { readRange } from './file-range.js';
import {
  JOURNAL_FILE,
  formatJournalHeader,
  formatJournalUnit,
  journalUnitIndex,
  parseJournal,
  parseJournalUnitLine,
  type Journal,
  type JournalHeader,
} from '../run/journal.js';
import type { UnitResult } from '../metrics/types.js';
import type { UnitDetails } from '../report/types.js';

/**
 * The output folder of a run: validated before anything runs, locked while the run writes to it
 * (so two runs cannot interleave their files), and journaled unit by unit (so an interrupted run
 * loses nothing). The lock and the journal are the only files a run keeps open; reports are
 * written atomically by report/write.ts.
 */
const LOCK_FILE = '.lock';

interface LockInfo {
  pid: number;
  host: string;
  started: string;
}

/**
 * An `--out` that exists but is not a folder, that is not ctxbench's to write (out-owner.ts), or
 * that cannot be written, cannot take the reports: exit 2 before any work.
 */
export function checkOutDir(out: string, flag = '--out'): void {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(out, { throwIfNoEntry: false });
  } catch (error) {
    throw new UsageError(
      `${flag} ${displayPath(out)} cannot be a folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} (a file stands in its path)`,
    );
  }
  if (info !== undefined && !info.isDirectory()) throw new UsageError(`${flag} ${displayPath(out)} is a file, not a folder: choose a folder for the reports`);
  const existing = info !== undefined ? out : nearestExisting(out);
  try {
    accessSync(existing, constants.W_OK);
  } catch (error) {
    throw notWritable(flag, out, existing, error);
  }
  refuseForeignOutDir(out, flag);
}

/** The closest folder of `path` (itself included) that exists. */
function nearestExisting(path: string): string {
  let at = resolve(path);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

function notWritable(flag: string, out: string, where: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'EROFS' ? 'a read-only file system' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : 'no file can be created there';
  const place = resolve(where) === resolve(out) ? '' : ` (in ${displayPath(where)})`;
  return new UsageError(`${flag} ${displayPath(out)} is not writable${place}: ${why}; choose another folder`);
}

/**
 * Creates `path` and its missing parents one level at a time. Node's recursive mkdir loops for
 * ever (at 100 % CPU, deaf to signals) where mkdir answers ENOENT under a folder that exists, as
 * everywhere under /proc: a folder that cannot be made here is a usage error at once.
 */
function makeFolder(path: string, flag = '--out'): void {
  const missing: string[] = [];
  for (let at = resolve(path); !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code === 'ENOTDIR') throw new UsageError(`${flag} ${displayPath(path)} cannot be a folder: ENOTDIR (a file stands in its path)`);
      throw notWritable(flag, path, dirname(dir), error);
    }
  }
}

/**
 * Takes `<out>/.lock` (creating `out`), or refuses with exit 2 naming the run that holds it. The
 * lock file is written whole under another name and hard-linked into place, which fails if a lock
 * exists: two runs can never both hold it. A lock left by a dead process of this host (a run
 * killed with SIGKILL) is taken over. Every command that writes into an `--out` takes it (run,
 * sweep, report), so none writes into a folder a running run holds.
 */
export function lockOutDir(out: string, flag = '--out'): { release: () => void } {
  makeFolder(out, flag);
  const path = join(out, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(mine)}\n`);
  } catch (error) {
    throw notWritable(flag, out, out, error);
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temporary, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 3) throw error;
        const holder = readLock(path);
        if (holder !== undefined && !isStale(holder)) throw heldBy(out, flag, holder);
        takeOver(path, holder);
      }
    }
  } finally {
    rmSync(temporary, { force: true });
  }
  return { release: () => releaseLock(path) };
}

/** Refuses (exit 2) an `out` a live run holds, before any work; the lock itself is taken to write. */
export function refuseHeldOutDir(out: string, flag = '--out'): void {
  const holder = readLock(join(out, LOCK_FILE));
  if (holder !== undefined && !isStale(holder)) throw heldBy(out, flag, holder);
}

function heldBy(out: string, flag: string, holder: LockInfo): UsageError {
  return new UsageError(
    `${displayPath(out)} is in use by another ctxbench run (pid ${holder.pid} on ${holder.host}, started ${holder.started}); wait for it, or choose another ${flag} (remove ${displayPath(join(out, LOCK_FILE))} if that run is gone)`,
  );
}

function readLock(path: string): LockInfo | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>;
    if (typeof data.pid === 'number' && typeof data.host === 'string' && typeof data.started === 'string') return data as LockInfo;
  } catch {
    // Unreadable or gone: handled as stale below (a lock is never written partially).
  }
  return undefined;
}

/** A lock of this host whose process is gone; another host's lock can never be judged stale. */
function isStale(holder: LockInfo): boolean {
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Moves a stale lock aside; if another run took it over meanwhile, puts theirs back. */
function takeOver(path: string, stale: LockInfo | undefined): void {
  const aside = `${path}.stale.${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  const moved = readLock(aside);
  if (stale !== undefined && moved !== undefined && moved.pid !== stale.pid) {
    try {
      linkSync(aside, path);
    } catch {
      // Someone else holds it now; the next attempt reads their lock.
    }
  }
  rmSync(aside, { force: true });
}

function releaseLock(path: string): void {
  const holder = readLock(path);
  if (holder?.pid === process.pid && holder.host === hostname()) rmSync(path, { force: true });
}

/** The journal of a run in `out`: appended one unit a line, synchronously, as units finish. */
export interface JournalWriter {
  append(index: number, result: UnitResult): void;
  /** Deletes it: the run finished and its reports are written. */
  remove(): void;
}

export function journalPath(out: string): string {
  return join(out, JOURNAL_FILE);
}

/** Starts a fresh journal (replacing one an earlier run left), or continues a resumed one. */
export function openJournal(out: string, header: Omit<JournalHeader, 'format' | 'version'> | undefined): JournalWriter {
  const path = journalPath(out);
  if (header !== undefined) writeFileSync(path, formatJournalHeader(header));
  return {
    append: (index, result) => appendFileSync(path, formatJournalUnit(index, result)),
    remove: () => rmSync(path, { force: true }),
  };
}

/** Reads the journal of `out` for `--resume`; none is a usage error (nothing to resume). */
export function readJournal(out: string): Journal {
  const path = journalPath(out);
  if (!existsSync(path)) throw new UsageError(`nothing to resume in ${displayPath(out)}: no ${JOURNAL_FILE} (the run finished, or never started there)`);
  const text = readFileSync(path, 'utf8');
  const journal = parseJournal(text, displayPath(path));
  // A unit line cut short by a kill is dropped from the file too, so appends start on a new line.
  if (journal.truncated) writeFileSync(path, text.slice(0, text.lastIndexOf('\n') + 1));
  return journal;
}

/**
 * The whole units journaled in `out`, in plan order (the order of a run's result), each read from
 * its line when asked: the reports of a run whose units came back summary-only (a corpus's) are
 * rendered from these, one unit in memory at a time. A unit journaled twice: its last line.
 */
export function journalDetails(out: string): UnitDetails {
  const path = journalPath(out);
  const lines = indexUnitLines(path);
  const order = [...lines.keys()].sort((a, b) => a - b).map((index) => lines.get(index) as Span);
  return {
    count: order.length,
    load(i) {
      const span = order[i];
      if (span === undefined) throw new RangeError(`no unit ${i} in ${displayPath(path)} (${order.length} journaled)`);
      return parseJournalUnitLine(readSpan(path, span));
    },
  };
}

/** Bytes `offset` to `offset + length` of a file. */
interface Span {
  offset: number;
  length: number;
}

/** Where each journaled unit's line is, by plan index (a torn last line left out). */
function indexUnitLines(path: string): Map<number, Span> {
  const lines = new Map<number, Span>();
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 22);
    let start = 0;
    for (let position = 0; ;) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) break;
      for (let at = chunk.indexOf(10); at !== -1 && at < read; at = chunk.indexOf(10, at + 1)) {
        const end = position + at;
        const head = Buffer.allocUnsafe(Math.min(32, end - start));
        readSync(fd, head, 0, head.length, start);
        const index = journalUnitIndex(head.toString('utf8'));
        if (index !== undefined) lines.set(index, { offset: start, length: end - start });
        start = end + 1;
      }
      position += read;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

function readSpan(path: string, span: Span): string {
  const fd = openSync(path, 'r');
  try {
    return readRange(fd, span.offset, span.length, () => new Error(`${displayPath(path)} ended inside a journaled unit`)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Units an unfinished run left journaled in `out` (0 when none), counted without reading the journal whole (a corpus's passes V8's longest string). */
export function countJournaled(out: string): number {
  const path = journalPath(out);
  return existsSync(path) ? indexUnitLines(path).size : 0;
}

/**
 * `-o <file>` of a command that writes one file (generate, import): a folder there, or a folder
 * that cannot be written, is a usage error before any work; its missing parents are created.
 */
export function checkOutFile(file: string, flag = '-o'): void {
  const info = statSync(file, { throwIfNoEntry: false });
  if (info?.isDirectory() === true)
    throw new UsageError(`${flag} ${displayPath(file)} is a folder: give the file to write (e.g. ${displayPath(join(file, 'session.ctx.jsonl'))})`);
  makeFolder(dirname(resolve(file)), flag);
  try {
    accessSync(info !== undefined ? file : dirname(resolve(file)), constants.W_OK);
  } catch (error) {
    throw notWritable(flag, file, info !== undefined ? file : dirname(resolve(file)), error);
  }
}
