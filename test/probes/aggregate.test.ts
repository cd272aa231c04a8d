import { describe, expect, it } from 'vitest';
import { aggregateProbes, curveRetention } from '../../src/probes/aggregate.js';
import type { ProbeAnswer, RetentionCurve } from '../../src/metrics/types.js';
import type { ProbeKind } from '../../src/transcript/types.js';

function answer(probeId: string, kind: ProbeKind, correct: boolean, extra: Partial<ProbeAnswer> = {}): ProbeAnswer {
  return {
    probeId,
    kind,
    question: `q ${probeId}`,
    expected: 'x',
    askedAt: 'end',
    step: 10,
    answer: 'a',
    correct,
    reason: '',
    retrieved: false,
    correctWithRetrieval: correct,
    retrievalTokens: 0,
    inputTokens: 100,
    outputTokens: 10,
    ...extra,
  };
}

const curve = (probeId: string, kind: ProbeKind, kept: (0 | 1)[]): RetentionCurve => ({ probeId, kind, points: kept.map((k, i) => [i + 3, k]) });
const specifics = { paths: 1, commands: null, numbers: 0.5 };

describe('aggregateProbes', () => {
  const probes = [
    { id: 'a', kind: 'recall' as const },
    { id: 'b', kind: 'recall' as const },
    { id: 'c', kind: 'artifact' as const },
    { id: 'absent', kind: 'recall' as const },
  ];
  const answers = [
    answer('a', 'recall', true),
    answer('a', 'recall', false, { askedAt: 'step', step: 4 }),
    answer('b', 'recall', false, { retrieved: true, correctWithRetrieval: true, retrievalTokens: 300 }),
    answer('c', 'artifact', true),
    answer('absent', 'recall', true),
  ];
  // A probe planted late (one point) weighs as much as one planted early (four points).
  const retention = [curve('a', 'recall', [1, 1, 1, 1]), curve('b', 'recall', [0]), curve('c', 'artifact', [1, 0, 0, 0])];
  const result = aggregateProbes({ probes, answers, retention, specifics });

  it('retention: the mean over probes of the share of points kept', () => {
    expect(result.figures.retention).toBeCloseTo((1 + 0 + 0.25) / 3);
    expect(curveRetention(curve('x', 'recall', [1, 0]))).toBe(0.5);
    expect(curveRetention(curve('x', 'recall', []))).toBeNull();
  });

  it('answer recall: correct answers over every probe × ask point, with and without retrieval', () => {
    expect(result.figures.answerRecall).toBeCloseTo(3 / 5);
    expect(result.recall.withoutRetrieval).toBeCloseTo(3 / 5);
    expect(result.recall.withRetrieval).toBeCloseTo(4 / 5);
    expect(result.recall.retrievalTokens).toBe(300);
    expect(result.recall.probeTokens).toBe(5 * 110);
  });

  it('count: every probe of the scenario, also those without a curve or an answer', () => {
    expect(result.figures.count).toBe(4);
  });

  it('by kind', () => {
    expect(result.byKind.recall).toEqual({ retention: 0.5, answerRecall: 0.5, count: 3, unanswered: 0, invalid: 0 });
    expect(result.byKind.artifact).toEqual({ retention: 0.25, answerRecall: 1, count: 1, unanswered: 0, invalid: 0 });
    expect(result.byKind.decision).toBeUndefined();
  });

  it('null when nothing was measured', () => {
    const empty = aggregateProbes({ probes: [{ id: 'n', kind: 'recall' }], answers: [], retention: [], specifics });
    expect(empty.figures).toEqual({ retention: null, answerRecall: null, count: 1, unanswered: 0, invalid: 0 });
    expect(empty.recall).toEqual({ withoutRetrieval: null, withRetrieval: null, retrievalTokens: 0, probeTokens: 0 });
    expect(empty.specifics).toBe(specifics);
  });

  it('unanswered: ask points a crash came before are counted apart, never as wrong answers', () => {
    const crashed = aggregateProbes({
      probes,
      answers: [
        answer('a', 'recall', true, { askedAt: 'step', step: 2 }),
        answer('b', 'recall', false, { askedAt: 'step', step: 3 }),
        answer('a', 'recall', false, { unanswered: true, step: 5 }),
        answer('c', 'artifact', false, { unanswered: true, step: 5 }),
      ],
      retention,
      specifics,
    });
    expect(crashed.figures.answerRecall).toBe(0.5);
    expect(crashed.figures.unanswered).toBe(2);
    expect(crashed.recall.withRetrieval).toBe(0.5);
    expect(crashed.byKind.artifact).toEqual({ retention: 0.25, answerRecall: null, count: 1, unanswered: 1, invalid: 0 });
    // A session that crashed before any ask point has no recall at all, not a recall of 0.
    const early = aggregateProbes({ probes, answers: [answer('a', 'recall', false, { unanswered: true })], retention, specifics });
    expect([early.figures.answerRecall, early.figures.unanswered]).toEqual([null, 1]);
  });
});
