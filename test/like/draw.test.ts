import { describe, expect, it } from 'vitest';
import { drawFrom, meanOfDraws, quantilesOf, scaleOf, twoLevelsOf } from '../../src/like/draw.js';
import { createRandom } from '../../src/random.js';

/** Relative values of a log whose content comes mostly as 0 and now and then as one large block (Claude Code's unlogged content). */
function bursty(): number[] {
  const values = Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? 0 : 0.5 + (i % 7) / 7));
  values.push(60, 25, 18, 15);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.map((v) => v / mean);
}

const average = (n: number, draw: () => number): number => {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += draw();
  return sum / n;
};

describe('draws from a fit', () => {
  it('know the mean of their draws exactly, as drawFrom interpolates', () => {
    const q = quantilesOf(bursty());
    const random = createRandom(5);
    expect(meanOfDraws(q)).toBeCloseTo(
      average(400_000, () => drawFrom(random, q)),
      1,
    );
    // Between quantiles the draws do not average the values they were fitted on (1 here): geometric within a bin, linear from 0.
    expect(Math.abs(meanOfDraws(q) - 1)).toBeGreaterThan(0.1);
    expect(meanOfDraws([])).toBe(0);
    expect(meanOfDraws([3])).toBe(3);
  });

  it("around a log's mean average that mean, and stay under the largest value of the logs", () => {
    const values = bursty().map((v) => v * 200);
    const levels = twoLevelsOf([values]);
    const scale = scaleOf(200, levels);
    const random = createRandom(9);
    const draws = Array.from({ length: 400_000 }, () => scale(random));
    expect(draws.reduce((a, b) => a + b, 0) / draws.length).toBeGreaterThan(0.97 * 200);
    expect(draws.reduce((a, b) => a + b, 0) / draws.length).toBeLessThan(1.03 * 200);
    expect(draws.reduce((a, b) => Math.max(a, b), 0)).toBeLessThanOrEqual(levels.largest);
    // A weight (a phase that sends more) scales the draw, still under the largest.
    const weighted = Array.from({ length: 1000 }, () => scale(random, 5));
    expect(Math.max(...weighted)).toBe(levels.largest);
    expect(scaleOf(0, levels)(random, 5)).toBe(0);
  });
});
