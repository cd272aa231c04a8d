/** The thresholds of the rules, per scenario × strategy. */
export interface CheckThresholds {
  /** Total tokens may rise by at most this many percent. */
  maxTokenIncrease: number;
  /** Cost in USD (net of prompt cache) may rise by at most this many percent. */
  maxCostIncrease: number;
  /** Answer recall may fall by at most this many percentage points. */
  maxRecallDrop: number;
  /** Retention may fall by at most this many percentage points. */
  maxRetentionDrop: number;
  /** Whether a unit that did not crash in the baseline may crash now. */
  allowNewCrash: boolean;
}

/**
 * How a sampled measure is judged:
 * - `estimate`: the paired point estimate against the threshold (mocked runs are deterministic:
 *   there is no noise to allow for, and every change is real);
 * - `interval`: the bound of the bootstrap confidence interval nearest to no change (a
 *   regression only when the whole interval is beyond the threshold), for live runs;
 * - `auto`: `estimate` when both results are mocked, else `interval`.
 */
type Decision = 'auto' | 'estimate' | 'interval';

/** Every rule of a check, defaults filled (src/check/config.ts). */
export interface CheckRules extends CheckThresholds {
  /** Whether a baseline unit may be missing from the run. */
  allowMissing: boolean;
  decision: Decision;
  /** Confidence level of the bootstrap interval, in (0, 1). */
  confidence: number;
  /** Bootstrap resamples per measure. */
  resamples: number;
  /** Seed of the resampler; each measure derives its own stream from it. */
  seed: number;
  /** Thresholds for some scenarios or strategies (every given key must match; later entries win). */
  overrides: ({ scenario?: string; strategy?: string } & Partial<CheckThresholds>)[];
}

export type MeasureName = 'tokens' | 'cost' | 'answer_recall' | 'retention';

type Verdict = 'pass' | 'regression' | 'not-compared';

/** One measure of one unit, baseline against current. */
export interface MeasureDiff {
  measure: MeasureName;
  /** The summary figures (total tokens; recall and retention as fractions); null = not measured. */
  baseline: number | null;
  current: number | null;
  /**
   * The paired change: percent for tokens (over the steps both runs completed), percentage points
   * for recall and retention (over the probes both runs measured). Null when nothing pairs.
   */
  change: number | null;
  /** Bootstrap confidence interval of `change`; null when nothing pairs. */
  interval: [number, number] | null;
  /** Paired samples: steps for tokens, probes for recall and retention. */
  samples: number;
  /** The threshold: a rise (tokens) or a fall (recall, retention) beyond it is a regression. */
  limit: number;
  verdict: Verdict;
}

/** Why a unit regressed, in words. */
export interface Regression {
  scenario: string;
  strategy: string;
  rule: 'tokens' | 'cost' | 'answer_recall' | 'retention' | 'crash' | 'missing';
  message: string;
}

/** One scenario × strategy of the baseline or of the run. */
export interface UnitDiff {
  scenario: string;
  strategy: string;
  /** `missing`: in the baseline only; `new`: in the run only. */
  status: 'compared' | 'missing' | 'new';
  /** `kind@step` or null, baseline and current. */
  crash: { baseline: string | null; current: string | null };
  measures: MeasureDiff[];
}

/** The outcome of a check: every unit's diff, the regressions, and notes worth reading. */
export interface CheckReport {
  rules: CheckRules;
  /** The decision `auto` resolved to. */
  decision: 'estimate' | 'interval';
  units: UnitDiff[];
  regressions: Regression[];
  /** Differences that do not fail the check (other seeds, another version, new units). */
  notes: string[];
}
