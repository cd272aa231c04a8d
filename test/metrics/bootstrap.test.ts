import { describe, expect, it } from 'vitest';
import { bootstrapInterval } from '../../src/metrics/bootstrap.js';

const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
const options = { resamples: 2000, confidence: 0.95, seed: 3 };

describe('bootstrapInterval', () => {
  const samples = [3, -1, 4, 1, -5, 9, 2, 6, -5, 3, 5, 8];

  it('is seeded: the same inputs give the same interval, another seed another', () => {
    const a = bootstrapInterval(samples, mean, options);
    expect(bootstrapInterval(samples, mean, options)).toEqual(a);
    expect(bootstrapInterval(samples, mean, { ...options, seed: 4 })).not.toEqual(a);
  });

  it('brackets the point estimate, and narrows as the confidence falls', () => {
    const [low, high] = bootstrapInterval(samples, mean, options) ?? [NaN, NaN];
    const estimate = mean(samples) as number;
    expect(low).toBeLessThan(estimate);
    expect(high).toBeGreaterThan(estimate);
    const [low50, high50] = bootstrapInterval(samples, mean, { ...options, confidence: 0.5 }) ?? [NaN, NaN];
    expect(low50).toBeGreaterThan(low);
    expect(high50).toBeLessThan(high);
  });

  it('is a single value when every sample is the same', () => {
    expect(bootstrapInterval([2, 2, 2], mean, options)).toEqual([2, 2]);
  });

  it('is null without samples, and leaves out resamples whose statistic is undefined', () => {
    expect(bootstrapInterval([], mean, options)).toBeNull();
    // A ratio whose denominator is zero in some resamples: those are skipped, not counted as 0.
    const pairs = [
      { b: 0, c: 1 },
      { b: 10, c: 20 },
    ];
    const ratio = (drawn: readonly { b: number; c: number }[]) => {
      const b = drawn.reduce((n, p) => n + p.b, 0);
      return b === 0 ? null : drawn.reduce((n, p) => n + p.c, 0) / b;
    };
    const [low, high] = bootstrapInterval(pairs, ratio, options) ?? [NaN, NaN];
    expect(low).toBeGreaterThanOrEqual(2);
    expect(high).toBeLessThanOrEqual(2.1);
    expect(bootstrapInterval([{ b: 0, c: 1 }], ratio, options)).toBeNull();
  });
});
