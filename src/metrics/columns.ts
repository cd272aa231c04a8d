import type { SummaryRow } from './types.js';

/**
 * The summary contract (DESIGN.md §8): these columns come first, in this order, in `summary.csv`
 * and every other tabular report, so that CI scripts and spreadsheets can rely on them.
 */
export const SUMMARY_CONTRACT_COLUMNS = [
  'scenario',
  'strategy',
  'steps',
  'steps_completed',
  'crashed',
  'crash_kind',
  'crash_step',
  'prompt_tokens',
  'completion_tokens',
  'overhead_tokens',
  'total_tokens',
  'peak_context_tokens',
  'saving_vs_full',
  'rate_limit_hits',
  'wait_ms',
  'compactions',
  'retention',
  'answer_recall',
  'probes',
] as const satisfies readonly (keyof SummaryRow)[];

/** Columns after the contract's; they may change between versions. */
const SUMMARY_EXTRA_COLUMNS = [
  'mean_context_tokens',
  'cached_prefix_share',
  'overhead_calls',
  'unanswered',
  'logs',
  'crashed_logs',
  'retrieval_tokens',
  'cached_input_tokens',
  'cache_write_tokens',
  'cost_usd',
  'cost_vs_full',
  'invalid_asks',
  'saving_ci_low',
  'saving_ci_high',
  'cost_vs_full_ci_low',
  'cost_vs_full_ci_high',
  'answer_recall_ci_low',
  'answer_recall_ci_high',
  'needed_facts',
  'needed_recall',
  'needed_recoverable',
  'needed_lost',
  'needed_recall_ci_low',
  'needed_recall_ci_high',
  'answer_recall_needed',
] as const satisfies readonly (keyof SummaryRow)[];

/** Every column of a summary row: the contract first, then the extras. */
export const SUMMARY_COLUMNS = [...SUMMARY_CONTRACT_COLUMNS, ...SUMMARY_EXTRA_COLUMNS] as const;

/** Columns written after all others, only when some row has them (an option that is off adds nothing). */
const SUMMARY_OPTIONAL_COLUMNS = ['answer_recall_rot'] as const satisfies readonly (keyof SummaryRow)[];

/** The columns of these rows: every column, then the optional ones some row has. */
export function summaryColumnsOf(rows: readonly SummaryRow[]): readonly (keyof SummaryRow)[] {
  return [...SUMMARY_COLUMNS, ...SUMMARY_OPTIONAL_COLUMNS.filter((column) => rows.some((row) => row[column] !== undefined))];
}

// Fails to compile when a SummaryRow field is missing from the lists above.
type UnlistedColumn = Exclude<keyof SummaryRow, (typeof SUMMARY_COLUMNS)[number] | (typeof SUMMARY_OPTIONAL_COLUMNS)[number]>;
const _summaryColumnsAreComplete: [UnlistedColumn] extends [never] ? true : never = true;
