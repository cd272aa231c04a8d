import type { RunOptions } from '../engine/run-suite.js';

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
const BAR_WIDTH = 24;

/**
 * Progress of a run on stderr. On a terminal: a bar rewritten in place (units done of total, the
 * scenario × strategy last started, elapsed, ETA). Otherwise (CI logs): a plain line at most every
 * ~5 s and one per finished scenario. With `quiet`: nothing. Units may run on a worker pool, so
 * events can interleave and arrive out of order: counts come from events, never from indices.
 */
export function createProgress(options: ProgressOptions): Progress {
  if (options.quiet) return { onUnit: () => undefined, done: () => undefined };
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  return stream.isTTY === true ? createBar(stream, now, options.tickMs ?? 1000) : createLines(stream, now);
}

interface ScenarioTally {
  name: string;
  started: number;
  ended: number;
  firstStartMs: number;
}

interface Tally {
  startedMs: number;
  done: number;
  total: number;
  current?: UnitEvent;
  /** Scenarios in the order their first unit started, until reported finished. */
  open: ScenarioTally[];
}

function createBar(stream: ProgressStream, now: () => number, tickMs: number): Progress {
  const tally: Tally = { startedMs: now(), done: 0, total: 0, open: [] };
  let shown = false;
  const draw = (): void => {
    if (tally.current === undefined) return;
    // A pseudo-terminal may report 0 columns: assume the classic 80 then.
    const columns = stream.columns !== undefined && stream.columns >= 20 ? stream.columns : 80;
    const line = fitWidth(describeBar(tally, now()), columns - 1);
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
  const tally: Tally = { startedMs: now(), done: 0, total: 0, open: [] };
  let lastLine = tally.startedMs;
  const report = (scenarios: readonly ScenarioTally[]): void => {
    for (const scenario of scenarios) {
      const seconds = (now() - scenario.firstStartMs) / 1000;
      stream.write(
        `ctxbench: scenario ${scenario.name} done (${plural(scenario.ended, 'strategy', 'strategies')}, ${formatElapsed(seconds)}) · ${tally.done}/${tally.total} units\n`,
      );
      lastLine = now();
    }
  };
  return {
    onUnit(event) {
      count(tally, event, now());
      report(takeFinished(tally, false));
      if (event.phase === 'end' && now() - lastLine >= LINE_INTERVAL_MS) {
        stream.write(`ctxbench: ${describeLine(tally, now())}\n`);
        lastLine = now();
      }
    },
    done() {
      report(takeFinished(tally, true));
    },
  };
}

function count(tally: Tally, event: UnitEvent, at: number): void {
  tally.total = event.total;
  let scenario = tally.open.find((s) => s.name === event.scenario);
  if (scenario === undefined) {
    scenario = { name: event.scenario, started: 0, ended: 0, firstStartMs: at };
    tally.open.push(scenario);
  }
  if (event.phase === 'start') {
    scenario.started += 1;
    tally.current = event;
  } else {
    scenario.ended += 1;
    tally.done += 1;
    tally.current ??= event;
  }
}

/**
 * Removes and returns the scenarios known to be finished: every unit started has ended and a
 * later scenario has started (units are planned scenario by scenario), or the run is over.
 */
function takeFinished(tally: Tally, runOver: boolean): ScenarioTally[] {
  const finished = tally.open.filter((scenario, i) => scenario.started === scenario.ended && (runOver || i < tally.open.length - 1));
  tally.open = tally.open.filter((scenario) => !finished.includes(scenario));
  return finished;
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
  const parts = [`${tally.done}/${tally.total} units`, formatElapsed(elapsed)];
  if (tally.done > 0 && tally.done < tally.total) parts.push(`ETA ${formatElapsed((elapsed / tally.done) * (tally.total - tally.done))}`);
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
