import { describe, expect, it } from 'vitest';
import { fitTheilSen, median, quantile, summarizeErrors } from '../src/stats.js';

describe('median', () => {
  it.each([
    { values: [], expected: Number.NaN },
    { values: [5], expected: 5 },
    { values: [3, 1, 2], expected: 2 },
    { values: [4, 1, 3, 2], expected: 2.5 },
    { values: [-1, -3, 10], expected: -1 },
  ])('of $values is $expected', ({ values, expected }) => {
    expect(median(values)).toBe(expected);
  });

  it('is the middle of the values sorted by `a - b`, the sign of a zero included', () => {
    const byComparator = (values: number[]): number => {
      const sorted = [...values].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
    };
    const cases = [
      [0, -0, 1],
      [-0, 0, -1],
      [-0, 0, 0, -0, 2],
      [-0, -0],
      [3, -0, 0, 0.5],
      [Infinity, -Infinity, 2],
      [1e-300, -1e-300, -0],
    ];
    let seed = 7;
    for (let n = 1; n < 60; n++) {
      cases.push(Array.from({ length: n }, () => ((seed = (seed * 48271) % 2147483647) % 7) - 3 || (seed % 2 === 0 ? -0 : 0)));
    }
    for (const values of cases) expect(Object.is(median(values), byComparator(values))).toBe(true);
  });
});

describe('quantile (nearest rank)', () => {
  const ten = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];
  it.each([
    { q: 0.05, expected: 1 },
    { q: 0.5, expected: 5 },
    { q: 0.95, expected: 10 },
    { q: 0.9, expected: 9 },
    { q: 1, expected: 10 },
    { q: 0, expected: 1 },
  ])('p$q of 1..10 is $expected', ({ q, expected }) => {
    expect(quantile(ten, q)).toBe(expected);
  });

  it('is the worst value over few steps, never an interpolation', () => {
    expect(quantile([0.01, 0.02, 0.5], 0.95)).toBe(0.5);
  });

  it('is NaN for no values', () => {
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('summarizeErrors', () => {
  it('gives signed median and percentiles, and the median and p95 of the magnitudes', () => {
    expect(summarizeErrors([-0.3, -0.1, 0.05, 0.2])).toEqual({
      count: 4,
      median: expect.closeTo(-0.025, 12),
      p5: -0.3,
      p95: 0.2,
      medianAbs: expect.closeTo(0.15, 12),
      p95Abs: 0.3,
    });
  });
});

describe('fitTheilSen', () => {
  it('recovers an exact line', () => {
    expect(fitTheilSen([1, 2, 3, 4], [13, 15, 17, 19])).toEqual({ slope: 2, intercept: 11 });
  });

  it('ignores one wild point that would drag a least-squares fit', () => {
    const fit = fitTheilSen([0, 1, 2, 3, 4, 5], [100, 101, 102, 103, 104, 500]);
    expect(fit?.slope).toBe(1);
    expect(fit?.intercept).toBe(100);
  });

  it('is undefined without two distinct x', () => {
    expect(fitTheilSen([3, 3], [1, 2])).toBeUndefined();
    expect(fitTheilSen([], [])).toBeUndefined();
  });
});
