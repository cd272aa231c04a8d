import type { Failure, FailureKind, CallPurpose } from '../contracts/provider.js';
import type { StrategyAction } from '../strategies/types.js';

/** One model call of the agent (a replayed step), after retries. */
export interface StepRecord {
  step: number;
  /** Id of the recorded assistant message this step completes. */
  messageId: string;
  /** Virtual time (ms since session start) when the step was sent (after waiting). */
  atMs: number;
  /** Tokens of the context sent (as the provider counted it). */
  promptTokens: number;
  completionTokens: number;
  /** Tokens of the context the strategy prepared (harness count, also on a failed step). */
  contextTokens: number;
  /** Messages in the context. */
  contextMessages: number;
  /**
   * Of the prompt, tokens the log does not hold: the agent's hidden prefix (system prompt, tool
   * schemas) and what it re-attached after its own compaction (tokens/hidden-tokens.ts).
   */
  hiddenTokens?: number;
  /** Of the prompt, the current turn's reasoning or thinking that the API re-sends as input. */
  reasoningTokens?: number;
  /**
   * Prompt tokens the provider serves from its prompt cache (src/cache/model.ts: the longest prefix
   * shared with what the provider still holds, under its family's rules), billed as cached input.
   */
  cachedPrefixTokens: number;
  /** Prompt tokens written to an explicit prompt cache (Anthropic), billed as writes. Absent in older results. */
  cacheWriteTokens?: number;
  /**
   * USD of this step: its prompt (uncached, cached, written) and completion, plus the strategy's
   * own calls made for it (billed by the same cache model). Probe calls are not included. Absent when the model has no price.
   */
  costUsd?: number;
  /** Tokens of the strategy's own calls made while preparing this step. */
  overheadTokens: number;
  /**
   * Tokens of tool output the agent had to fetch back because the strategy had cut it (replay/
   * follow-up.ts); already part of `promptTokens`. Absent in results written before it existed.
   */
  retrievalTokens?: number;
  retries: number;
  rateLimitHits: number;
  waitMs: number;
  status: 'ok' | 'crashed';
  failure?: FailureKind;
}

/** The event stream of one scenario × strategy run; metrics are pure reducers over it. */
export type RunEvent =
  | ({ type: 'step' } & StepRecord)
  | ({ type: 'action'; step: number; atMs: number } & StrategyAction)
  | {
      type: 'call';
      step: number;
      atMs: number;
      purpose: CallPurpose;
      inputTokens: number;
      outputTokens: number;
      ok: boolean;
      failure?: FailureKind;
      /** Strategy calls: of `inputTokens`, read from and written to the prompt cache (src/cache/). */
      cachedTokens?: number;
      cacheWriteTokens?: number;
    }
  | { type: 'failure'; step: number; atMs: number; attempt: number; failure: Failure }
  | { type: 'wait'; step: number; atMs: number; ms: number; reason: string }
  | { type: 'crash'; step: number; atMs: number; kind: FailureKind; message: string }
  | { type: 'recorded-compaction'; step: number; atMs: number; id: string; tokensBefore?: number; tokensAfter?: number };
