import { describe, expect, it } from 'vitest';
import type { ProbeAnswer } from '../../src/metrics/types.js';
import { aggregateProbes } from '../../src/probes/aggregate.js';
import { rotDraw, withContextRot } from '../../src/probes/context-rot.js';
import { resolveContextRot, retrievalProbability, type ContextRotCurve } from '../../src/scenario/context-rot.js';

const curve = resolveContextRot('nolima:claude-3.5-sonnet') as ContextRotCurve;

function answer(probeId: string, step: number, inputTokens: number, correct = true): ProbeAnswer {
  return {
    probeId,
    kind: 'recall',
    question: 'q',
    expected: 'e',
    askedAt: 'step',
    step,
    answer: correct ? 'e' : 'x',
    correct,
    reason: '',
    retrieved: false,
    correctWithRetrieval: correct,
    retrievalTokens: 0,
    inputTokens,
    outputTokens: 5,
  };
}

const asks = Array.from({ length: 400 }, (_, i) => ({ id: `p${i % 40}`, step: 10 + Math.floor(i / 40) * 7 }));

describe('the context-rot draw', () => {
  it('is the same for the same seed, probe and step, and differs with the seed', () => {
    expect(rotDraw(42, 'p1', 17)).toBe(rotDraw(42, 'p1', 17));
    const a = asks.map((k) => rotDraw(42, k.id, k.step));
    const b = asks.map((k) => rotDraw(7, k.id, k.step));
    expect(a).not.toEqual(b);
    // Uniform enough to stand for a probability: the mean of 400 draws near 0.5.
    expect(a.reduce((s, u) => s + u, 0) / a.length).toBeGreaterThan(0.45);
    expect(a.reduce((s, u) => s + u, 0) / a.length).toBeLessThan(0.55);
  });

  it('fails a shorter context only where a longer one fails too (same probe, same step)', () => {
    let longFails = 0;
    for (const { id, step } of asks) {
      const short = withContextRot(answer(id, step, 6_000), curve, 42).rot;
      const long = withContextRot(answer(id, step, 120_000), curve, 42).rot;
      if (long?.correct === false) longFails++;
      if (short?.correct === false) expect(long?.correct, `${id}@${step}`).toBe(false);
    }
    // The property is not empty: the long context does fail some reads, the short fewer.
    expect(longFails).toBeGreaterThan(100);
  });

  it('fails about 1 − p of correct reads, never turns a wrong answer right, and leaves off and unanswered alone', () => {
    const tokens = 20_000;
    const graded = asks.map((k) => withContextRot(answer(k.id, k.step, tokens), curve, 3));
    const kept = graded.filter((a) => a.rot?.correct === true).length / graded.length;
    expect(kept).toBeGreaterThan(retrievalProbability(curve, tokens) - 0.08);
    expect(kept).toBeLessThan(retrievalProbability(curve, tokens) + 0.08);
    expect(withContextRot(answer('p', 3, 100, false), curve, 3).rot).toEqual({ probability: 1, correct: false });
    expect(withContextRot(answer('p', 3, 100), undefined, 3)).toEqual(answer('p', 3, 100));
    const unanswered = { ...answer('p', 3, 0, false), unanswered: true as const };
    expect(withContextRot(unanswered, curve, 3)).toEqual(unanswered);
  });
});

describe('recall under context rot in the aggregate', () => {
  const probes = [{ id: 'a', kind: 'recall' as const }];
  const specifics = { paths: null, commands: null, numbers: null };

  it('is reported apart, over the same ask points as answer recall', () => {
    const answers: ProbeAnswer[] = [
      { ...answer('a', 1, 10), rot: { probability: 0.5, correct: false } },
      { ...answer('a', 2, 10), rot: { probability: 0.5, correct: true } },
      { ...answer('a', 3, 10), invalid: true, rot: { probability: 0.5, correct: true } },
    ];
    const { figures, recall } = aggregateProbes({ probes, answers, retention: [], specifics });
    expect(figures.answerRecall).toBe(1);
    expect(figures.answerRecallRot).toBe(0.5);
    expect(recall.withContextRot).toBe(0.5);
  });

  it('adds nothing when the option was off', () => {
    const { figures, recall } = aggregateProbes({ probes, answers: [answer('a', 1, 10)], retention: [], specifics });
    expect('answerRecallRot' in figures).toBe(false);
    expect('withContextRot' in recall).toBe(false);
  });
});
