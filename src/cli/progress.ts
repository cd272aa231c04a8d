import type { RunOptions } from '../engine/run-suite.js';

/**
 * Progress on stderr: a one-line status rewritten in place on a terminal, nothing otherwise
 * (CI logs stay clean), nothing at all with --quiet.
 */
export function createProgress(options: { quiet: boolean }): { onUnit: NonNullable<RunOptions['onUnit']>; done(): void } {
  const tty = process.stderr.isTTY === true && !options.quiet;
  const started = performance.now();
  let shown = false;
  return {
    onUnit(event) {
      if (!tty || event.phase !== 'start') return;
      const elapsed = (performance.now() - started) / 1000;
      const eta = event.index > 0 ? (elapsed / event.index) * (event.total - event.index) : undefined;
      const line = `[${event.index + 1}/${event.total}] ${event.scenario} × ${event.strategy} · ${elapsed.toFixed(1)} s${eta !== undefined ? ` · ETA ${eta.toFixed(0)} s` : ''}`;
      process.stderr.write(`\r\x1b[2K${line}`);
      shown = true;
    },
    done() {
      if (shown) process.stderr.write('\r\x1b[2K');
    },
  };
}
