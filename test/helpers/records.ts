import type { StepRecord } from '../../src/metrics/run-events.js';
import type { SummaryRow } from '../../src/metrics/types.js';
import { NO_INTERVALS } from '../../src/metrics/intervals.js';

/**
 * One completed step of `prompt` tokens, context as large, nothing else happening: what a test
 * sets is in `overrides`. One builder for every test, so a new field of StepRecord is one edit.
 */
export function stepRecord(step: number, prompt: number, overrides: Partial<StepRecord> = {}): StepRecord {
  return {
    step,
    messageId: `m${step}`,
    atMs: step,
    promptTokens: prompt,
    completionTokens: 0,
    contextTokens: prompt,
    contextMessages: 1,
    cachedPrefixTokens: 0,
    overheadTokens: 0,
    retries: 0,
    rateLimitHits: 0,
    waitMs: 0,
    status: 'ok',
    ...overrides,
  };
}

/**
 * A summary row of a 10-step unit that completed, 1,000 tokens, recall unmeasured, every later
 * column neutral; a test sets the figures it is about. One builder for every hand-made row, so a
 * new column of the summary contract is one edit.
 */
export function summaryRow(scenario: string, strategy: string, figures: Partial<SummaryRow> = {}): SummaryRow {
  return {
    scenario,
    strategy,
    steps: 10,
    steps_completed: 10,
    crashed: false,
    crash_kind: null,
    crash_step: null,
    prompt_tokens: 0,
    completion_tokens: 0,
    overhead_tokens: 0,
    total_tokens: 1000,
    peak_context_tokens: 500,
    saving_vs_full: null,
    rate_limit_hits: 0,
    wait_ms: 0,
    compactions: 0,
    retention: null,
    answer_recall: null,
    probes: null,
    mean_context_tokens: 0,
    cached_prefix_share: null,
    overhead_calls: 0,
    unanswered: null,
    logs: null,
    crashed_logs: null,
    retrieval_tokens: 0,
    cached_input_tokens: 0,
    cache_write_tokens: 0,
    cost_usd: null,
    cost_vs_full: null,
    invalid_asks: null,
    ...NO_INTERVALS,
    needed_facts: null,
    needed_recall: null,
    needed_recoverable: null,
    needed_lost: null,
    answer_recall_needed: null,
    ...figures,
  };
}
