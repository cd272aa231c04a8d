import { describe, expect, it } from 'vitest';
import { dominates, paretoFront, recommend, type PointScore } from '../../src/sweep/pareto.js';

const score = (totalTokens: number, answerRecall: number | null, crashes = 0, waitMs = 0): PointScore => ({ totalTokens, answerRecall, crashes, waitMs });

describe('Pareto front over tokens ↓, recall ↑, crashes ↓, waiting ↓', () => {
  it.each([
    { name: 'cheaper, same recall', a: score(100, 0.5), b: score(200, 0.5), expected: true },
    { name: 'same cost, better recall', a: score(100, 0.6), b: score(100, 0.5), expected: true },
    { name: 'fewer crashes', a: score(100, 0.5, 0), b: score(100, 0.5, 1), expected: true },
    { name: 'less waiting', a: score(100, 0.5, 0, 10), b: score(100, 0.5, 0, 20), expected: true },
    { name: 'equal', a: score(100, 0.5), b: score(100, 0.5), expected: false },
    { name: 'cheaper but worse recall', a: score(100, 0.4), b: score(200, 0.5), expected: false },
    { name: 'measured recall beats none', a: score(100, 0), b: score(100, null), expected: true },
  ])('dominates: $name → $expected', ({ a, b, expected }) => {
    expect(dominates(a, b)).toBe(expected);
  });

  it('keeps the points nothing dominates, ties included', () => {
    const scores = [score(300, 0.9), score(100, 0.5), score(200, 0.5), score(150, 0.7), score(100, 0.5), score(90, 0.2, 1), score(400, 0.9)];
    expect(paretoFront(scores)).toEqual([0, 1, 3, 4, 5]);
    expect(paretoFront([])).toEqual([]);
  });
});

describe('recommend', () => {
  const scores = [score(300, 0.95), score(100, 0.5), score(150, 0.92, 0, 10), score(150, 0.92, 0, 5), score(80, 0.99, 2)];

  it('picks the cheapest point that satisfies the constraints; ties go to recall, crashes, waiting', () => {
    expect(recommend(scores, { minRecall: 0.9, maxCrashes: 0 })).toEqual({
      position: 3,
      reason: 'the cheapest of 3 of 5 points that satisfy answer recall ≥ 0.9, crashes ≤ 0',
    });
    expect(recommend(scores, { maxCrashes: 0 }).position).toBe(1);
    expect(recommend(scores, {})).toMatchObject({ position: 4, reason: 'the cheapest of 5 of 5 points that satisfy no constraint' });
    expect(recommend(scores, { minRecall: 0.9, maxCrashes: 0, maxTokens: 120 }).position).toBeNull();
  });

  it('the recommended point is on the front', () => {
    for (const constraints of [{}, { maxCrashes: 0 }, { minRecall: 0.9, maxCrashes: 0 }]) {
      const { position } = recommend(scores, constraints);
      expect(paretoFront(scores)).toContain(position);
    }
  });

  it('says why no point qualifies', () => {
    expect(recommend(scores, { minRecall: 0.999, maxCrashes: 0 }).reason).toBe(
      'none of 5 points satisfies answer recall ≥ 0.999, crashes ≤ 0: 5 have answer recall below 0.999 (best 0.990); 1 crash more than 0 time(s) (fewest 0)',
    );
    expect(recommend([score(10, null)], { minRecall: 0.5 }).reason).toMatch(/best not measured/);
    expect(recommend([], {}).reason).toBe('no point was run');
  });
});

describe('dominates, with cost', () => {
  const priced = (totalTokens: number, costUsd: number | null): PointScore => ({ totalTokens, answerRecall: 0.5, crashes: 0, waitMs: 0, costUsd });

  it('keeps a point with more tokens on the front when it costs less', () => {
    const fewerTokensDearer = priced(1000, 0.5);
    const moreTokensCheaper = priced(1500, 0.3);
    expect(paretoFront([fewerTokensDearer, moreTokensCheaper])).toEqual([0, 1]);
    expect(dominates(priced(1000, 0.3), priced(1500, 0.5))).toBe(true);
  });

  it('ignores cost when a point is unpriced', () => {
    expect(paretoFront([priced(1000, null), priced(1500, 0.3)])).toEqual([0]);
  });
});
