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
 * scenario × strategy running, elapsed, ETA). Otherwise (CI logs): a plain line at most every
 * ~5 s and one per finished scenario. With `quiet`: nothing.
 */
export function createProgress(options: ProgressOptions): Progress {
  if (options.quiet) return { onUnit: () => undefined, done: () => undefined };
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  return stream.isTTY === true ? createBar(stream, now, options.tickMs ?? 1000) : createLines(stream, now);
}

interface Tally {
  started: number;
  done: number;
  total: number;
  current?: UnitEvent;
}

function createBar(stream: ProgressStream, now: () => number, tickMs: number): Progress {
  const tally: Tally = { started: now(), done: 0, total: 0 };
  let shown = false;
  const draw = (): void => {
    if (tally.current === undefined) return;
    const line = fitWidth(describeBar(tally, now()), (stream.columns ?? 80) - 1);
    stream.write(`\r\x1b[2K${line}`);
    shown = true;
  };
  const timer = tickMs > 0 ? setInterval(draw, tickMs) : undefined;
  timer?.unref();
  return {
    onUnit(event) {
      count(tally, event);
      draw();
    },
    done() {
      if (timer !== undefined) clearInterval(timer);
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}

function createLines(stream: ProgressStream, now: () => number): Progress {
  const tally: Tally = { started: now(), done: 0, total: 0 };
  let lastLine = tally.started;
  let scenario: { name: string; started: number; units: number } | undefined;
  const finishScenario = (): void => {
    if (scenario === undefined) return;
    const seconds = (now() - scenario.started) / 1000;
    stream.write(`ctxbench: scenario ${scenario.name} done (${plural(scenario.units, 'strategy', 'strategies')}, ${formatElapsed(seconds)}) · ${tally.done}/${tally.total} units\n`);
    lastLine = now();
  };
  return {
    onUnit(event) {
      if (event.phase === 'start' && event.scenario !== scenario?.name) {
        finishScenario();
        scenario = { name: event.scenario, started: now(), units: 0 };
      }
      count(tally, event);
      if (event.phase === 'end' && scenario !== undefined) scenario.units += 1;
      if (event.phase === 'end' && now() - lastLine >= LINE_INTERVAL_MS) {
        stream.write(`ctxbench: ${describeLine(tally, now())}\n`);
        lastLine = now();
      }
    },
    done() {
      finishScenario();
      scenario = undefined;
    },
  };
}

function count(tally: Tally, event: UnitEvent): void {
  tally.total = event.total;
  tally.current = event;
  if (event.phase === 'end') tally.done = event.index + 1;
}

/** `[██████░░░░] 12/40 units · overflow-coding × rolling-window · 12.3 s · ETA 31 s` */
function describeBar(tally: Tally, at: number): string {
  const filled = tally.total === 0 ? 0 : Math.round((tally.done / tally.total) * BAR_WIDTH);
  const bar = `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]`;
  return `${bar} ${describeLine(tally, at)}`;
}

/** `12/40 units · overflow-coding × rolling-window · 12.3 s · ETA 31 s` */
function describeLine(tally: Tally, at: number): string {
  const elapsed = (at - tally.started) / 1000;
  const parts = [`${tally.done}/${tally.total} units`];
  if (tally.current !== undefined) parts.push(`${tally.current.scenario} × ${tally.current.strategy}`);
  parts.push(formatElapsed(elapsed));
  if (tally.done > 0 && tally.done < tally.total) parts.push(`ETA ${formatElapsed((elapsed / tally.done) * (tally.total - tally.done))}`);
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
