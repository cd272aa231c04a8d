import type { FailureKind, ProviderMode, ProviderName } from '../providers/types.js';
import type { RunEvent, StepRecord } from '../engine/types.js';

export const RESULT_SCHEMA_VERSION = 1;

/** One row of `summary.csv` (DESIGN.md §8, "The summary contract"); `null` = not measured. */
export interface SummaryRow {
  scenario: string;
  strategy: string;
  steps: number;
  steps_completed: number;
  crashed: boolean;
  crash_kind: FailureKind | null;
  crash_step: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  overhead_tokens: number;
  total_tokens: number;
  peak_context_tokens: number;
  saving_vs_full: number | null;
  rate_limit_hits: number;
  wait_ms: number;
  compactions: number;
  retention: number | null;
  answer_recall: number | null;
  probes: number | null;
  // Columns after the contract's; scripts may rely on the contract prefix only.
  mean_context_tokens: number;
  cached_prefix_share: number | null;
  overhead_calls: number;
}

/** The result of one scenario × strategy unit. */
export interface UnitResult {
  scenario: string;
  strategy: string;
  /** The strategy's resolved options (defaults filled). */
  options: Record<string, unknown>;
  summary: SummaryRow;
  steps: StepRecord[];
  /** Strategy actions, failures, waits, calls and crashes, in order. */
  events: RunEvent[];
}

export interface ScenarioInfo {
  name: string;
  file: string;
  description?: string;
  transcript: string;
  provider: ProviderName;
  model: string;
  window: number;
  tpm?: number;
  rpm?: number;
  rpd?: number;
  steps: number;
  seed: number;
  /** Lines a lenient load skipped. */
  skippedLines: number;
}

/** The versioned, deterministic result of a run (`result.json`). No wall-clock times inside. */
export interface RunResult {
  schemaVersion: typeof RESULT_SCHEMA_VERSION;
  tool: { name: 'ctxbench'; version: string };
  seed: number;
  mode: ProviderMode;
  scenarios: ScenarioInfo[];
  units: UnitResult[];
}
