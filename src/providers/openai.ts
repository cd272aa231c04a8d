import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ToolCall } from '../transcript/types.js';
import type { CompletionRequest, CompletionResult, CompletionUsage, Failure, Provider, ProviderMode } from '../contracts/provider.js';
import { emptyAnswer, readUsageCounts } from './answer-checks.js';
import { CALL_HEADER, type CallTagger } from '../simulator/call-tag.js';
import type { SimAsk, SimFetch, SimSuccess } from '../simulator/types.js';
import { describeNetworkError } from './guard.js';
import { classifyOpenAIError } from './classify-openai.js';
import { encodeOpenAIBody, parseArguments } from '../wire/render-openai.js';
import { effortFor } from '../contracts/thinking.js';
import { boundRequest, malformedBody } from './request-bounds.js';
import { fetchWithoutForeignRedirects } from './no-redirect.js';

export interface OpenAIProviderOptions {
  apiKey: string;
  mode: ProviderMode;
  /** The model used when a request names none. */
  model: string;
  /** Any OpenAI-compatible base URL (default `https://api.openai.com/v1`). */
  baseUrl: string;
  organization?: string | null;
  project?: string | null;
  /** Each request's time limit (`--request-timeout`): past it the call is aborted, a `network` failure. */
  timeoutMs?: number;
  /** The run's stop signal: aborts the request in flight, which then throws RequestStopped. */
  signal?: AbortSignal;
  /** Mocked mode: registers each call's directive with the simulator. */
  tagCall?: CallTagger;
  /** Mocked mode: the simulator's in-process transport, used instead of the global `fetch`. */
  fetch?: SimFetch;
  /** Mocked mode: the simulator asked directly (`Simulator.ask`); without it, through `fetch`. */
  ask?: SimAsk;
}

/** OpenAI chat completions through the openai SDK, with its retries off: the engine retries. */
export class OpenAIProvider implements Provider {
  readonly name = 'openai' as const;
  readonly dialect = 'openai' as const;
  readonly mode: ProviderMode;
  readonly endpoint: string;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly tagCall: CallTagger | undefined;
  private readonly timeoutMs: number | undefined;
  private readonly stop: AbortSignal | undefined;
  /** Mocked mode: the simulator's transport, for the SDK to read a failure through. */
  private readonly simulator: SimFetch | undefined;
  /** Mocked mode: the simulator, asked directly (`completeInProcess`). */
  private readonly ask: SimAsk | undefined;
  /** Replies the simulator already gave that the SDK reads again (a failure), by call id. */
  private readonly replies = new Map<string, { response: Response } | { thrown: unknown }>();

  constructor(options: OpenAIProviderOptions) {
    this.mode = options.mode;
    this.model = options.model;
    this.endpoint = options.baseUrl;
    this.tagCall = options.tagCall;
    this.timeoutMs = options.timeoutMs;
    this.stop = options.signal;
    this.simulator = options.mode === 'mock' && options.tagCall !== undefined ? options.fetch : undefined;
    const simulator = this.simulator;
    this.ask = simulator === undefined ? undefined : (options.ask ?? ((url, tag) => simulator(url, { method: 'POST', headers: tag })));
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      organization: options.organization ?? null,
      project: options.project ?? null,
      maxRetries: 0,
      // The simulator's transport when mocked; else the global fetch, looked up per call, so that
      // an HTTP interceptor installed after this client (a cassette, a test's nock) still sees it.
      // Live, a redirect to another host is refused (no-redirect.ts): the prompt never goes there.
      fetch: simulator !== undefined ? (input, init) => this.replayOr(simulator, input, init) : (options.fetch ?? fetchWithoutForeignRedirects()),
    });
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const model = request.model !== '' ? request.model : this.model;
    const effort = request.thinking !== undefined ? effortFor(request.thinking.budgetTokens) : undefined;
    const canonical = {
      messages: request.messages,
      model,
      ...(request.instruction !== undefined ? { instruction: request.instruction } : {}),
      ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
      ...(effort !== undefined ? { reasoningEffort: effort } : {}),
    };
    const shape = { instruction: request.instruction !== undefined && request.instruction !== '' };
    const tag = this.tagCall?.(request, shape, canonical);
    if (this.ask !== undefined && tag !== undefined) {
      const answered = await this.completeInProcess(this.ask, tag);
      if (answered !== undefined) return answered;
    }
    // The body goes as JSON text encoded message by message (render-openai.ts `encodeOpenAIBody`,
    // the bytes `JSON.stringify` of the typed params would give): the SDK sends a string body with
    // a content type as is, and reads nothing of `params` but `stream`.
    const body = encodeOpenAIBody(
      request.messages,
      {
        model,
        ...(request.maxOutputTokens !== undefined ? { maxCompletionTokens: request.maxOutputTokens } : {}),
        ...(effort !== undefined ? { reasoningEffort: effort } : {}),
      },
      request.instruction,
    );
    const params: ChatCompletionCreateParamsNonStreaming = { model, messages: [], stream: false };
    const bounds = boundRequest(this.stop, this.timeoutMs);
    try {
      const completion = await this.client.chat.completions.create(params, {
        body,
        headers: { ...tag, 'content-type': 'application/json' },
        ...(bounds.signal !== undefined ? { signal: bounds.signal } : {}),
      });
      return readOpenAICompletion(completion);
    } catch (error) {
      return { ok: false, failure: bounds.failureOf(error, classifyOpenAIError) };
    } finally {
      if (tag !== undefined) this.replies.delete(tag[CALL_HEADER] ?? '');
    }
  }

  /**
   * Mocked mode: the simulator's reply, asked for directly rather than through the SDK (whose
   * request building, headers and logging were most of a mocked call). A 2xx reply is read as the
   * SDK reads one (\`readLikeSdk\`); any other reply, or a connection error (a simulated timeout), is
   * handed to the SDK to read (undefined: \`complete\` goes on through the SDK, whose fetch gives it
   * back), so that failures are the errors a live run classifies. The simulator answers from the
   * canonical request the call was registered with: no body is rendered for it.
   */
  private async completeInProcess(ask: SimAsk, tag: Record<string, string>): Promise<CompletionResult | undefined> {
    const id = tag[CALL_HEADER] ?? '';
    let response: SimSuccess | Response;
    try {
      response = await ask(`${this.endpoint}/chat/completions`, tag);
    } catch (thrown) {
      this.replies.set(id, { thrown });
      return undefined;
    }
    if (!response.ok) {
      this.replies.set(id, { response });
      return undefined;
    }
    try {
      return readOpenAICompletion(await readLikeSdk(response));
    } catch (error) {
      return { ok: false, failure: boundRequest(this.stop, this.timeoutMs).failureOf(error, classifyOpenAIError) };
    }
  }

  /** The SDK's fetch in mocked mode: a reply the simulator already gave for this call, else the simulator. */
  private replayOr(simulator: SimFetch, input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const id = new Headers(init?.headers).get(CALL_HEADER);
    const reply = id === null ? undefined : this.replies.get(id);
    if (reply === undefined) return simulator(input, init);
    return 'response' in reply ? Promise.resolve(reply.response) : Promise.reject(reply.thrown as Error);
  }

  /** `GET {baseUrl}/models`: authenticated, free, and served by most OpenAI-compatible servers. */
  async checkAccess(): Promise<Failure | undefined> {
    const bounds = boundRequest(this.stop, this.timeoutMs);
    try {
      await this.client.models.list(bounds.signal !== undefined ? { signal: bounds.signal } : {});
      return undefined;
    } catch (error) {
      const failure = bounds.failureOf(error, classifyOpenAIError);
      return failure.kind === 'network' ? { kind: 'network', message: describeNetworkError(error) } : failure;
    }
  }
}

/**
 * A successful reply's body as the SDK makes it (openai/internal/parse.mjs \`defaultParseResponse\`):
 * none for a 204 or an empty JSON body, parsed JSON for a JSON media type, else the text.
 */
async function readLikeSdk(response: SimSuccess | Response): Promise<unknown> {
  if (response.status === 204) return null;
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim();
  if (mediaType?.includes('application/json') === true || mediaType?.endsWith('+json') === true) {
    return response.headers.get('content-length') === '0' ? undefined : ((await response.json()) as unknown);
  }
  return response.text();
}

/**
 * The first choice as text and calls. The SDK hands back a non-JSON body as a string: that, or
 * JSON that is not a completion, or one whose usage is no count of tokens, is the server's
 * failure; an empty answer the filter or the output limit ended is `empty-answer`.
 */
function readOpenAICompletion(completion: unknown): CompletionResult {
  const choices = (completion as Partial<ChatCompletion> | null)?.choices;
  const message = Array.isArray(choices) ? choices[0]?.message : undefined;
  if (message === undefined) {
    const body = typeof completion === 'string' ? completion : JSON.stringify(completion);
    return { ok: false, failure: malformedBody(`not a chat completion: ${(body ?? '').slice(0, 80)}`) };
  }
  const toolCalls: ToolCall[] = [];
  for (const call of message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    toolCalls.push({ id: call.id, name: call.function.name, args: parseArguments(call.function.arguments) });
  }
  const text = message.content ?? '';
  const finishReason = (choices?.[0] as { finish_reason?: unknown } | undefined)?.finish_reason;
  const empty = emptyAnswer('OpenAI', typeof finishReason === 'string' ? finishReason : undefined, text !== '' || toolCalls.length > 0);
  if (empty !== undefined) return { ok: false, failure: empty };
  const usage = readOpenAIUsage((completion as { usage?: unknown }).usage);
  if ('failure' in usage) return { ok: false, failure: usage.failure };
  const result: CompletionResult = { ok: true, text, toolCalls, usage: usage.usage };
  // OpenAI-compatible servers (vLLM, DeepSeek) return the reasoning text beside the content.
  const reasoning = (message as { reasoning_content?: unknown }).reasoning_content;
  if (typeof reasoning === 'string' && reasoning !== '') result.thinking = reasoning;
  return result;
}

/** `usage` of a chat completion, checked (answer-checks.ts): `output` includes the reasoning tokens, as OpenAI bills them. */
function readOpenAIUsage(raw: unknown): { usage: CompletionUsage } | { failure: Failure } {
  const usage = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const detail = (name: string): Record<string, unknown> => {
    const value = usage[name];
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  };
  const read = readUsageCounts([
    { name: 'usage.prompt_tokens', value: usage.prompt_tokens, required: true },
    { name: 'usage.prompt_tokens_details.cached_tokens', value: detail('prompt_tokens_details').cached_tokens, required: false },
    { name: 'usage.completion_tokens', value: usage.completion_tokens, required: true },
    { name: 'usage.completion_tokens_details.reasoning_tokens', value: detail('completion_tokens_details').reasoning_tokens, required: false },
  ]);
  if ('failure' in read) return read;
  const [input = 0, cachedInput = 0, output = 0, reasoning = 0] = read.counts;
  return { usage: { input, cachedInput, output, reasoning } };
}
