import type { RetrySleep } from '../quota/types.js';

export interface LiveSleepOptions {
  /**
   * Up to this fraction of the wait is added at random (default 0.1), so that the units of a run
   * that hit the same limit do not retry in lockstep. Only ever added: a provider's retry hint is
   * a minimum.
   */
  jitter?: number;
  /** Uniform in [0, 1) (default Math.random); tests inject a seeded one. */
  random?: () => number;
  /** A monotonic clock in ms (default performance.now). */
  now?: () => number;
  /** The run's stop signal: a wait under way ends at once when it aborts. */
  signal?: AbortSignal;
}

/**
 * The real sleep of live runs (DESIGN.md §7 keeps mocked waits virtual): it waits the delay plus
 * jitter and returns the time that passed, measured, which is what the run reports as waited.
 */
export function createLiveSleep(options: LiveSleepOptions = {}): RetrySleep {
  const jitter = options.jitter ?? 0.1;
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => performance.now());
  return async (delayMs) => {
    const target = Math.max(0, delayMs) * (1 + jitter * random());
    const started = now();
    const { signal } = options;
    if (signal?.aborted !== true) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, Math.ceil(target));
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    return Math.round(now() - started);
  };
}
