import type { CallPurpose } from '../providers/types.js';
import type { RunEvent, StepRecord } from '../engine/types.js';
import type { SummaryRow } from './types.js';

/** The probe figures of a unit, already reduced by the probes module; `null` = not measured. */
export interface ProbeFigures {
  retention: number | null;
  answerRecall: number | null;
  count: number | null;
}

export interface UnitSummaryInput {
  scenario: string;
  strategy: string;
  /** Steps in the transcript (assistant messages), whether or not the replay reached them. */
  totalSteps: number;
  steps: StepRecord[];
  events: RunEvent[];
  probes?: ProbeFigures;
}

/**
 * Calls that are not the strategy's own work (DESIGN.md §3): `step` is agent work, counted as
 * prompt/completion; `probe` and `judge` are measurement, reported apart. Every other purpose
 * (summary, recap, retrieval, any added later) is overhead charged to the strategy.
 */
const NOT_OVERHEAD: ReadonlySet<CallPurpose> = new Set<CallPurpose>(['step', 'probe', 'judge']);

/** The strategy label of the baseline that `saving_vs_full` compares against. */
export const FULL_BASELINE = 'full';

/**
 * Reduces one scenario × strategy run to its summary row (`saving_vs_full` is filled later, across
 * rows, by `applySavingVsFull`). Conventions:
 * - tokens are what providers bill: prompt/completion of `ok` steps, input + output of `ok`
 *   overhead calls (a refused or failed call is not billed). `StepRecord.overheadTokens` is the
 *   per-step view of the same calls and is not added again;
 * - `rate_limit_hits` counts `failure` events of kind `rate-limit` (every 429, whichever call it
 *   hit); `StepRecord.rateLimitHits` is the per-step view of the same failures, not added again;
 * - peak and mean context cover every step record, crashed ones included: the context a strategy
 *   tried to send is what overflowed;
 * - `compactions` counts `action` events whose action is `compact` (strategies emit one per
 *   compaction; `summary`/`recap` actions describe the calls inside it).
 */
export function summarizeUnit(input: UnitSummaryInput): SummaryRow {
  const okSteps = input.steps.filter((step) => step.status === 'ok');
  const crash = input.events.find((event) => event.type === 'crash');
  const overhead = sumOverheadCalls(input.events);
  const promptTokens = sum(okSteps, (step) => step.promptTokens);
  const completionTokens = sum(okSteps, (step) => step.completionTokens);
  const contexts = input.steps.map((step) => step.contextTokens);
  return {
    scenario: input.scenario,
    strategy: input.strategy,
    steps: input.totalSteps,
    steps_completed: okSteps.length,
    crashed: crash !== undefined,
    crash_kind: crash?.kind ?? null,
    crash_step: crash?.step ?? null,
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    overhead_tokens: overhead.tokens,
    total_tokens: promptTokens + completionTokens + overhead.tokens,
    peak_context_tokens: contexts.reduce((peak, tokens) => Math.max(peak, tokens), 0),
    saving_vs_full: null,
    rate_limit_hits: input.events.filter((e) => e.type === 'failure' && e.failure.kind === 'rate-limit').length,
    wait_ms: sum(input.events, (e) => (e.type === 'wait' ? e.ms : 0)),
    compactions: input.events.filter((e) => e.type === 'action' && e.action === 'compact').length,
    retention: input.probes?.retention ?? null,
    answer_recall: input.probes?.answerRecall ?? null,
    probes: input.probes?.count ?? null,
    mean_context_tokens: contexts.length === 0 ? 0 : sum(contexts, (tokens) => tokens) / contexts.length,
    cached_prefix_share: promptTokens === 0 ? null : sum(okSteps, (step) => step.cachedPrefixTokens) / promptTokens,
    overhead_calls: overhead.calls,
  };
}

function sumOverheadCalls(events: readonly RunEvent[]): { tokens: number; calls: number } {
  let tokens = 0;
  let calls = 0;
  for (const event of events) {
    if (event.type !== 'call' || !event.ok || NOT_OVERHEAD.has(event.purpose)) continue;
    tokens += event.inputTokens + event.outputTokens;
    calls += 1;
  }
  return { tokens, calls };
}

/**
 * Fills `saving_vs_full` for every row of a scenario that has a `full` row: the saving in total
 * tokens *per completed step*, `1 − (total / steps_completed) / (full_total / full_steps_completed)`.
 * Per completed step, because `full` often overflows early and a strategy may crash early too:
 * comparing raw totals would reward whoever stops first. When both complete every step this is
 * exactly `1 − total / full_total`. The contract wants a fraction in [0, 1], so a strategy that
 * costs more than `full` is clamped to 0 (its `total_tokens` still shows by how much). `full`
 * itself gets 0; `null` when the scenario has no `full` row or either side completed no step.
 * Returns new rows; the input is not changed.
 */
export function applySavingVsFull(rows: readonly SummaryRow[]): SummaryRow[] {
  const baselines = new Map<string, SummaryRow>();
  for (const row of rows) if (row.strategy === FULL_BASELINE) baselines.set(row.scenario, row);
  return rows.map((row) => ({ ...row, saving_vs_full: savingVsFull(row, baselines.get(row.scenario)) }));
}

function savingVsFull(row: SummaryRow, full: SummaryRow | undefined): number | null {
  if (full === undefined) return null;
  if (row === full) return 0;
  if (row.steps_completed === 0 || full.steps_completed === 0 || full.total_tokens === 0) return null;
  const ratio = row.total_tokens / row.steps_completed / (full.total_tokens / full.steps_completed);
  return Math.min(1, Math.max(0, 1 - ratio));
}

/** A message of a prompt, as the cached-prefix measure sees it: its identity and its tokens. */
export interface PromptPart {
  /** Fingerprint of the message as sent (role + content); equal keys mean identical bytes. */
  key: string;
  tokens: number;
}

/**
 * Tokens of the longest common prefix of two consecutive prompts, message by message: what a
 * provider's prompt cache could reuse (`StepRecord.cachedPrefixTokens`). Counted on `current`.
 */
export function sharedPrefixTokens(previous: readonly PromptPart[], current: readonly PromptPart[]): number {
  let tokens = 0;
  for (let i = 0; i < current.length; i++) {
    const part = current[i] as PromptPart;
    if (previous[i]?.key !== part.key) break;
    tokens += part.tokens;
  }
  return tokens;
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += value(item);
  return total;
}
