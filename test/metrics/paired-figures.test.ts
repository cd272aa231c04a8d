import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../src/metrics/run-events.js';
import type { LogSummary, NeededRecord, ProbeAnswer, SummaryRow, UnitResult } from '../../src/metrics/types.js';
import { deriveSeed } from '../../src/random.js';
import { pairedFiguresOf, type SavingInput } from '../../src/metrics/paired-figures.js';
import { applySavingVsFull, pairSummaries } from '../../src/metrics/summarize.js';
import { bootstrapInterval, bootstrapRatioInterval } from '../../src/metrics/bootstrap.js';
import { FinishedUnits } from '../../src/run/finished-units.js';
import { stepRecord, summaryRow } from '../helpers/records.js';

/** A seeded stream of numbers in [0, 1). */
function stream(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/**
 * A unit over `logs` logs of a few steps each, drawn from `seed`: fractional tokens and USD, some
 * steps crashed, unpriced or numbered twice, out of order within a log, answers and needed uses
 * in every log: what the figures' columns must read exactly as the records.
 */
function drawnUnit(strategy: string, logs: number, seed: number, { unpriced = 0 } = {}): SavingInput & Pick<UnitResult, 'scenario' | 'strategy'> {
  const next = stream(seed);
  const steps: StepRecord[] = [];
  const answers: ProbeAnswer[] = [];
  const needed: NeededRecord[] = [];
  const summaries: LogSummary[] = [];
  let first = 0;
  for (let log = 0; log < logs; log++) {
    const count = 3 + Math.floor(next() * 4);
    const order = Array.from({ length: count }, (_, k) => first + k).sort(() => next() - 0.5);
    for (const step of order) {
      const priced = next() >= unpriced;
      steps.push(
        stepRecord(step, Math.floor(next() * 500) + 0.25, {
          completionTokens: next() * 40,
          overheadTokens: next() < 0.3 ? next() * 90 : 0,
          status: next() < 0.1 ? 'crashed' : 'ok',
          ...(priced ? { costUsd: next() / 3 } : {}),
        }),
      );
      if (next() < 0.15) steps.push(stepRecord(step, next() * 300, { costUsd: next() / 7 }));
    }
    for (let k = 0; k < 3; k++) {
      const roll = next();
      answers.push({ ...answer(`log${log}/p${k}`, roll < 0.5), ...(roll > 0.9 ? { unanswered: true } : {}), ...(roll < 0.05 ? { invalid: true } : {}) });
      const outcomes = ['kept', 'summarized', 'recoverable', 'lost', 'unanswered'] as const;
      needed.push({ fact: `f${k}`, kind: 'path', sourceStep: first, useStep: first + k, outcome: outcomes[Math.floor(next() * 5)] as NeededRecord['outcome'] });
    }
    summaries.push({ transcript: `l${log}`, id: `log${log}`, firstStep: first, summary: summaryRow('s', strategy) });
    first += count;
  }
  return { scenario: 's', strategy, summary: summaryRow('s', strategy, { cost_usd: 1 }), steps, logs: summaries, probes: { answers, needed } };
}

function answer(probeId: string, correct: boolean): ProbeAnswer {
  const zero = { step: 0, retrievalTokens: 0, inputTokens: 0, outputTokens: 0 };
  return {
    probeId,
    kind: 'recall',
    question: '',
    expected: '',
    askedAt: 'end',
    answer: '',
    correct,
    reason: '',
    retrieved: false,
    correctWithRetrieval: correct,
    ...zero,
  };
}

interface Pair {
  mine: number;
  theirs: number;
}
const stepTokens = (step: StepRecord): number => step.promptTokens + step.completionTokens + step.overheadTokens;

/** The reference: the pairing as it was done on the step records themselves, sums in the same order. */
function pairedTotals(unit: SavingInput, full: SavingInput | undefined, value: (step: StepRecord) => number | undefined): Pair | undefined {
  if (full === undefined) return undefined;
  const baseline = new Map<number, number | undefined>();
  for (const step of full.steps as StepRecord[]) if (step.status === 'ok') baseline.set(step.step, value(step));
  const sums = { mine: 0, theirs: 0 };
  for (const step of unit.steps as StepRecord[]) {
    if (step.status !== 'ok' || !baseline.has(step.step)) continue;
    const [a, b] = [value(step), baseline.get(step.step)];
    if (a === undefined || b === undefined) return undefined;
    sums.mine += a;
    sums.theirs += b;
  }
  return sums.theirs === 0 ? undefined : sums;
}

/** The reference intervals: each log's records grouped, paired and counted, resampled by `bootstrapInterval`. */
function referenceIntervals(unit: SavingInput, full: SavingInput | undefined): Record<string, number | null> {
  const logs = unit.logs ?? [];
  const names = ['saving', 'cost_vs_full', 'answer_recall', 'needed_recall'];
  if (logs.length < 2)
    return Object.fromEntries(
      names.flatMap((name) => [
        [`${name}_ci_low`, null],
        [`${name}_ci_high`, null],
      ]),
    );
  const logOf = (step: number) => logs.findLastIndex((log) => log.firstStep <= step);
  const samples = logs.map((log, i) => {
    const inLog = (steps: readonly StepRecord[]) => steps.filter((step) => logOf(step.step) === i);
    const one = (steps: readonly StepRecord[]) => ({ ...unit, steps }) as SavingInput;
    const answers = (unit.probes?.answers ?? []).filter((a) => a.probeId.startsWith(`${log.id}/`) && a.unanswered !== true && a.invalid !== true);
    const uses = (unit.probes?.needed ?? []).filter((r) => logOf(r.useStep) === i && r.outcome !== 'unanswered');
    const mine = one(inLog(unit.steps as StepRecord[]));
    const theirs = full !== undefined ? one(inLog(full.steps as StepRecord[])) : undefined;
    return {
      tokens: pairedTotals(mine, theirs, stepTokens) ?? { mine: 0, theirs: 0 },
      cost: theirs === undefined ? { mine: 0, theirs: 0 } : (pairedTotals(mine, theirs, (step) => step.costUsd) ?? null),
      recall: { mine: answers.filter((a) => a.correct).length, theirs: answers.length },
      needed: { mine: uses.filter((r) => r.outcome === 'kept' || r.outcome === 'summarized').length, theirs: uses.length },
    };
  });
  type Sample = (typeof samples)[number];
  const ratio = (pick: (sample: Sample) => Pair, finish: (r: number) => number) => (drawn: readonly Sample[]) => {
    const sums = { mine: 0, theirs: 0 };
    for (const sample of drawn) {
      sums.mine += pick(sample).mine;
      sums.theirs += pick(sample).theirs;
    }
    return sums.theirs === 0 ? null : finish(sums.mine / sums.theirs);
  };
  const interval = (measure: string, statistic: (drawn: readonly Sample[]) => number | null) =>
    bootstrapInterval(samples, statistic, { resamples: 2000, confidence: 0.95, seed: deriveSeed(27, `s\u0000${unit.summary.strategy}\u0000${measure}`) }) ?? [
      null,
      null,
    ];
  const none = [null, null];
  const saving =
    full === undefined
      ? none
      : interval(
          'saving',
          ratio(
            (s) => s.tokens,
            (r) => 1 - r,
          ),
        );
  const cost =
    full === undefined || samples.some((s) => s.cost === null)
      ? none
      : interval(
          'cost',
          ratio(
            (s) => s.cost as Pair,
            (r) => r - 1,
          ),
        );
  const recall = samples.some((s) => s.recall.theirs > 0)
    ? interval(
        'recall',
        ratio(
          (s) => s.recall,
          (r) => r,
        ),
      )
    : none;
  const needed = samples.some((s) => s.needed.theirs > 0)
    ? interval(
        'needed',
        ratio(
          (s) => s.needed,
          (r) => r,
        ),
      )
    : none;
  return Object.fromEntries(
    [saving, cost, recall, needed].flatMap((pair, i) => [
      [`${names[i]}_ci_low`, pair[0]],
      [`${names[i]}_ci_high`, pair[1]],
    ]),
  );
}

function referenceSummaries(units: readonly SavingInput[]): SummaryRow[] {
  const full = units.findLast((unit) => unit.summary.strategy === 'full');
  return units.map((unit) => {
    const intervals = referenceIntervals(unit, full);
    if (unit === full) return { ...unit.summary, saving_vs_full: 0, cost_vs_full: 0, ...intervals };
    const tokens = pairedTotals(unit, full, stepTokens);
    const usd = pairedTotals(unit, full, (step) => step.costUsd);
    return {
      ...unit.summary,
      saving_vs_full: tokens === undefined ? null : 1 - tokens.mine / tokens.theirs,
      cost_vs_full: usd === undefined ? null : usd.mine / usd.theirs - 1,
      ...intervals,
    };
  });
}

describe('the figures of a unit for its pairing with full, in columns', () => {
  const units = [
    drawnUnit('full', 9, 1),
    drawnUnit('window', 9, 2),
    drawnUnit('unpriced', 9, 3, { unpriced: 0.2 }),
    drawnUnit('short', 4, 4),
    drawnUnit('one-log', 1, 5),
  ];

  it('pair every unit as its records do, and equally whole or kept for the pairing alone', () => {
    const figures = units.map(pairedFiguresOf);
    const summaries = pairSummaries(figures);
    const expected = referenceSummaries(units);
    summaries.forEach((summary, i) => expect(Object.entries(summary)).toStrictEqual(Object.entries(expected[i] as SummaryRow)));
    expect(applySavingVsFull(units).map((unit) => unit.summary)).toStrictEqual(summaries);
    expect(summaries[1]?.saving_vs_full).not.toBeNull();
    expect(summaries[1]?.saving_ci_low).not.toBeNull();
    expect(summaries[2]?.cost_vs_full_ci_low).toBeNull();
    expect(summaries[4]?.saving_ci_low).toBeNull();
    // A summary-only run keeps the figures beside the unit; one that keeps every unit whole pairs the records: the same rows.
    const kept = new FinishedUnits(false);
    const summaryOnly = new FinishedUnits(true);
    units.forEach((unit, index) => {
      const whole = { ...unit, options: {}, events: [] } as unknown as UnitResult;
      kept.set(index, whole);
      summaryOnly.set(index, whole);
    });
    const plan = units.map((_, index) => ({ index }));
    expect(summaryOnly.results(plan).map((unit) => unit.summary)).toEqual(kept.results(plan).map((unit) => unit.summary));
  });
});

describe('bootstrapRatioInterval', () => {
  it('is bootstrapInterval of the same ratio, to the last bit, zero denominators left out', () => {
    const next = stream(11);
    for (let t = 0; t < 20; t++) {
      const count = 1 + Math.floor(next() * 30);
      const pairs = Array.from({ length: count }, () => ({ mine: next() * 1e3, theirs: next() < 0.3 ? 0 : next() * 1e3 }));
      const ratio = (drawn: readonly { mine: number; theirs: number }[]) => {
        let mine = 0;
        let theirs = 0;
        for (const pair of drawn) {
          mine += pair.mine;
          theirs += pair.theirs;
        }
        return theirs === 0 ? null : 1 - mine / theirs;
      };
      const options = { resamples: 500, confidence: 0.95, seed: t };
      const columns = [Float64Array.from(pairs, (p) => p.mine), Float64Array.from(pairs, (p) => p.theirs)] as const;
      expect(bootstrapRatioInterval(...columns, (r) => 1 - r, options)).toEqual(bootstrapInterval(pairs, ratio, options));
    }
    expect(bootstrapRatioInterval(new Float64Array(0), new Float64Array(0), (r) => r, { resamples: 10, confidence: 0.9, seed: 1 })).toBeNull();
  });
});
