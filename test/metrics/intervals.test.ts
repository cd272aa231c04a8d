import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../src/metrics/run-events.js';
import type { LogSummary, NeededRecord, ProbeAnswer } from '../../src/metrics/types.js';
import { neededFigures } from '../../src/metrics/needed.js';
import { unitIntervals } from '../../src/metrics/intervals.js';
import { pairedFiguresOf, type SavingInput } from '../../src/metrics/paired-figures.js';
import { applySavingVsFull, summarizeUnit } from '../../src/metrics/summarize.js';
import { stepRecord } from '../helpers/records.js';

const step = (n: number, tokens: number): StepRecord => stepRecord(n, tokens, { costUsd: tokens / 1000 });

function answer(log: string, id: string, correct: boolean): ProbeAnswer {
  return {
    probeId: `${log}/${id}`,
    kind: 'recall',
    question: '',
    expected: '',
    askedAt: 'end',
    step: 0,
    answer: '',
    correct,
    reason: '',
    retrieved: false,
    correctWithRetrieval: correct,
    retrievalTokens: 0,
    inputTokens: 0,
    outputTokens: 0,
  };
}

/** A unit over `logs.length` logs of 4 steps each: every step of log i costs `logs[i]` tokens; each log has 2 probes, `correct[i]` of them right. */
function unit(strategy: string, logs: number[], correct: number[]): SavingInput {
  const steps = logs.flatMap((tokens, i) => [0, 1, 2, 3].map((k) => step(i * 4 + k, tokens)));
  const answers = logs.flatMap((_, i) => [answer(`log${i}`, 'a', (correct[i] ?? 0) > 0), answer(`log${i}`, 'b', (correct[i] ?? 0) > 1)]);
  const summaryOf = (): ReturnType<typeof summarizeUnit> => {
    const asked = answers.length;
    const right = answers.filter((a) => a.correct).length;
    return summarizeUnit({
      scenario: 's',
      strategy,
      totalSteps: steps.length,
      steps,
      events: [],
      probes: { retention: null, answerRecall: right / asked, count: asked },
    });
  };
  const logSummaries: LogSummary[] = logs.map((_, i) => ({ transcript: `l${i}`, id: `log${i}`, firstStep: i * 4, summary: summaryOf() }));
  return { summary: summaryOf(), steps, logs: logSummaries, probes: { answers } };
}

describe('bootstrap intervals over the logs of a scenario', () => {
  const full = unit('full', [100, 100, 100, 100, 100, 100], [2, 2, 2, 2, 1, 2]);
  const even = unit('even', [60, 60, 60, 60, 60, 60], [2, 1, 2, 1, 2, 1]);
  const uneven = unit('uneven', [10, 110, 10, 110, 10, 110], [2, 0, 2, 0, 2, 0]);

  it('brackets the summary figures, which are their point estimates', () => {
    const [, rowEven, rowUneven] = applySavingVsFull([full, even, uneven]).map((u) => u.summary);
    for (const row of [rowEven, rowUneven]) {
      expect(row?.saving_ci_low).toBeLessThanOrEqual(row?.saving_vs_full as number);
      expect(row?.saving_ci_high).toBeGreaterThanOrEqual(row?.saving_vs_full as number);
      expect(row?.cost_vs_full_ci_low).toBeLessThanOrEqual(row?.cost_vs_full as number);
      expect(row?.answer_recall_ci_low).toBeLessThanOrEqual(row?.answer_recall as number);
      expect(row?.answer_recall_ci_high).toBeGreaterThanOrEqual(row?.answer_recall as number);
    }
    // The same mean saving (40 %), but logs that disagree give a wide interval, logs that agree none.
    expect(rowEven?.saving_vs_full).toBeCloseTo(0.4);
    expect(rowUneven?.saving_vs_full).toBeCloseTo(0.4);
    expect(rowEven?.saving_ci_low).toBeCloseTo(0.4);
    expect(rowEven?.saving_ci_high).toBeCloseTo(0.4);
    expect((rowUneven?.saving_ci_high as number) - (rowUneven?.saving_ci_low as number)).toBeGreaterThan(0.3);
    expect(rowUneven?.cost_vs_full_ci_low).toBeLessThan(-0.6);
    expect((rowUneven?.answer_recall_ci_high as number) - (rowUneven?.answer_recall_ci_low as number)).toBeGreaterThan(0.3);
  });

  it('is seeded: the same inputs give the same intervals', () => {
    expect(unitIntervals(pairedFiguresOf(uneven), pairedFiguresOf(full))).toEqual(unitIntervals(pairedFiguresOf(uneven), pairedFiguresOf(full)));
  });

  it('is not computed for one log, nor the comparisons without full', () => {
    const one = unit('one', [50], [1]);
    expect(Object.values(unitIntervals(pairedFiguresOf(one), pairedFiguresOf(unit('full', [100], [2])))).every((v) => v === null)).toBe(true);
    const alone = unitIntervals(pairedFiguresOf(uneven), undefined);
    expect(alone.saving_ci_low).toBeNull();
    expect(alone.cost_vs_full_ci_low).toBeNull();
    expect(alone.answer_recall_ci_low).not.toBeNull();
  });
});

describe('the needed-recall interval over logs', () => {
  /** Needed uses of log i (4 steps from step 4i): `held[i]` of 4 kept, the rest lost, and one use never reached. */
  function withNeeded(base: ReturnType<typeof unit>, held: number[]): ReturnType<typeof unit> {
    const needed = held.flatMap((n, i) => [
      ...[0, 1, 2, 3].map((k): NeededRecord => ({ fact: `f${k}`, kind: 'path', sourceStep: 0, useStep: i * 4 + k, outcome: k < n ? 'kept' : 'lost' })),
      { fact: 'late', kind: 'path', sourceStep: 0, useStep: i * 4 + 3, outcome: 'unanswered' as const },
    ]);
    const figures = neededFigures(needed);
    return {
      ...base,
      summary: { ...base.summary, needed_facts: figures.facts, needed_recall: figures.recall },
      probes: { answers: base.probes?.answers ?? [], needed },
    };
  }

  it('brackets needed recall, wide where the logs disagree, none where they agree; unanswered uses left out', () => {
    const full = withNeeded(unit('full', [100, 100, 100, 100], [2, 2, 2, 2]), [4, 4, 4, 4]);
    const agree = withNeeded(unit('agree', [60, 60, 60, 60], [2, 2, 2, 2]), [2, 2, 2, 2]);
    const disagree = withNeeded(unit('disagree', [60, 60, 60, 60], [2, 2, 2, 2]), [4, 0, 4, 0]);
    const [rowFull, rowAgree, rowDisagree] = applySavingVsFull([full, agree, disagree]).map((u) => u.summary);
    expect(rowFull?.needed_facts).toBe(16);
    expect([rowFull?.needed_recall_ci_low, rowFull?.needed_recall_ci_high]).toEqual([1, 1]);
    expect(rowAgree?.needed_recall).toBe(0.5);
    expect([rowAgree?.needed_recall_ci_low, rowAgree?.needed_recall_ci_high]).toEqual([0.5, 0.5]);
    expect(rowDisagree?.needed_recall).toBe(0.5);
    expect(rowDisagree?.needed_recall_ci_low).toBeLessThan(0.3);
    expect(rowDisagree?.needed_recall_ci_high).toBeGreaterThan(0.7);
  });

  it('is null without needed uses', () => {
    const plain = unitIntervals(pairedFiguresOf(unit('u', [10, 20], [1, 2])), undefined);
    expect([plain.needed_recall_ci_low, plain.needed_recall_ci_high]).toEqual([null, null]);
  });
});
