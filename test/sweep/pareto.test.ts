import { describe, expect, it } from 'vitest';
import { dominates, paretoFront, type FrontScore } from '../../src/sweep/pareto.js';

const score = (spend: number, recall: number | null): FrontScore => ({ spend, recall });

describe('Pareto front over spend ↓ × answer recall ↑', () => {
  it.each([
    { name: 'cheaper, same recall', a: score(100, 0.5), b: score(200, 0.5), expected: true },
    { name: 'same cost, better recall', a: score(100, 0.6), b: score(100, 0.5), expected: true },
    { name: 'equal', a: score(100, 0.5), b: score(100, 0.5), expected: false },
    { name: 'cheaper but worse recall', a: score(100, 0.4), b: score(200, 0.5), expected: false },
    { name: 'measured recall beats none', a: score(100, 0), b: score(100, null), expected: true },
  ])('dominates: $name → $expected', ({ a, b, expected }) => {
    expect(dominates(a, b)).toBe(expected);
  });

  it('keeps the eligible points nothing dominates, ties included', () => {
    const scores = [score(300, 0.9), score(100, 0.5), score(200, 0.5), score(150, 0.7), score(100, 0.5), undefined, score(400, 0.9)];
    expect(paretoFront(scores)).toEqual([0, 1, 3, 4]);
    expect(paretoFront([])).toEqual([]);
  });

  it('leaves out ineligible points: a crash that stopped early cannot push a point off the front', () => {
    expect(paretoFront([score(100, 0.5), undefined])).toEqual([0]);
    expect(paretoFront([score(100, 0.5), score(10, 0.9)])).toEqual([1]);
  });

  it('is not a front of every point when a dearer point has no better recall (anchored-summary at trigger=0.2 in issue 27)', () => {
    // $11.42 against full's $3.32 at the same recall: dominated, whatever its other figures.
    expect(paretoFront([score(3.32, 0.85), score(11.42, 0.85)])).toEqual([0]);
  });
});
