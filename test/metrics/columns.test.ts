import { describe, expect, it } from 'vitest';
import { SUMMARY_COLUMNS, SUMMARY_CONTRACT_COLUMNS } from '../../src/metrics/columns.js';
import { summarizeUnit } from '../../src/metrics/summarize.js';

describe('summary columns', () => {
  it('the contract prefix is exactly DESIGN.md §8, in order', () => {
    expect(SUMMARY_CONTRACT_COLUMNS.join(', ')).toBe(
      'scenario, strategy, steps, steps_completed, crashed, crash_kind, crash_step, prompt_tokens, ' +
        'completion_tokens, overhead_tokens, total_tokens, peak_context_tokens, saving_vs_full, ' +
        'rate_limit_hits, wait_ms, compactions, retention, answer_recall, probes',
    );
  });

  it('list every field of a summary row exactly once, in the order summarizeUnit builds them', () => {
    const row = summarizeUnit({ scenario: 's', strategy: 'x', totalSteps: 0, steps: [], events: [] });
    expect([...SUMMARY_COLUMNS]).toEqual(Object.keys(row));
  });
});
