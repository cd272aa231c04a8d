import type { z } from 'zod';
import type { ContextMessage, MessageEvent, TranscriptEvent } from '../transcript/types.js';
import type { CompletionResult, Failure, ProviderName } from '../contracts/provider.js';
import type { Clock, QuotaView } from '../quota/types.js';
import type { ThinkingLimit } from '../contracts/thinking.js';

/** What a strategy did, for the timeline: every eviction, truncation, compaction and trigger. */
export interface StrategyAction {
  action: 'evict' | 'truncate' | 'compact' | 'trigger' | 'summary' | 'recap' | 'drop' | 'isolate' | 'offload' | 'cap-thinking' | 'anchor' | 'note';
  reason: string;
  /** Mode of the trigger (e.g. tri-modal's `semantic` / `standard` / `survival`). */
  mode?: string;
  tokensBefore: number;
  tokensAfter: number;
  detail?: string;
}

/** A metered model call a strategy may make for its own work (summaries, recaps, map-reduce). */
export interface StrategyModelCall {
  /** The system instruction (the summary prompt). */
  instruction: string;
  messages: ContextMessage[];
  /** Output budget in tokens. */
  maxOutputTokens: number;
  purpose?: 'summary' | 'recap';
}

/** The archive: the canonical full history, which retrieval hints point into. */
export interface Archive {
  get(id: string): MessageEvent | undefined;
  /** Stores evicted raw content under a key (e.g. `session/task`), returns the key. */
  put(key: string, messages: MessageEvent[]): string;
  lookup(key: string): MessageEvent[] | undefined;
  keys(): string[];
}

export interface StrategyEnv {
  /** The model, for the strategy's own calls; every call is metered and counted against the quota. */
  model: { complete(call: StrategyModelCall): Promise<CompletionResult> };
  quota: QuotaView;
  /** The model's context window in tokens. */
  window: number;
  clock: Clock;
  /** The provider format requests are rendered in. */
  format: ProviderName;
  /** Index of the step being prepared (0-based). */
  step: number;
  sessionId: string;
  count(text: string): number;
  /**
   * Tokens of a request that sends these messages: their own tokens plus what the request carries
   * beyond them — a replayed log's hidden prefix (`hiddenPrefix`) and the current turn's re-sent
   * reasoning. Compare it to `window`; to size a part of the context alone, subtract `hiddenPrefix`.
   */
  countMessages(messages: readonly ContextMessage[]): number;
  /** Tokens every request of this replay carries that the log does not hold (0 or absent: none). */
  hiddenPrefix?: number;
  archive: Archive;
  /** Records an action for the timeline. */
  emit(action: StrategyAction): void;
  /**
   * Limits the thinking of the step being prepared (its answer's reasoning tokens): called from
   * `prepare`, it holds for that step's request only (Gemini `thinkingBudget`, OpenAI
   * `reasoning_effort`, src/contracts/thinking.ts). Absent where the engine cannot send it.
   */
  limitOutputThinking?(limit: ThinkingLimit): void;
}

export type RecoverDecision = 'retry' | 'give-up';

/** An option's range for `ctxbench tune`: the values min, min + step, …, max (rounded to the step's decimals). */
export interface TunableRange {
  min: number;
  max: number;
  step: number;
}

/**
 * A context-management strategy (DESIGN.md §4). State is the strategy's own; it never reads the
 * clock or randomness except through `env`.
 */
// A registry holds strategies of different option and state types; with `unknown` no concrete
// strategy would be assignable to it (its prepare/observe take their own State).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Strategy<Options = any, State = any> {
  /** Equal to the file name in `src/strategies/`. */
  name: string;
  description: string;
  /** Options schema with defaults: `options.parse({})` gives the defaults. */
  options: z.ZodType<Options>;
  init(options: Options, context: { sessionId: string; window: number }): State;
  /** Called for every transcript event, in order, before the step it precedes is prepared. */
  observe?(event: TranscriptEvent, state: State, env: StrategyEnv): void | Promise<void>;
  /** Returns the context to send for the next step. */
  prepare(state: State, env: StrategyEnv): Promise<ContextMessage[]> | ContextMessage[];
  /**
   * Optional: applies the strategy to a context an earlier pipeline stage prepared, in place of
   * `prepare` (src/strategies/pipeline.ts calls it for every stage after the first, once per
   * step). `state` persists across steps and has observed every transcript event, so the
   * strategy keeps its memory (tags, dialect, last action) while working on the messages it is
   * given. A strategy without it keeps its state in a later stage too and is fed the messages of the
   * context it has not seen yet (pipeline.ts).
   */
  transform?(context: ContextMessage[], state: State, env: StrategyEnv): Promise<ContextMessage[]> | ContextMessage[];
  /** Context sizes (tokens) this strategy reacts to, for the trigger lines of the reports. */
  thresholds?(options: Options, window: number): { label: string; tokens: number }[];
  /**
   * The options `ctxbench tune` searches (its trigger and what it keeps), each with the range it
   * takes: `{ trigger: { min: 0.5, max: 0.95, step: 0.05 } }`. A strategy of one's own declares
   * them the same way to take part (docs/strategy-api.md).
   */
  tunable?: Readonly<Record<string, TunableRange>>;
  /** Reacts to an overflow or rate-limit failure; `retry` re-prepares and re-sends the step. */
  recover?(failure: Failure, state: State, env: StrategyEnv): Promise<RecoverDecision> | RecoverDecision;
  /**
   * Optional: called once when the unit ends, whatever way it ends (a policy process is closed
   * here). Built-in strategies hold nothing to release.
   */
  dispose?(state: State): void | Promise<void>;
}

/** A strategy as a scenario names it: a registered strategy with options, or a pipeline. */
export interface StrategySpec {
  /** Label in reports (defaults to the strategy name; must be unique in a scenario). */
  label: string;
  /** Registered strategy name, or `pipeline`. */
  strategy: string;
  options: Record<string, unknown>;
  /** For `pipeline`: the stages, each seeing the output of the previous one. */
  stages?: StrategySpec[];
  /** A strategy from outside the registry (docs/strategy-api.md, docs/process-protocol.md); `strategy` is then its label. */
  source?: ExternalStrategySource;
}

/**
 * Where a strategy that is not registered comes from: a JS module exporting a `Strategy`, or a
 * command started per unit that speaks the JSON-lines process protocol. Plain data, so a planned
 * unit still crosses to a worker thread, which loads or starts it by path itself.
 */
export type ExternalStrategySource =
  /** `timeoutMs`: each hook call's time limit (default 30 s, bounded.ts). */
  | { kind: 'module'; path: string; timeoutMs?: number }
  /** `timeoutMs`: how long the process may take to answer each message. */
  | { kind: 'command'; argv: string[]; cwd: string; timeoutMs: number };
