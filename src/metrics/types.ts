import type { HiddenPrefix } from '../tokens/hidden-tokens.js';
import type { FailureKind, ProviderMode, ProviderName } from '../contracts/provider.js';
import type { RunEvent, StepRecord } from './run-events.js';
import type { ProbeKind } from '../transcript/types.js';
import type { Recommendation } from './recommendation.js';
import type { ShardInfo } from './shard-info.js';

/**
 * 2: a corpus's units (metrics/corpus.ts) are stored summary-only (metrics/summary-only.ts); their
 * steps are in `steps.csv` and `steps.parquet`, their events, answers and needed uses in the other
 * CSVs beside it. 1: every unit whole (still read: a version-1 result is a version-2 one whose
 * units are all whole).
 */
export const RESULT_SCHEMA_VERSION = 2;

/** The result schema versions this ctxbench reads. */
export const READABLE_SCHEMA_VERSIONS: readonly number[] = [1, RESULT_SCHEMA_VERSION];

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
  /**
   * Probe ask points never reached (the session crashed first, or ended before them): not answers,
   * so left out of `answer_recall`; `null` when the scenario has no probes.
   */
  unanswered: number | null;
  /** A scenario of several logs (a folder or pattern): how many were replayed; `null` for one. */
  logs: number | null;
  /** ... and how many of them crashed (`crashed` is true when any did); `null` for one log. */
  crashed_logs: number | null;
  /** Tokens of tool output fetched back because the strategy had cut it (replay/follow-up.ts); part of `prompt_tokens`. */
  retrieval_tokens: number;
  /** Prompt tokens served from the provider's prompt cache (src/cache/), over completed steps. */
  cached_input_tokens: number;
  /** Prompt tokens written to an explicit prompt cache (Anthropic), billed as writes. */
  cache_write_tokens: number;
  /** USD net of cache, the strategy's own calls included, probe calls excluded; `null` when the model has no price. */
  cost_usd: number | null;
  /**
   * Cost against `full` over the steps both completed: its USD / full's − 1 (+0.12 = 12 % dearer,
   * −0.3 = 30 % cheaper); `null` without a `full` unit or a price.
   */
  cost_vs_full: number | null;
  /**
   * Probe ask points left out of `answer_recall` as invalid: the reader did not answer them from
   * `full`'s context at the same point (DESIGN.md §6, the validity filter); `null` without probes.
   */
  invalid_asks: number | null;
  /**
   * A scenario of several logs: 95 % percentile-bootstrap interval over its logs (metrics/intervals.ts)
   * of `saving_vs_full`, `cost_vs_full` and `answer_recall`; `null` for one log or not measured.
   */
  saving_ci_low: number | null;
  saving_ci_high: number | null;
  cost_vs_full_ci_low: number | null;
  cost_vs_full_ci_high: number | null;
  answer_recall_ci_low: number | null;
  answer_recall_ci_high: number | null;
  /**
   * Needed facts (docs/probes.md, "Needed recall"): the uses of a fact the session's own future
   * made, measured at the step of each use on the context the strategy sent. `needed_facts` counts
   * the uses the replay reached (a crash came before none of them); `null` when the scenario has
   * no needed uses (no probes, or nothing used again).
   */
  needed_facts: number | null;
  /** Share of the uses reached whose fact the context held verbatim or in a summary the strategy wrote (`kept` + `summarized`). */
  needed_recall: number | null;
  /** Share of the uses reached whose fact was only behind a reference or a file or command to re-read (`recoverable`). */
  needed_recoverable: number | null;
  /** Share of the uses reached whose fact the context did not hold at all (`lost`). */
  needed_lost: number | null;
  /** A scenario of several logs: 95 % bootstrap interval of `needed_recall` over its logs; `null` for one log or not measured. */
  needed_recall_ci_low: number | null;
  needed_recall_ci_high: number | null;
  /**
   * Answer recall over the probe ask points whose fact is needed later (a needed use of it after
   * the ask step), as `answer_recall` counts them; `null` when no such ask point was answered.
   */
  answer_recall_needed: number | null;
  /**
   * Answer recall under the reader's context-length effect (`reader.contextRot`, docs/probes.md),
   * over the same ask points as `answer_recall`; the last column, present only when the option
   * is on (`null`: nothing valid was asked). The recommendation and gates use `answer_recall`.
   */
  answer_recall_rot?: number | null;
}

/** A context size a strategy reacts to (drawn as a line on the context chart). */
interface Threshold {
  label: string;
  tokens: number;
}

/** One probe asked at one ask point of one unit (a row of `probes.csv`). */
export interface ProbeAnswer {
  probeId: string;
  kind: ProbeKind;
  question: string;
  /** The ground truth as text, for reports. */
  expected: string;
  /**
   * Why it was asked here: `step` (its evidence `askAfter` steps old, or a step the probe names),
   * `after-compaction` (the first context after a compaction), `after-rewrite` (the first context
   * after a rewrite took its evidence out), or `end`.
   */
  askedAt: 'end' | 'after-compaction' | 'after-rewrite' | 'step';
  step: number;
  answer: string;
  correct: boolean;
  reason: string;
  /** Whether the reader followed a retrieval hint, and the answer it then gave. */
  retrieved: boolean;
  correctWithRetrieval: boolean;
  retrievalTokens: number;
  /** The answer after following retrieval hints, when the reader did (`retrieved`). */
  retrievalAnswer?: string;
  inputTokens: number;
  outputTokens: number;
  /**
   * Never asked: the session ended (a crash, or the transcript ran out) before this ask point. It
   * is not an answer: left out of answer recall, counted in the summary's `unanswered`.
   */
  unanswered?: true;
  /**
   * Not valid here: the reader did not answer it correctly from `full`'s context at this point, so
   * the answer measures the reader rather than the strategy. Left out of answer recall, counted in
   * the summary's `invalid_asks`. Absent on valid and unanswered ask points.
   */
  invalid?: true;
  /** What the context held of the probe's fact at this point (probes/outcome.ts); absent in older results. */
  outcome?: ProbeOutcome;
  /**
   * Whether the probe's fact is needed after this ask point: the session's own future uses it
   * (a needed use of the same fact at a later step, docs/probes.md). Absent when the scenario's
   * needed facts were not computed.
   */
  neededLater?: boolean;
  /**
   * The LLM judge's scores of `answer` (live runs with `judge` on): each dimension 0–5 and their
   * sum `total` (0–20); `{error}` when the judge call failed, its reply was unreadable, or there
   * was no answer to judge. Absent when the judge was off or the probe was never asked.
   */
  judge?: ProbeJudgement;
  /**
   * With the reader's context-length effect on (`reader.contextRot`): the probability the reader
   * retrieved evidence at this length (the probe call's input tokens), and whether the answer is
   * still correct under it (never when `correct` is false). Absent when the option is off and on
   * unanswered ask points.
   */
  rot?: { probability: number; correct: boolean };
}

/**
 * What a context held of a probe's fact at an ask point: `kept` (an evidence text verbatim),
 * `paraphrased` (not verbatim, but the expected value is), `recoverable` (neither, but the reader
 * found it by following a retrieval hint into the archive), `stale` (an older value of the fact,
 * not the latest), `contradicted` (the reader read a different value from it), `lost` (nothing),
 * `unanswered` (the session ended or crashed before this point).
 */
export type ProbeOutcome = 'kept' | 'paraphrased' | 'recoverable' | 'stale' | 'contradicted' | 'lost' | 'unanswered';

/** The outcome classes in report order. */
export const PROBE_OUTCOMES: readonly ProbeOutcome[] = ['kept', 'paraphrased', 'recoverable', 'stale', 'contradicted', 'lost', 'unanswered'];

/**
 * Where a strategy's context held a needed fact at the step of its use (probes/needed/types.ts
 * `NeededOutcome`, restated here so that metrics and reports read results without the probes
 * module): verbatim (`kept`), only in a summary the strategy wrote (`summarized`), behind a
 * reference or a file or command to re-read (`recoverable`), not at all (`lost`), or never reached
 * (`unanswered`).
 */
type NeededOutcomeName = 'kept' | 'summarized' | 'recoverable' | 'lost' | 'unanswered';

/** One use of a needed fact and what a unit's context held of it there (a row of `needed.csv`). */
export interface NeededRecord {
  fact: string;
  kind: string;
  /** The step before which the fact was last seen (the unit's step numbers: over several logs, continued). */
  sourceStep: number;
  /** The step whose context had to hold it. */
  useStep: number;
  outcome: NeededOutcomeName;
}

/** One judge verdict on a probe answer (docs/judge-rubric.md). */
export type ProbeJudgement = { accuracy: number; completeness: number; continuity: number; artifactTrail: number; total: number } | { error: string };

/** Retention of one probe's evidence: per step from its evidence's appearance, 1 kept, 0 lost. */
export interface RetentionCurve {
  probeId: string;
  kind: ProbeKind;
  /** [step, retained] pairs, in step order. */
  points: [number, 0 | 1][];
}

export interface RecallFigures {
  retention: number | null;
  answerRecall: number | null;
  count: number;
  /** Ask points never reached (see `ProbeAnswer.unanswered`). */
  unanswered: number;
  /** Ask points left out as invalid (see `ProbeAnswer.invalid`); absent in older results. */
  invalid?: number;
  /** Answer recall under the reader's context-length effect; present only when it was on. */
  answerRecallRot?: number | null;
}

/** Answer recall at one step of the session: the valid answers given there, and how many were right. */
export interface RecallPoint {
  step: number;
  answered: number;
  correct: number;
}

/** Recall measurement of a unit (DESIGN.md §6). */
export interface UnitProbeResult {
  answers: ProbeAnswer[];
  retention: RetentionCurve[];
  /** Answer recall without and with retrieval, and what retrieval cost. */
  recall: {
    withoutRetrieval: number | null;
    withRetrieval: number | null;
    retrievalTokens: number;
    probeTokens: number;
    /**
     * Mean judge `total` (0–20) over the answers the judge scored; `null` when every judgement
     * was an error. Present only when the judge was on.
     */
    judgeMean?: number | null;
    /**
     * Answer recall under the reader's context-length effect (`ProbeAnswer.rot`), over the same
     * ask points as `withoutRetrieval`. Present only when the option was on.
     */
    withContextRot?: number | null;
  };
  byKind: Partial<Record<ProbeKind, RecallFigures>>;
  /** How many ask points ended in each outcome class (every ask point, valid or not); absent in older results. */
  outcomes?: Record<ProbeOutcome, number>;
  /**
   * The probe mix of the scenario (the same in every unit): probes per kind, and per where their
   * evidence lies (`output`: a tool's output; `agent`: the agent's text or call arguments).
   */
  mix?: { kinds: Partial<Record<ProbeKind, number>>; sources: { output: number; agent: number } };
  /** Answer recall over the session: per step with a valid answer, in step order; absent in older results. */
  recallCurve?: RecallPoint[];
  /**
   * Every use of a needed fact and its outcome on this unit's contexts, in use order; absent when
   * the scenario's needed facts were not computed.
   */
  needed?: NeededRecord[];
  /** Share of distinct paths, commands and numbers still verbatim in the context at the end. */
  specifics: { paths: number | null; commands: number | null; numbers: number | null };
  /** The same shares in the first context sent after each compaction (the step it was sent at). */
  specificsAfterCompaction?: { step: number; paths: number | null; commands: number | null; numbers: number | null }[];
}

/** The result of one scenario × strategy unit. */
export interface UnitResult {
  scenario: string;
  strategy: string;
  /** The strategy's resolved options (defaults filled). */
  options: Record<string, unknown>;
  /** The hidden prefix every request of the replay carried (absent: none). */
  hiddenPrefix?: HiddenPrefix;
  summary: SummaryRow;
  steps: StepRecord[];
  /** Strategy actions, failures, waits, calls and crashes, in order. */
  events: RunEvent[];
  /** Context sizes the strategy reacts to (trigger lines on charts). */
  thresholds?: Threshold[];
  /** Probe answers and retention curves, when the scenario has probes. */
  probes?: UnitProbeResult;
  /**
   * A scenario of several logs: each log's own summary, in replay order. The unit's `steps`,
   * `events` and probe answers are the logs' in that order, their steps numbered on from the
   * previous log's (`firstStep`) and their virtual times likewise, and probe ids prefixed with the
   * log's id (`<log id>/<probe id>`).
   */
  logs?: LogSummary[];
  /**
   * A unit stored summary-only (a corpus's, metrics/summary-only.ts): its span on the virtual
   * clock in ms, the last step's or event's time, which its dropped steps and events held.
   */
  spanMs?: number;
}

/** One log of a unit over several logs. */
export interface LogSummary {
  /** The log's path, as results show paths. */
  transcript: string;
  /** The session id from the log's header. */
  id: string;
  /** The unit's step number of this log's first step. */
  firstStep: number;
  summary: SummaryRow;
}

export interface ScenarioInfo {
  name: string;
  file: string;
  description?: string;
  /** A stress test: its rows are reported, never averaged into the recommendation (docs/scenarios.md). */
  stress?: true;
  transcript: string;
  /**
   * SHA-256 of the transcript as read (header and events of each log, in order), for a scenario
   * of transcript files: `check` compares transcripts by it, so the same log at another path (CI
   * and a laptop) compares and another log at the same path does not. Absent for a synthetic
   * session (its `transcript` is its generation options), for a corpus of logs one file each
   * (which has `logFilesSha256` instead) and in results written before.
   */
  transcriptSha256?: string;
  /**
   * For a corpus of logs one file each (more than 25 logs, no sidechains): the SHA-256 of its log
   * files' SHA-256s, in order (run/scenario-info.ts `corpusDigest`), which every shard of the
   * corpus makes without parsing the logs it does not replay. A field of its own, not a new
   * meaning of `transcriptSha256`: a baseline written before it holds the other digest, and
   * `check` then compares the corpus by path, as results without a digest (check/mismatch.ts).
   */
  logFilesSha256?: string;
  provider: ProviderName;
  model: string;
  window: number;
  /** How the prompt cache was modelled (src/cache/families.ts `describeCacheRules`); absent in results written before issue 29. */
  promptCache?: string;
  tpm?: number;
  rpm?: number;
  rpd?: number;
  steps: number;
  seed: number;
  /** Lines a lenient load skipped. */
  skippedLines: number;
  /** A scenario of several logs: how many (`steps` and `skippedLines` are their sums). */
  logs?: number;
  /** The reader's context-length curve (`nolima:gpt-4o`, …) when `reader.contextRot` was on, with its points `[tokens, probability]`. */
  contextRot?: { name: string; points: [number, number][] };
}

/** The versioned, deterministic result of a run (`result.json`). No wall-clock times inside. */
export interface RunResult {
  schemaVersion: typeof RESULT_SCHEMA_VERSION | 1;
  tool: { name: 'ctxbench'; version: string };
  seed: number;
  mode: ProviderMode;
  scenarios: ScenarioInfo[];
  units: UnitResult[];
  /** Present on a shard's result only; `ctxbench merge` joins the shards and drops it. */
  shard?: ShardInfo;
  /**
   * Present when the run stopped before every unit finished (SIGINT, SIGTERM): the result holds
   * the finished units only; `ctxbench run --resume <out>` completes it.
   */
  partial?: PartialInfo;
  /** `off` when the run was written with `--no-redact` (secrets left as they were); absent: redacted. */
  redaction?: 'off';
  /** The strategy to ship under the run's objective (metrics/recommend.ts, docs/decision.md); absent on a shard and on a stopped run. */
  recommendation?: Recommendation;
}

/** How much of a stopped run finished. */
interface PartialInfo {
  /** Units in the run (this shard's, for a shard). */
  planned: number;
  completed: number;
  /** Why it stopped: the signal's name (`SIGINT`, `SIGTERM`). */
  reason: string;
}
