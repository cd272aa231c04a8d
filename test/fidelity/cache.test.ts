import { describe, expect, it } from 'vitest';
import { compareCache } from '../../src/fidelity/cache.js';
import type { FidelityStep } from '../../src/fidelity/types.js';

const step = (recorded: number, cachedInput: number | undefined, predictedCached: number): FidelityStep => ({
  step: 0,
  messageId: 'm',
  computed: recorded,
  recorded,
  ...(cachedInput !== undefined ? { cachedInput, predictedCached } : {}),
  hidden: 0,
  reasoning: 0,
  rawError: 0,
  uncalibratedError: 0,
  offsetError: 0,
});

describe('compareCache', () => {
  it('compares shares over steps with recorded cache reads, error relative to each prompt', () => {
    const result = compareCache([step(10_000, 9_000, 9_500), step(20_000, 19_000, 18_000), step(5_000, undefined, 0)], 'm');
    expect(result).toMatchObject({ steps: 2, recordedShare: 28_000 / 30_000, predictedShare: 27_500 / 30_000, predictedOfRecorded: 27_500 / 30_000 });
    expect(result?.medianAbsError).toBeCloseTo(0.05, 12);
  });

  it('takes the predicted share of the prompt ctxbench computed, so a prompt short of hidden content is not a cache error', () => {
    // ctxbench's prompt misses 6,000 tokens the log never held; the cache model caches all but the new turn.
    const short: FidelityStep = { ...step(100_000, 99_000, 93_060), computed: 94_000 };
    const result = compareCache([short], 'm');
    expect(result?.predictedShare).toBeCloseTo(0.99, 10);
    expect(result?.medianAbsError).toBeCloseTo(0, 10);
    expect(result?.predictedOfRecorded).toBeCloseTo(0.9306, 10);
  });

  it('is undefined when the log records no cache read', () => {
    expect(compareCache([step(10_000, undefined, 0)], 'm')).toBeUndefined();
    expect(compareCache([step(10_000, 0, 0)], 'm')).toBeUndefined();
  });
});
