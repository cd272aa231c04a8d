import { appendFileSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { displayPath } from '../paths.js';
import { JOURNAL_FILE, formatJournalHeader, formatJournalUnit, parseJournal, type Journal, type JournalHeader } from '../engine/journal.js';
import type { UnitResult } from '../metrics/types.js';

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

/** An `--out` that exists but is not a folder cannot take the reports: exit 2 before any work. */
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
}

/**
 * Takes `<out>/.lock` (creating `out`), or refuses with exit 2 naming the run that holds it. The
 * lock file is written whole under another name and hard-linked into place, which fails if a lock
 * exists: two runs can never both hold it. A lock left by a dead process of this host (a run
 * killed with SIGKILL) is taken over.
 */
export function lockOutDir(out: string): { release: () => void } {
  try {
    mkdirSync(out, { recursive: true });
  } catch (error) {
    throw new UsageError(`cannot create the output folder ${displayPath(out)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const path = join(out, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(mine)}\n`);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temporary, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 3) throw error;
        const holder = readLock(path);
        if (holder !== undefined && !isStale(holder)) {
          throw new UsageError(
            `${displayPath(out)} is in use by another ctxbench run (pid ${holder.pid} on ${holder.host}, started ${holder.started}); wait for it, or choose another --out (remove ${displayPath(path)} if that run is gone)`,
          );
        }
        takeOver(path, holder);
      }
    }
  } finally {
    rmSync(temporary, { force: true });
  }
  return { release: () => releaseLock(path) };
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

/** Units an unfinished run left journaled in `out` (0 when none). */
export function countJournaled(out: string): number {
  const path = journalPath(out);
  if (!existsSync(path)) return 0;
  return Math.max(
    0,
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '').length - 1,
  );
}
