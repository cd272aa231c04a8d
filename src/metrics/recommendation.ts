/**
 * The decision a run or sweep answers (issue 27): which strategy, with which settings, to ship
 * under a stated objective and constraints. Computed from the summary rows (engine side), carried
 * in `result.json` as `recommendation`, and read by every renderer (terminal, summary.md, HTML).
 */

/** What the user minimises among the strategies that pass every constraint. */
export type Objective = 'cost' | 'tokens' | 'peak';

/** How a strategy fares against the constraints, in the order a reader cares about. */
export type Verdict = 'recommended' | 'acceptable' | 'unsafe-recall' | 'crashes' | 'dearer-than-full';

/** How figures of several scenarios (or logs) are combined into one per strategy. */
export type AggregateRule = 'worst-case' | 'mean';

export interface RecommendationConstraints {
  /**
   * The recall floor: `relative` = at most `points` below `full`'s answer recall (0.05 = 5
   * points); `absolute` = at least `value`.
   */
  minRecall: { kind: 'relative'; points: number } | { kind: 'absolute'; value: number };
  /** Crashed units (or logs) allowed beyond those where `full` crashes too. */
  maxCrashes: number;
}

/** One candidate (a strategy, with settings for sweep points) and its figures under the rule. */
export interface Candidate {
  strategy: string;
  /** Options that differ from the strategy's defaults (empty for a plain run). */
  settings: Record<string, unknown>;
  verdict: Verdict;
  /** Why, in words: "recall 10 % vs full's 85 %", "crashed on 2 of 5 logs", "cheapest that passes". */
  reason: string;
  /** 1-based rank by the objective among all candidates (ties keep strategy order). */
  rank: number;
  costUsd: number | null;
  totalTokens: number;
  peakContextTokens: number;
  answerRecall: number | null;
  /** Crashed units (or logs, over several logs). */
  crashes: number;
  /** Of `crashes`, those where `full` did not crash (for `full`, its own): what `maxCrashes` limits. */
  crashesBeyondFull?: number;
  /** Per-scenario figures when several scenarios were aggregated, to show disagreement. */
  perScenario?: { scenario: string; verdict: Verdict; costUsd: number | null; answerRecall: number | null; crashed: boolean }[];
}

export interface Recommendation {
  objective: Objective;
  constraints: RecommendationConstraints;
  aggregate: AggregateRule;
  /** The strategy to ship, or null when none passes (then `reason` says why). */
  strategy: string | null;
  settings: Record<string, unknown>;
  reason: string;
  runnerUp: { strategy: string; settings: Record<string, unknown> } | null;
  /** Every candidate, ranked by the objective. */
  candidates: Candidate[];
}
