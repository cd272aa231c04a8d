import { createRandom, deriveSeed } from '../random.js';
import type { PacingModel } from './types.js';

/** Pacing when a scenario sets none: a coding agent that thinks ~4 s and streams ~65 tokens/s. */
export const DEFAULT_PACING: PacingModel = {
  thinkMs: 4000,
  msPerOutputToken: 15,
  baseLatencyMs: 600,
  jitter: 0.3,
};

export interface StepTimerOptions {
  pacing: PacingModel;
  seed: number;
  /** Per step, ms since the first recorded `at` (from `parseAtTimes`); gaps use the pacing model. */
  stepTimes?: readonly (number | undefined)[];
}

export interface StepTimer {
  /**
   * The virtual time at which `step` is sent, given the clock (`nowMs`) and the output tokens of
   * the previous step. Never earlier than `nowMs`: a strategy that waited longer stays late.
   */
  timeOfStep(step: number, previousOutputTokens: number, nowMs: number): number;
}

/**
 * Times the steps of a replay (DESIGN.md §7). A recorded `at` wins; otherwise the gap after the
 * previous step is its latency (base + per output token) plus a think time with seeded jitter.
 * The jitter of a step depends only on the seed and the step index, so every strategy replaying
 * the same scenario sees the same think times, whatever it did before.
 */
export function createStepTimer(options: StepTimerOptions): StepTimer {
  const { pacing, seed, stepTimes } = options;
  return {
    timeOfStep(step, previousOutputTokens, nowMs) {
      const recorded = stepTimes?.[step];
      if (recorded !== undefined) return Math.max(nowMs, recorded);
      // The session opens with its first call; there is no earlier answer to wait for.
      if (step === 0) return nowMs;
      return nowMs + modelGap(pacing, seed, step, previousOutputTokens);
    },
  };
}

function modelGap(pacing: PacingModel, seed: number, step: number, previousOutputTokens: number): number {
  const draw = createRandom(deriveSeed(seed, `pacing:${step}`)).next();
  const jitter = Math.min(Math.max(pacing.jitter, 0), 1);
  const think = pacing.thinkMs * (1 + jitter * (2 * draw - 1));
  const latency = pacing.baseLatencyMs + pacing.msPerOutputToken * Math.max(previousOutputTokens, 0);
  // Whole milliseconds keep step times, and everything derived from them, stable in reports.
  return Math.max(0, Math.round(think + latency));
}

/**
 * Turns the recorded ISO `at` times of the steps into ms offsets from the first valid one.
 * Missing or unparsable times stay `undefined` (the pacing model fills them). Offsets may be
 * negative for out-of-order records; `timeOfStep` never goes back in time anyway.
 */
export function parseAtTimes(ats: readonly (string | undefined)[]): (number | undefined)[] {
  const parsed = ats.map((at) => (at === undefined ? Number.NaN : Date.parse(at)));
  const origin = parsed.find((ms) => Number.isFinite(ms));
  return parsed.map((ms) => (origin === undefined || !Number.isFinite(ms) ? undefined : ms - origin));
}
