import { describe, expect, it } from 'vitest';
import { createStepTimer, DEFAULT_PACING, parseAtTimes } from '../../src/quota/pacing.js';
import type { PacingModel } from '../../src/quota/types.js';

const steady: PacingModel = { thinkMs: 1000, msPerOutputToken: 10, baseLatencyMs: 500, jitter: 0 };

describe('createStepTimer (pacing model)', () => {
  it('starts the session with its first call', () => {
    expect(createStepTimer({ pacing: DEFAULT_PACING, seed: 1 }).timeOfStep(0, 0, 0)).toBe(0);
  });

  it('without jitter, the gap is think + base latency + ms per previous output token', () => {
    const timer = createStepTimer({ pacing: steady, seed: 1 });
    expect(timer.timeOfStep(1, 200, 10_000)).toBe(10_000 + 1000 + 500 + 2000);
  });

  it('is deterministic for a seed and independent of call order', () => {
    const a = createStepTimer({ pacing: DEFAULT_PACING, seed: 42 });
    const b = createStepTimer({ pacing: DEFAULT_PACING, seed: 42 });
    const forward = [1, 2, 3, 4].map((step) => a.timeOfStep(step, 100, 0));
    const backward = [4, 3, 2, 1].map((step) => b.timeOfStep(step, 100, 0)).reverse();
    expect(forward).toEqual(backward);
    expect(forward.every(Number.isInteger)).toBe(true);
  });

  it('jitter stays within its bounds and varies between seeds', () => {
    const gaps = Array.from({ length: 200 }, (_, step) => createStepTimer({ pacing: DEFAULT_PACING, seed: 7 }).timeOfStep(step + 1, 0, 0));
    const fixed = DEFAULT_PACING.baseLatencyMs;
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(Math.floor(fixed + DEFAULT_PACING.thinkMs * (1 - DEFAULT_PACING.jitter)));
      expect(gap).toBeLessThanOrEqual(Math.ceil(fixed + DEFAULT_PACING.thinkMs * (1 + DEFAULT_PACING.jitter)));
    }
    expect(new Set(gaps).size).toBeGreaterThan(100);
    const other = createStepTimer({ pacing: DEFAULT_PACING, seed: 8 }).timeOfStep(1, 0, 0);
    const same = createStepTimer({ pacing: DEFAULT_PACING, seed: 7 }).timeOfStep(1, 0, 0);
    expect(other).not.toBe(same);
  });
});

describe('createStepTimer (recorded times)', () => {
  it('uses the recorded offset of the step, never earlier than now, and the model for gaps', () => {
    const timer = createStepTimer({ pacing: steady, seed: 1, stepTimes: [0, 30_000, undefined, 40_000] });
    expect(timer.timeOfStep(1, 500, 2_000)).toBe(30_000);
    // A strategy that waited past the recorded time stays late.
    expect(timer.timeOfStep(1, 500, 35_000)).toBe(35_000);
    expect(timer.timeOfStep(2, 100, 30_000)).toBe(30_000 + 1000 + 500 + 1000);
    expect(timer.timeOfStep(3, 100, 32_500)).toBe(40_000);
  });
});

describe('parseAtTimes', () => {
  it('gives ms offsets from the first valid time and undefined for missing or bad ones', () => {
    expect(parseAtTimes([undefined, '2025-03-01T10:00:00Z', 'not a time', '2025-03-01T10:00:01.500Z', undefined, '2025-03-01T10:01:00+00:00'])).toEqual([
      undefined,
      0,
      undefined,
      1500,
      undefined,
      60_000,
    ]);
  });

  it('is all undefined when no time parses', () => {
    expect(parseAtTimes([undefined, 'x'])).toEqual([undefined, undefined]);
  });
});
