import { describe, expect, it } from 'vitest';
import { ranksOf, spearman } from '../../src/like/spearman.js';

describe('spearman', () => {
  it.each([
    { xs: [1, 2, 3, 4], ys: [10, 20, 30, 40], expected: 1 },
    { xs: [1, 2, 3, 4], ys: [4, 3, 2, 1], expected: -1 },
    // ranks 1 2 3 4 5 against 2 1 4 3 5: 1 − 6·4 / (5·24) = 0.8
    { xs: [1, 2, 3, 4, 5], ys: [0.2, 0.1, 0.4, 0.3, 0.5], expected: 0.8 },
  ])('$xs vs $ys is $expected', ({ xs, ys, expected }) => {
    expect(spearman(xs, ys)).toBeCloseTo(expected, 10);
  });

  it('averages the ranks of ties', () => {
    expect(ranksOf([0.3, 0.1, 0.3, 0.2])).toEqual([3.5, 1, 3.5, 2]);
  });

  it('is null with fewer than three pairs or a constant list', () => {
    expect(spearman([1, 2], [1, 2])).toBeNull();
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
  });
});
