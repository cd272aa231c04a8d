import type { ContextMessage, Dialect, ToolCall } from '../transcript/types.js';
import type { ThinkingLimit } from './thinking.js';

export type ProviderName = 'gemini' | 'openai';
export type ProviderMode = 'mock' | 'live';

/** Why a call is made: agent work, a strategy's own call, or measurement. */
export type CallPurpose = 'step' | 'summary' | 'recap' | 'probe' | 'judge' | 'retrieval';

/**
 * What the harness tells the simulated model about a call, out of band (mocked mode only). It
 * never carries a probe's expected answer.
 */
export interface SimDirective {
  purpose: CallPurpose;
  /** For `step`: the recorded completion to answer with. */
  replay?: { text: string; thinking?: string; toolCalls?: readonly ToolCall[]; thoughtSignature?: string };
  /** For `summary`: the budget of the summary in tokens. */
  budgetTokens?: number;
  /**
   * The quota gate refused the call: answer with the provider's own 429. `daily` marks a per-day
   * quota (the gate's `quota` kind), which the provider words so that it classifies as `quota`.
   */
  rateLimit?: { retryAfterMs: number; limitTokens: number; remainingTokens: number; resetMs: number; daily?: boolean };
  /** The window the simulated model enforces. */
  window: number;
  /**
   * Tokens the request carries that are not in its body (a replayed log's hidden prefix, re-sent
   * reasoning): the simulated model adds them to the prompt it counts, so a 15k-token prefix need
   * not travel through nock on every step.
   */
  hiddenTokens?: number;
  /**
   * Gemini: reject a history whose function-call turns lost their thought signatures, as the real
   * API does for thinking models. Set when the replayed transcript carries signatures.
   */
  requireThoughtSignatures?: boolean;
}

export interface CompletionRequest {
  model: string;
  /** The context, in canonical form; the provider renders it in its own format. */
  messages: ContextMessage[];
  /** A system instruction placed before the messages (summaries, probes). */
  instruction?: string;
  maxOutputTokens?: number;
  /** A limit on the answer's thinking (Gemini `thinkingBudget`, OpenAI `reasoning_effort`); none: the model's default. */
  thinking?: ThinkingLimit;
  purpose: CallPurpose;
  /** Out-of-band hints for the simulated model; ignored by live providers. */
  directive?: SimDirective;
}

/** Usage as the provider reported it, in its own fields mapped to one shape. */
export interface CompletionUsage {
  /** Prompt tokens (Gemini `promptTokenCount`, OpenAI `prompt_tokens`). */
  input: number;
  /** Of `input`, the tokens served from a cache. */
  cachedInput: number;
  /** Billed output tokens, reasoning included (Gemini candidates + thoughts, OpenAI `completion_tokens`). */
  output: number;
  /** Of `output`, the reasoning (thinking) tokens. */
  reasoning: number;
}

export interface CompletionOk {
  ok: true;
  text: string;
  thinking?: string;
  toolCalls: ToolCall[];
  usage: CompletionUsage;
}

export type Failure =
  | { kind: 'overflow'; message: string; inputTokens?: number; limit?: number }
  | { kind: 'rate-limit'; message: string; retryAfterMs?: number }
  | { kind: 'quota'; message: string }
  /** `malformed`: an answer whose body is not a completion at all (broken JSON, an HTML page). */
  | { kind: 'server'; message: string; status?: number; malformed?: true }
  | { kind: 'bad-request'; message: string; status?: number }
  /**
   * The provider refused the message list for its shape (a tool call without its result, a result
   * without its call, an empty turn): the context the strategy built is one no real API accepts.
   * `message` is the provider's own.
   */
  | { kind: 'invalid-request'; message: string; status?: number }
  /**
   * An answer with no text and no tool call, ended by the provider's filter (OpenAI
   * `content_filter`, Gemini `SAFETY`, …) or by the output limit (`length`, `MAX_TOKENS`): nothing
   * to continue the session with. `finishReason` is the provider's own.
   */
  | { kind: 'empty-answer'; message: string; finishReason: string }
  /** `timedOut`: no answer within the request time limit (`--request-timeout`). */
  | { kind: 'network'; message: string; timedOut?: true }
  /** A strategy from outside the registry failed (its process crashed or wrote garbage, a hook threw or returned no message list): ends the unit. */
  | { kind: 'strategy'; message: string }
  /** A strategy hook (module or process) did not answer within its time limit (`timeoutMs`): ends the unit. */
  | { kind: 'strategy-timeout'; message: string };

export type FailureKind = Failure['kind'];

interface CompletionFailed {
  ok: false;
  failure: Failure;
}

export type CompletionResult = CompletionOk | CompletionFailed;

/** A model provider. `complete` never throws for a provider-side failure: failures are data. */
export interface Provider {
  readonly name: ProviderName;
  readonly mode: ProviderMode;
  readonly dialect: Dialect;
  /** The base URL it talks to, when it is a live HTTP provider (named in fail-fast messages). */
  readonly endpoint?: string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /**
   * A cheap call that uses no tokens (a models call), made before a live run to find out whether
   * the provider can be used at all: undefined when it answered, else its failure.
   */
  checkAccess?(): Promise<Failure | undefined>;
}
