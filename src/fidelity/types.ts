import type { ProviderName } from '../contracts/provider.js';
import type { Encoding } from '../tokens/types.js';
import type { ErrorStats, LineFit } from '../stats.js';

// Defined beside the statistics that produce them; re-exported for the fidelity report.
export type { ErrorStats };

/**
 * Token-accounting fidelity (issue 5): how far the prompt tokens ctxbench computes for a replayed
 * step are from the input tokens the real agent recorded for the same call.
 *
 * Errors are relative to the recorded count: `(computed − recorded) / recorded`, so a negative
 * error means ctxbench counts fewer tokens than the provider charged.
 */

/** One replayed step whose recorded call carries an input count. */
export interface FidelityStep {
  /** 0-based index of the step (the assistant message) in the transcript. */
  step: number;
  /** Id of the recorded assistant message the step completes. */
  messageId: string;
  /** The model that served the call, as the agent recorded it. */
  model?: string;
  /** Prompt tokens ctxbench charged `recorded` at this step (calibrated, hidden prefix and reasoning included). */
  computed: number;
  /** Input tokens the agent recorded for the call: the whole prompt, the cached part included. */
  recorded: number;
  /** Of `recorded`, the tokens the provider served from its prompt cache, when recorded. */
  cachedInput?: number;
  /** Of ctxbench's prompt, the tokens its cache model (src/cache/) predicts are served from cache: the expected hit rate for implicit caches. */
  predictedCached?: number;
  /** Of ctxbench's prompt, the longest prefix the provider still holds (the upper bound of an implicit cache; = predicted for explicit ones). */
  upperBoundCached?: number;
  /** Of `computed`: the hidden prefix (and what a recorded compaction re-attached). */
  hidden: number;
  /** Of `computed`: the current turn's reasoning or thinking re-sent as input. */
  reasoning: number;
  /** o200k_base as it is, without the hidden prefix: ctxbench's count of the logged messages. */
  rawError: number;
  /** o200k_base as it is, with the hidden prefix estimated in those units. */
  uncalibratedError: number;
  /** `(computed − recorded) / recorded`: calibrated, hidden prefix included — the figure that counts. */
  offsetError: number;
}

/** The comparison for one transcript file. */
export interface FidelityFile {
  /** The file as given, relative to the working directory. */
  file: string;
  /** The log's format (`codex`, `gemini-cli`, ...); `ctx` for a canonical file without a source. */
  format: string;
  /** The provider format the replay used (chosen by the transcript's dialect). */
  provider: ProviderName;
  model: string;
  encoding: Encoding;
  /** Counts calibrated for a model whose tokenizer is not public (src/tokens/calibration.ts). */
  calibrated: boolean;
  /** Steps the replay ran. */
  steps: number;
  /** Steps whose recorded call has no input count (not compared). */
  withoutUsage: number;
  /** Steps `full` could not send (none expected: the replay has no window and no quota). */
  crashed: number;
  /**
   * Tokens the agent sent that the log does not hold (its system prompt, tool schemas), as the
   * replay charged it (replay/hidden-prefix.ts). 0 when no step has usage.
   */
  offset: number;
  /** How many first steps the offset was estimated on. */
  offsetSteps: number;
  /** Tokens the agent re-attached after each of its compactions, by compaction id. */
  restored?: Record<string, number>;
  /** Content the agent sent with logged messages but did not log (replay/unlogged.ts): tokens in all, messages carrying it. */
  unlogged?: { tokens: number; messages: number };
  /**
   * Where the agent rebuilt its context from its log without logging it (replay/unlogged.ts
   * `RESET_MIN_TOKENS`): the first step after it, the hidden prefix measured anew there, and the
   * first tool result after that step (the agent's own account: "File has not been read yet").
   */
  rebuilds?: Rebuild[];
  /** The agent's own compactions (with a summary) the replay followed. */
  compactions: number;
  /** Theil–Sen fit over every compared step; absent below two distinct computed counts. */
  fit?: LineFit;
  compared: FidelityStep[];
  /** Predicted against recorded cache reads (fidelity/cache.ts); absent when the log records none. */
  cache?: CacheFidelity;
}

/** How the cache model's predicted cache reads compare with a log's recorded ones. */
export interface CacheFidelity {
  /** Steps whose recorded call has a cached-input count. */
  steps: number;
  /** Recorded cached tokens / recorded prompt tokens, over those steps. */
  recordedShare: number;
  /**
   * Predicted cached tokens / the prompt tokens ctxbench computed, over those steps: the share the
   * cache model predicts, apart from the token error (reported beside it) in the prompt's size.
   */
  predictedShare: number;
  /**
   * Median over those steps of |predicted share − recorded share| of the step's prompt: the error
   * in cached tokens as a share of the step's prompt, once both are taken on the same prompt.
   */
  medianAbsError: number;
  /** Predicted cached tokens / recorded prompt tokens: the token error and the cache error together. */
  predictedOfRecorded: number;
  /** The upper bound's share (the longest live prefix, every time), beside the prediction. */
  upperBoundShare: number;
  /** The cache model used for the prediction, in words (src/cache/families.ts `describeCacheRules`). */
  model: string;
}

/** Predicted and recorded cached shares pooled over the files of one format. */
export interface FormatCacheFidelity {
  format: string;
  files: number;
  steps: number;
  recordedShare: number;
  predictedShare: number;
  upperBoundShare: number;
  /** The cache models the format's files were predicted with. */
  models: string[];
}

/** The step of a format with the largest absolute offset-corrected error. */
export interface WorstStep {
  file: string;
  step: number;
  messageId: string;
  model?: string;
  computed: number;
  recorded: number;
  offset: number;
  rawError: number;
  offsetError: number;
}

/** Errors pooled over every file of one format. */
export interface FormatFidelity {
  format: string;
  files: number;
  /** Steps compared (with a recorded input count). */
  steps: number;
  /** Without an offset: ctxbench's count against the recorded one. Absent when no step compared. */
  raw?: ErrorStats;
  /** o200k_base as it is, with each file's hidden prefix estimated in those units. */
  uncalibrated?: ErrorStats;
  /** Calibrated, with each file's hidden prefix: the figure that counts. */
  offset?: ErrorStats;
  worst?: WorstStep;
}

export interface FidelityReport {
  /** The strategy replayed (always `recorded`: what the agent sent, its compactions followed). */
  strategy: 'recorded';
  files: FidelityFile[];
  formats: FormatFidelity[];
  /** Per format whose logs record cache reads: predicted against recorded cached share. */
  cache: FormatCacheFidelity[];
}

/** One rebuild of the context from the log (FidelityFile.rebuilds). */
export interface Rebuild {
  step: number;
  /** The hidden prefix from this step on (calibrated units). */
  prefix: number;
  /** The first tool result after the step, cut to 120 characters. */
  nextResult?: string;
}
