import type { Clock } from './types.js';

/**
 * A virtual clock (DESIGN.md §7): waiting is an `advance`, which costs no wall time. Time only
 * moves forward, so quota windows can prune their expired records for good.
 */
export function createClock(startMs = 0): Clock {
  assertTime(startMs, 'startMs');
  let nowMs = startMs;
  return {
    now: () => nowMs,
    advance(ms) {
      // A negative or NaN step is a bug in the caller; letting it through would break every window.
      assertTime(ms, 'advance(ms)');
      nowMs += ms;
    },
    advanceTo(ms) {
      assertTime(ms, 'advanceTo(ms)');
      if (ms > nowMs) nowMs = ms;
    },
  };
}

function assertTime(ms: number, what: string): void {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`${what} must be a finite number >= 0, got ${ms}`);
}
