import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLiveSleep } from '../../src/providers/live-sleep.js';

describe('createLiveSleep', () => {
  afterEach(() => vi.useRealTimers());

  it('waits the delay plus the injected jitter (on fake timers), and returns the time measured', async () => {
    vi.useFakeTimers();
    let clock = 0;
    const sleep = createLiveSleep({ jitter: 0.5, random: () => 0.5, now: () => clock });
    let waited: number | undefined;
    void sleep(40).then((ms) => (waited = ms));
    // 40 ms + 0.5 × 0.5 × 40 ms = 50 ms: not done at 49 ms, done at 50 ms.
    clock = 49;
    await vi.advanceTimersByTimeAsync(49);
    expect(waited).toBeUndefined();
    clock = 50;
    await vi.advanceTimersByTimeAsync(1);
    expect(waited).toBe(50);
  });

  it('reports what its clock measured, not what it was asked', async () => {
    const times = [1000, 1234];
    const sleep = createLiveSleep({ jitter: 0, now: () => times.shift() ?? 0 });
    expect(await sleep(1)).toBe(234);
  });
});
