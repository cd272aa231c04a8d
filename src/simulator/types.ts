import type { ReasoningEffort } from '../contracts/thinking.js';
import type { ToolCall } from '../transcript/types.js';
import type { ContextMessage } from '../transcript/types.js';
import type { SimDirective } from '../contracts/provider.js';
import type { RenderShape } from '../wire/render-shape.js';

/** Rates in [0, 1] at which the simulated provider fails a call; they add up, in this order. */
export interface FaultRates {
  /** HTTP 500 (Gemini INTERNAL, OpenAI server_error). */
  server500?: number;
  /** HTTP 503 (overloaded). */
  unavailable503?: number;
  /** The connection times out: the SDK surfaces a connection error. */
  timeout?: number;
  /** HTTP 200 whose body is cut short and is not JSON. */
  malformed?: number;
}

export type FaultKind = keyof FaultRates;

/** What a provider tells the simulator about one call besides the directive. */
export interface SimCall {
  /**
   * A deterministic key of the call (the provider's name and call counter). Faults are drawn from
   * it, so they do not depend on the order in which units run. Defaults to the simulator's counter.
   */
  key?: string;
  /** How the context was laid out in the body (see RenderShape). */
  shape?: RenderShape;
  /**
   * The canonical request an OpenAI chat-completions body was rendered from, and the model it
   * names: the in-process transport reads the call from it instead of parsing the body back
   * (parse-openai.ts `parsedFromCanonical` gives exactly what parsing would; a test holds them equal),
   * and counts it from the per-message count memo. A Gemini body is parsed from the wire (the
   * reader, the summarizer and the signature check read what the SDK sent) but counted from its
   * canonical messages, which count the same as their parsed copies.
   */
  canonical?: CanonicalCall;
}

/** What a provider rendered a request body from (see SimCall.canonical). */
export interface CanonicalCall {
  messages: readonly ContextMessage[];
  instruction?: string;
  maxOutputTokens?: number;
  /** The body's `reasoning_effort`, when the request limits thinking. */
  reasoningEffort?: ReasoningEffort;
  model: string;
}

/** A `fetch` as the SDK clients take it (openai's `fetch` option, @google/genai's `httpOptions.fetch`). */
export type SimFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A 2xx reply as a mocked provider reads it when it asks the simulator directly: what it reads of
 * a `Response` (status, headers, body), without one. Node's `Response` and `Headers` load undici
 * on first use, which a mocked run then only pays for a failure the SDK reads.
 */
export interface SimSuccess {
  readonly ok: true;
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  json(): Promise<unknown>;
  text(): Promise<string>;
}

/**
 * The simulator asked directly for a call registered with its tag (the headers the call carries):
 * a success as `SimSuccess`, anything else as the `Response` its transport's `fetch` gives (which
 * the SDK reads); rejects as that `fetch` does (a refused request, a simulated timeout).
 */
export type SimAsk = (url: string, tag: Record<string, string>) => Promise<SimSuccess | Response>;

/** The simulated model of one run and its in-process transport (DESIGN.md §5). */
export interface Simulator {
  /**
   * Registers the directive of the next call and returns the id to send in the
   * `x-ctxbench-call` header. Each id answers one request.
   */
  register(directive: SimDirective, call?: SimCall): string;
  /** Retires this simulator: its transport refuses every later request. Nothing global to restore. */
  uninstall(): void;
  /**
   * The transport mocked clients are given instead of the global `fetch`: it answers the calls of
   * this simulator in-process and refuses anything else. Without it (a stand-in simulator of a
   * test), mocked clients use the global `fetch`, where the test's own nock interceptors answer.
   */
  readonly fetch?: SimFetch;
  /** What `fetch` answers a tagged POST with, asked directly (no `Response` for a success); beside `fetch`. */
  readonly ask?: SimAsk;
  /** The OpenAI base URL the simulator answers for. */
  readonly openaiBaseUrl: string;
  /** The Gemini base URL the simulator answers for. */
  readonly geminiBaseUrl: string;
}

/** A request body read back into canonical form. */
export interface ParsedRequest {
  messages: ContextMessage[];
  instruction?: string;
  maxOutputTokens?: number;
  /** The thinking budget the request carries (Gemini `thinkingBudget`, or OpenAI `reasoning_effort` as its budget). */
  thinkingBudget?: number;
}

/** What the simulated model answers, before it is written in a provider's format. */
export interface SimAnswer {
  text: string;
  thinking?: string;
  toolCalls: ToolCall[];
  thoughtSignature?: string;
}

export interface SimUsage {
  input: number;
  /** Visible output: text and tool calls. */
  output: number;
  reasoning: number;
}

/** An HTTP answer, or a connection that times out. */
export type SimReply = { kind: 'http'; status: number; body: string | Record<string, unknown>; headers: Record<string, string> } | { kind: 'timeout' };
