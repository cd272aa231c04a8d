import type { CallPurpose } from '../contracts/provider.js';
import type { RunEvent, StepRecord } from './run-events.js';
import type { SummaryRow } from './types.js';
import { NO_INTERVALS, unitIntervals } from './intervals.js';
import { completedSteps, pairedFiguresOf, type PairedFigures, type SavingInput } from './paired-figures.js';
import { NO_NEEDED, type NeededFigures } from './needed.js';

/** The probe figures of a unit, already reduced by the probes module; `null` = not measured. */
export interface ProbeFigures {
  retention: number | null;
  answerRecall: number | null;
  count: number | null;
  /** Ask points never reached: the session crashed or ended first. */
  unanswered?: number | null;
  /** Ask points left out as invalid (the reader failed on `full`'s context there). */
  invalid?: number | null;
  /** Answer recall under the reader's context-length effect; present only when it was on. */
  answerRecallRot?: number | null;
  /** The needed-fact figures (metrics/needed.ts); absent when the probe set has no needed facts. */
  needed?: NeededFigures;
  /** Answer recall over the ask points whose fact is needed later; absent likewise. */
  answerRecallNeeded?: number | null;
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

// The intervals before the needed columns, so that a row's keys are in column order (result.json).
const { needed_recall_ci_low: _low, needed_recall_ci_high: _high, ...COST_AND_RECALL_INTERVALS } = NO_INTERVALS;

/** The strategy label of the baseline that `saving_vs_full` compares against. */
const FULL_BASELINE = 'full';

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
    unanswered: input.probes?.unanswered ?? null,
    logs: null,
    crashed_logs: null,
    retrieval_tokens: sum(okSteps, (step) => step.retrievalTokens ?? 0),
    cached_input_tokens: sum(okSteps, (step) => step.cachedPrefixTokens),
    cache_write_tokens: sum(okSteps, (step) => step.cacheWriteTokens ?? 0),
    cost_usd: input.steps.some((step) => step.costUsd !== undefined) ? sum(input.steps, (step) => step.costUsd ?? 0) : null,
    cost_vs_full: null,
    invalid_asks: input.probes?.invalid ?? null,
    ...COST_AND_RECALL_INTERVALS,
    ...neededColumns(input.probes?.needed ?? NO_NEEDED),
    needed_recall_ci_low: null,
    needed_recall_ci_high: null,
    answer_recall_needed: input.probes?.answerRecallNeeded ?? null,
    ...(input.probes?.answerRecallRot !== undefined ? { answer_recall_rot: input.probes.answerRecallRot } : {}),
  };
}

function neededColumns(needed: NeededFigures): Pick<SummaryRow, 'needed_facts' | 'needed_recall' | 'needed_recoverable' | 'needed_lost'> {
  return { needed_facts: needed.facts, needed_recall: needed.recall, needed_recoverable: needed.recoverable, needed_lost: needed.lost };
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
 * Fills `saving_vs_full` and `cost_vs_full` for every unit whose scenario has a `full` unit. Both
 * are paired: over the steps that both the unit and `full` completed, saving = 1 − (the unit's
 * prompt + completion + overhead tokens) / (full's), unclamped — negative when the strategy
 * spends more tokens than `full` — and cost_vs_full = (the unit's USD) / (full's) − 1. Pairing
 * keeps a crash of `full` from rewarding whoever stops first. `full` itself is 0; null when there
 * is no `full` unit or no step both completed (or, for cost, no price). Over several logs, the
 * bootstrap intervals of both and of answer recall too (metrics/intervals.ts).
 */
export function applySavingVsFull<T extends SavingInput>(units: readonly T[]): T[] {
  const summaries = pairSummaries(units.map(pairedFiguresOf));
  return units.map((unit, i) => ({ ...unit, summary: summaries[i] as SummaryRow }));
}

/** `applySavingVsFull` of units given by their figures (`pairedFiguresOf`): each one's summary with the pairing's figures filled in. */
export function pairSummaries(units: readonly PairedFigures[]): SummaryRow[] {
  const baselines = new Map<string, PairedFigures>();
  for (const unit of units) if (unit.summary.strategy === FULL_BASELINE) baselines.set(unit.summary.scenario, unit);
  // Each full's completed steps are found once, for every unit of its scenario.
  const completed = new Map([...baselines.values()].map((full) => [full, completedSteps(full)] as const));
  return units.map((unit) => {
    const full = baselines.get(unit.summary.scenario);
    const steps = full !== undefined ? (completed.get(full) as Map<number, number>) : undefined;
    const intervals = unitIntervals(unit, full, steps);
    if (unit === full) return { ...unit.summary, saving_vs_full: 0, cost_vs_full: unit.summary.cost_usd === null ? null : 0, ...intervals };
    const paired = full !== undefined && steps !== undefined ? pairedTotals(unit, full, steps) : undefined;
    return {
      ...unit.summary,
      saving_vs_full: paired?.tokens === undefined ? null : 1 - paired.tokens.mine / paired.tokens.theirs,
      cost_vs_full: paired?.usd === undefined ? null : paired.usd.mine / paired.usd.theirs - 1,
      ...intervals,
    };
  });
}

/**
 * The unit's and `full`'s tokens and USD summed over the steps both completed (`completed`: full's,
 * by number), in the unit's order; each undefined when there is nothing to compare (the USD also
 * when a step of a pair has none).
 */
function pairedTotals(
  unit: PairedFigures,
  full: PairedFigures,
  completed: ReadonlyMap<number, number>,
): { tokens?: { mine: number; theirs: number }; usd?: { mine: number; theirs: number } } {
  const tokens = { mine: 0, theirs: 0 };
  let usd: { mine: number; theirs: number } | undefined = { mine: 0, theirs: 0 };
  const mine = unit.steps;
  const theirs = full.steps;
  for (let i = 0; i < mine.length; i++) {
    if (mine.ok[i] !== 1) continue;
    const pair = completed.get(mine.step[i] as number);
    if (pair === undefined) continue;
    tokens.mine += mine.tokens[i] as number;
    tokens.theirs += theirs.tokens[pair] as number;
    if (usd === undefined) continue;
    if (mine.priced[i] !== 1 || theirs.priced[pair] !== 1) usd = undefined;
    else {
      usd.mine += mine.cost[i] as number;
      usd.theirs += theirs.cost[pair] as number;
    }
  }
  return {
    ...(tokens.theirs !== 0 ? { tokens } : {}),
    ...(usd !== undefined && usd.theirs !== 0 ? { usd } : {}),
  };
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += value(item);
  return total;
}
