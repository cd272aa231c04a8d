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
   * The recall floor: `needed` = at most `maxLost` of the needed facts (those the session's own
   * future used) lost beyond recovery (0.05 = 5 %; docs/decision.md says why); `relative` = at most
   * `points` below the reference's answer recall (0.05 = 5 points; the reference is `full`, or,
   * where `full` crashed, the best strategy that completes); `absolute` = answer recall at least
   * `value`. A needed floor falls back to `relative` 5 points where needed facts were not measured.
   */
  minRecall: { kind: 'needed'; maxLost: number } | { kind: 'relative'; points: number } | { kind: 'absolute'; value: number };
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
  /** Share of the needed facts lost beyond recovery (worst or mean over scenarios); null: not measured. */
  neededLost?: number | null;
  /** Share of the needed facts the context held, verbatim or summarized; null: not measured. */
  neededRecall?: number | null;
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
  /**
   * The strategy to ship: the best under the objective among those meeting the floor, else (when
   * at least one completes) the one that loses the fewest needed facts (`meetsFloor` false); null
   * only when nothing completes (then `reason` says why).
   */
  strategy: string | null;
  /** Whether `strategy` meets the recall floor; false when it is only the closest (or none completes). */
  meetsFloor: boolean;
  settings: Record<string, unknown>;
  reason: string;
  runnerUp: { strategy: string; settings: Record<string, unknown> } | null;
  /** Every candidate, ranked by the objective. */
  candidates: Candidate[];
}
