import { describe, expect, it } from 'vitest';
import { createLiveSleep } from '../../src/providers/live-sleep.js';

describe('createLiveSleep', () => {
  it('waits at least the delay plus the injected jitter, and returns the time measured', async () => {
    const sleep = createLiveSleep({ jitter: 0.5, random: () => 0.5 });
    const started = performance.now();
    const waited = await sleep(40);
    const elapsed = performance.now() - started;
    // 40 ms + 0.5 × 0.5 × 40 ms = 50 ms; timers may fire up to 1 ms early.
    expect(waited).toBeGreaterThanOrEqual(49);
    expect(elapsed).toBeGreaterThanOrEqual(waited - 1);
  });

  it('reports what its clock measured, not what it was asked', async () => {
    const times = [1000, 1234];
    const sleep = createLiveSleep({ jitter: 0, now: () => times.shift() ?? 0 });
    expect(await sleep(1)).toBe(234);
  });
});
