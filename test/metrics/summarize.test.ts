import { describe, expect, it } from 'vitest';
import type { RunEvent, StepRecord } from '../../src/metrics/run-events.js';
import { applySavingVsFull, summarizeUnit } from '../../src/metrics/summarize.js';
import { stepRecord } from '../helpers/records.js';

function step(overrides: Partial<StepRecord> & { step: number }): StepRecord {
  return stepRecord(overrides.step, 1000, { atMs: overrides.step * 1000, completionTokens: 100, contextMessages: 4, ...overrides });
}

const steps: StepRecord[] = [
  step({ step: 0, promptTokens: 1000, completionTokens: 100, contextTokens: 1000, cachedPrefixTokens: 0 }),
  step({
    step: 1,
    promptTokens: 2000,
    completionTokens: 200,
    contextTokens: 2000,
    cachedPrefixTokens: 1000,
    rateLimitHits: 2,
    waitMs: 3000,
    overheadTokens: 550,
  }),
  step({ step: 2, promptTokens: 0, completionTokens: 0, contextTokens: 9000, status: 'crashed', failure: 'overflow' }),
];

const events: RunEvent[] = [
  { type: 'failure', step: 1, atMs: 1000, attempt: 0, failure: { kind: 'rate-limit', message: '429', retryAfterMs: 1000 } },
  { type: 'wait', step: 1, atMs: 1000, ms: 1000, reason: 'rate-limit' },
  { type: 'failure', step: 1, atMs: 2000, attempt: 1, failure: { kind: 'rate-limit', message: '429', retryAfterMs: 2000 } },
  { type: 'wait', step: 1, atMs: 2000, ms: 2000, reason: 'rate-limit' },
  { type: 'action', step: 1, atMs: 4000, action: 'trigger', reason: 'over 80%', tokensBefore: 2500, tokensAfter: 2500 },
  { type: 'call', step: 1, atMs: 4000, purpose: 'summary', inputTokens: 500, outputTokens: 50, ok: true },
  { type: 'call', step: 1, atMs: 4000, purpose: 'summary', inputTokens: 0, outputTokens: 0, ok: false, failure: 'rate-limit' },
  { type: 'action', step: 1, atMs: 4000, action: 'summary', reason: 'summarised 3 groups', tokensBefore: 2500, tokensAfter: 2000 },
  { type: 'action', step: 1, atMs: 4000, action: 'compact', reason: 'over 80%', tokensBefore: 2500, tokensAfter: 2000 },
  { type: 'call', step: 1, atMs: 5000, purpose: 'probe', inputTokens: 2000, outputTokens: 20, ok: true },
  { type: 'call', step: 1, atMs: 5000, purpose: 'judge', inputTokens: 300, outputTokens: 5, ok: true },
  { type: 'failure', step: 2, atMs: 9000, attempt: 0, failure: { kind: 'overflow', message: 'too long' } },
  { type: 'crash', step: 2, atMs: 9000, kind: 'overflow', message: 'too long' },
  { type: 'crash', step: 3, atMs: 9500, kind: 'server', message: 'later crash (on-crash continue)' },
];

describe('summarizeUnit', () => {
  const row = summarizeUnit({ scenario: 's', strategy: 'rolling-window', totalSteps: 5, steps, events });

  it('counts steps, completed steps and the first crash', () => {
    expect(row).toMatchObject({
      scenario: 's',
      strategy: 'rolling-window',
      steps: 5,
      steps_completed: 2,
      crashed: true,
      crash_kind: 'overflow',
      crash_step: 2,
    });
  });

  it('charges ok steps and the strategy own ok calls, not probes or judges', () => {
    expect(row).toMatchObject({ prompt_tokens: 3000, completion_tokens: 300, overhead_tokens: 550, total_tokens: 3850, overhead_calls: 1 });
  });

  it('takes peak and mean context over every step, the crashed one included', () => {
    expect(row.peak_context_tokens).toBe(9000);
    expect(row.mean_context_tokens).toBe(4000);
  });

  it('counts 429s from failure events once, waits, and compact actions only', () => {
    expect(row).toMatchObject({ rate_limit_hits: 2, wait_ms: 3000, compactions: 1 });
  });

  it('cached prefix share is cached prefix tokens over prompt tokens', () => {
    expect(row.cached_prefix_share).toBeCloseTo(1000 / 3000, 12);
  });

  it('leaves probes and saving unmeasured unless given', () => {
    expect(row).toMatchObject({ retention: null, answer_recall: null, probes: null, saving_vs_full: null });
    const probed = summarizeUnit({ scenario: 's', strategy: 'x', totalSteps: 5, steps, events, probes: { retention: 0.75, answerRecall: 0.5, count: 4 } });
    expect(probed).toMatchObject({ retention: 0.75, answer_recall: 0.5, probes: 4 });
  });

  it('an empty run is all zeros, not crashed, with no prefix share', () => {
    const empty = summarizeUnit({ scenario: 's', strategy: 'x', totalSteps: 0, steps: [], events: [] });
    expect(empty).toMatchObject({
      steps: 0,
      steps_completed: 0,
      crashed: false,
      crash_kind: null,
      crash_step: null,
      total_tokens: 0,
      peak_context_tokens: 0,
      mean_context_tokens: 0,
      cached_prefix_share: null,
    });
  });
});

describe('applySavingVsFull', () => {
  /** A unit with `costs[i]` tokens at step i; `null` marks a crashed step. */
  function unit(scenario: string, strategy: string, costs: (number | null)[]) {
    const steps: StepRecord[] = costs.map((cost, step) => ({
      step,
      messageId: `m${step}`,
      atMs: 0,
      promptTokens: cost ?? 0,
      completionTokens: 0,
      contextTokens: cost ?? 0,
      contextMessages: 1,
      cachedPrefixTokens: 0,
      overheadTokens: 0,
      retries: 0,
      rateLimitHits: 0,
      waitMs: 0,
      status: cost === null ? 'crashed' : 'ok',
    }));
    return { summary: summarizeUnit({ scenario, strategy, totalSteps: costs.length, steps, events: [] }), steps };
  }
  const savings = (units: ReturnType<typeof unit>[]) => applySavingVsFull(units).map((u) => u.summary.saving_vs_full);

  it('is 1 − tokens/full tokens when both complete every step; full itself is 0', () => {
    expect(savings([unit('a', 'full', [1000, 2000, 3000]), unit('a', 'rolling-window', [1000, 1000, 1000])])).toEqual([0, 0.5]);
  });

  it('compares only the steps both completed when full crashed early', () => {
    // full crashed at step 2; the strategy's cheap late steps do not count against it.
    const result = savings([unit('a', 'full', [1000, 2000, null]), unit('a', 'window', [1000, 500, 5000])]);
    expect(result[1]).toBeCloseTo(0.5, 12);
  });

  it('is negative, unclamped, for a strategy that spends more tokens than full', () => {
    expect(savings([unit('a', 'full', [1000, 1000]), unit('a', 'costly', [1500, 1500])])[1]).toBe(-0.5);
  });

  it('fills cost_vs_full as paired USD / full USD − 1, positive when dearer', () => {
    const priced = (strategy: string, usd: number[]) => {
      const base = unit(
        'a',
        strategy,
        usd.map(() => 1000),
      );
      const steps = base.steps.map((s, i) => ({ ...s, costUsd: usd[i] as number }));
      return { summary: summarizeUnit({ scenario: 'a', strategy, totalSteps: usd.length, steps, events: [] }), steps };
    };
    const out = applySavingVsFull([priced('full', [0.01, 0.02]), priced('window', [0.03, 0.03]), unit('a', 'unpriced', [1000, 1000])]);
    expect(out.map((u) => u.summary.cost_usd)).toEqual([0.03, 0.06, null]);
    expect(out[0]?.summary.cost_vs_full).toBe(0);
    expect(out[1]?.summary.cost_vs_full).toBeCloseTo(1, 12);
    expect(out[2]?.summary.cost_vs_full).toBeNull();
  });

  it('is null without a full unit in the scenario, or when no step was completed by both', () => {
    const result = savings([
      unit('a', 'full', [1000]),
      unit('b', 'rolling-window', [500]),
      unit('a', 'dead', [null]),
      unit('c', 'full', [null]),
      unit('c', 'rolling-window', [500]),
    ]);
    expect(result).toEqual([0, null, null, 0, null]);
  });

  it('returns new units and leaves the input alone', () => {
    const input = [unit('a', 'full', [1000]), unit('a', 'x', [500])];
    const output = applySavingVsFull(input);
    expect(input.map((u) => u.summary.saving_vs_full)).toEqual([null, null]);
    expect(output[1]).not.toBe(input[1]);
  });
});
