import type { RunOptions } from '../run/run-suite.js';
import { escapeControl } from '../control-chars.js';

type UnitEvent = Parameters<NonNullable<RunOptions['onUnit']>>[0];

/** Where progress goes: stderr, or a stand-in in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): boolean;
}

export interface ProgressOptions {
  quiet: boolean;
  /** Default: process.stderr. */
  stream?: ProgressStream;
  /** Milliseconds from any fixed origin. Default: performance.now. */
  now?: () => number;
  /** Redraw the terminal bar this often so elapsed time moves during a long unit; 0 = never. */
  tickMs?: number;
}

export interface Progress {
  onUnit: NonNullable<RunOptions['onUnit']>;
  /** Ends the display: clears the bar, or prints the last scenario's line. */
  done(): void;
}

/** Plain-text mode prints at most one periodic line this often (plus one per finished scenario). */
const LINE_INTERVAL_MS = 5000;
/**
 * The ETA is shown once this share of the units run now has finished (and at least two): units
 * differ in length by a hundred times (`full` on a long log against a short one), so the first
 * to finish says little about the rest.
 */
const ETA_AFTER_SHARE = 0.1;
const BAR_WIDTH = 24;

/**
 * Progress of a run on stderr. On a terminal: a bar rewritten in place (units done of total, a
 * corpus's logs done while its units run, the scenario × strategy last started, elapsed, ETA).
 * Otherwise (CI logs): a plain line at most every ~5 s and one per finished scenario. With `quiet`: nothing. Units may run on a worker pool, so
 * events can interleave and arrive out of order: counts come from the engine's own tallies in each
 * event (a scenario is done when all its units are, once), never from indices; a `--resume` counts
 * on from the units its journal held.
 */
export function createProgress(options: ProgressOptions): Progress {
  if (options.quiet) return { onUnit: () => undefined, done: () => undefined };
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  return stream.isTTY === true ? createBar(stream, now, options.tickMs ?? 1000) : createLines(stream, now);
}

interface ScenarioTally {
  name: string;
  ended: number;
  firstStartMs: number;
}

interface Tally {
  startedMs: number;
  done: number;
  /** Units taken from a journal (`--resume`): done, but not by this process. */
  resumed: number;
  total: number;
  current?: UnitEvent;
  /** The logs of the corpus running now through every unit of it, while some are left. */
  logs?: { done: number; total: number };
  /** Scenarios whose first unit started, until reported finished. */
  open: ScenarioTally[];
  /** Scenarios finished, to be reported (plain-text mode). */
  finished: ScenarioTally[];
}

function newTally(at: number): Tally {
  return { startedMs: at, done: 0, resumed: 0, total: 0, open: [], finished: [] };
}

function createBar(stream: ProgressStream, now: () => number, tickMs: number): Progress {
  const tally = newTally(now());
  let shown = false;
  const draw = (): void => {
    if (tally.current === undefined) return;
    // A pseudo-terminal may report 0 columns: assume the classic 80 then.
    const columns = stream.columns !== undefined && stream.columns >= 20 ? stream.columns : 80;
    const line = fitWidth(escapeControl(describeBar(tally, now()), ''), columns - 1);
    stream.write(`\r\x1b[2K${line}`);
    shown = true;
  };
  const timer = tickMs > 0 ? setInterval(draw, tickMs) : undefined;
  timer?.unref();
  return {
    onUnit(event) {
      count(tally, event, now());
      draw();
    },
    done() {
      if (timer !== undefined) clearInterval(timer);
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}

function createLines(stream: ProgressStream, now: () => number): Progress {
  const tally = newTally(now());
  let lastLine = tally.startedMs;
  const report = (): void => {
    for (const scenario of tally.finished.splice(0)) {
      const seconds = (now() - scenario.firstStartMs) / 1000;
      stream.write(
        `ctxbench: scenario ${escapeControl(scenario.name, '')} done (${plural(scenario.ended, 'strategy', 'strategies')}, ${formatElapsed(seconds)}) · ${tally.done}/${tally.total} units\n`,
      );
      lastLine = now();
    }
  };
  return {
    onUnit(event) {
      count(tally, event, now());
      report();
      if (event.phase !== 'start' && now() - lastLine >= LINE_INTERVAL_MS) {
        stream.write(`ctxbench: ${escapeControl(describeLine(tally, now()), '')}\n`);
        lastLine = now();
      }
    },
    done() {
      report();
    },
  };
}

function count(tally: Tally, event: UnitEvent, at: number): void {
  tally.total = event.total;
  tally.resumed = event.resumed;
  tally.done = Math.max(tally.done, event.done);
  let scenario = tally.open.find((s) => s.name === event.scenario);
  if (scenario === undefined) {
    scenario = { name: event.scenario, ended: 0, firstStartMs: at };
    tally.open.push(scenario);
  }
  if (event.phase === 'start') {
    tally.current = event;
    return;
  }
  // A corpus's units end together after its last log: until then its logs are what moves.
  if (event.phase === 'log') {
    const logs = event.logs;
    tally.logs = logs !== undefined && logs.done < logs.total ? logs : undefined;
    return;
  }
  scenario.ended += 1;
  tally.current ??= event;
  if (event.scenarioDone >= event.scenarioTotal) {
    tally.open = tally.open.filter((s) => s !== scenario);
    tally.finished.push(scenario);
  }
}

/** `[██████░░░░] 12/40 units · 12.3 s · ETA 31 s · overflow-coding × rolling-window` */
function describeBar(tally: Tally, at: number): string {
  const filled = tally.total === 0 ? 0 : Math.round((tally.done / tally.total) * BAR_WIDTH);
  const bar = `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]`;
  return `${bar} ${describeLine(tally, at)}`;
}

/**
 * `12/40 units · 12.3 s · ETA 31 s · overflow-coding × rolling-window`: names last, so that a
 * narrow terminal cuts them rather than the figures.
 */
function describeLine(tally: Tally, at: number): string {
  const elapsed = (at - tally.startedMs) / 1000;
  const parts = [`${tally.done}/${tally.total} units${tally.resumed > 0 ? ` (${tally.resumed} resumed)` : ''}`, formatElapsed(elapsed)];
  if (tally.logs !== undefined) parts.splice(1, 0, `${tally.logs.done}/${tally.logs.total} logs`);
  const ranHere = tally.done - tally.resumed;
  const toRun = tally.total - tally.resumed;
  if (ranHere >= Math.max(2, Math.ceil(toRun * ETA_AFTER_SHARE)) && tally.done < tally.total) {
    parts.push(`ETA ${formatElapsed((elapsed / ranHere) * (tally.total - tally.done))}`);
  }
  if (tally.current !== undefined) parts.push(`${tally.current.scenario} × ${tally.current.strategy}`);
  return parts.join(' · ');
}

/** 4.2 s · 2m 05s · 1h 02m */
export function formatElapsed(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m ${String(s).padStart(2, '0')}s`;
}

function fitWidth(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
