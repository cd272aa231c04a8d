import type { GoogleGenAI, GenerateContentResponse, GenerateContentConfig } from '@google/genai';
import type { ToolCall } from '../transcript/types.js';
import type { CompletionRequest, CompletionResult, CompletionUsage, Failure, Provider, ProviderMode } from '../contracts/provider.js';
import type { CallTagger } from '../simulator/call-tag.js';
import type { SimFetch } from '../simulator/types.js';
import { describeNetworkError } from './guard.js';
import { classifyGeminiError } from './classify-gemini.js';
import { renderGeminiRequest } from '../wire/render-gemini.js';
import { boundRequest, malformedBody } from './request-bounds.js';
import { fetchWithoutForeignRedirects } from './no-redirect.js';
import { emptyAnswer, readUsageCounts } from './answer-checks.js';

const liveFetch = fetchWithoutForeignRedirects();

/** Where @google/genai sends Gemini API calls when no base URL is given. */
const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

export interface GeminiProviderOptions {
  apiKey: string;
  mode: ProviderMode;
  /** The model used when a request names none. */
  model: string;
  /** Another endpoint (a proxy, a local server): the SDK's `httpOptions.baseUrl`. */
  baseUrl?: string;
  /** Each request's time limit (`--request-timeout`): past it the call is aborted, a `network` failure. */
  timeoutMs?: number;
  /** The run's stop signal: aborts the request in flight, which then throws RequestStopped. */
  signal?: AbortSignal;
  /** Mocked mode: registers each call's directive with the simulator. */
  tagCall?: CallTagger;
  /** Mocked mode: the simulator's in-process transport, used instead of the global `fetch`. */
  fetch?: SimFetch;
}

type GeminiSdk = typeof import('@google/genai');
let sdk: Promise<GeminiSdk> | undefined;

/**
 * @google/genai and its dependencies take a fifth of a second to load: a process (or a worker
 * thread) that never calls Gemini, as most runs replay OpenAI-served or Claude logs, does not pay it.
 */
function loadSdk(): Promise<GeminiSdk> {
  sdk ??= import('@google/genai');
  return sdk;
}

/** Gemini through @google/genai; the SDK retries nothing (no `retryOptions`), the engine does. */
export class GeminiProvider implements Provider {
  readonly name = 'gemini' as const;
  readonly dialect = 'gemini' as const;
  readonly mode: ProviderMode;
  readonly endpoint: string;
  private client: GoogleGenAI | undefined;
  private readonly clientOptions: ConstructorParameters<typeof GoogleGenAI>[0];
  private readonly model: string;
  private readonly tagCall: CallTagger | undefined;
  private readonly timeoutMs: number | undefined;
  private readonly stop: AbortSignal | undefined;

  constructor(options: GeminiProviderOptions) {
    this.mode = options.mode;
    this.model = options.model;
    this.tagCall = options.tagCall;
    this.timeoutMs = options.timeoutMs;
    this.stop = options.signal;
    this.endpoint = options.baseUrl ?? GEMINI_DEFAULT_BASE_URL;
    const httpOptions: { baseUrl?: string; fetch?: SimFetch } = {};
    if (options.baseUrl !== undefined) httpOptions.baseUrl = options.baseUrl;
    // Live, a redirect to another host is refused (no-redirect.ts): the prompt and the key never go there.
    httpOptions.fetch = options.fetch ?? fetchWithoutForeignRedirects();
    this.clientOptions = { apiKey: options.apiKey, vertexai: false, httpOptions };
  }

  private async sdkClient(): Promise<{ client: GoogleGenAI; sdk: GeminiSdk }> {
    const loaded = await loadSdk();
    this.client ??= new loaded.GoogleGenAI(this.clientOptions);
    return { client: this.client, sdk: loaded };
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const rendering = renderGeminiRequest(request.messages, request.instruction);
    const config: GenerateContentConfig = {};
    if (rendering.systemInstruction !== undefined) config.systemInstruction = rendering.systemInstruction;
    if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
    if (request.thinking !== undefined) config.thinkingConfig = { thinkingBudget: request.thinking.budgetTokens };
    if (this.tagCall !== undefined) {
      const canonical = {
        messages: request.messages,
        model: request.model !== '' ? request.model : this.model,
        ...(request.instruction !== undefined ? { instruction: request.instruction } : {}),
        ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
      };
      config.httpOptions = { headers: this.tagCall(request, rendering.shape, canonical) };
    }
    // Live: the answer's headers are kept, for the `retry-after` of a 429 (the SDK's ApiError drops them).
    let headers: Headers | undefined;
    if (this.mode === 'live') {
      config.httpOptions = {
        ...config.httpOptions,
        fetch: async (url: string | URL | Request, init?: RequestInit) => {
          const response = await liveFetch(url, init);
          headers = response.headers;
          return response;
        },
      };
    }
    const bounds = boundRequest(this.stop, this.timeoutMs);
    if (bounds.signal !== undefined) config.abortSignal = bounds.signal;
    const { client, sdk } = await this.sdkClient();
    try {
      const response = await client.models.generateContent({
        model: request.model !== '' ? request.model : this.model,
        contents: rendering.contents,
        config,
      });
      return readGeminiResponse(response);
    } catch (error) {
      return { ok: false, failure: bounds.failureOf(error, (thrown) => classifyGeminiError(thrown, sdk.ApiError, headers)) };
    }
  }

  /** `GET v1beta/models/{model}`: authenticated and free. */
  async checkAccess(): Promise<Failure | undefined> {
    const { client, sdk } = await this.sdkClient();
    const bounds = boundRequest(this.stop, this.timeoutMs);
    try {
      await client.models.get({ model: this.model, ...(bounds.signal !== undefined ? { config: { abortSignal: bounds.signal } } : {}) });
      return undefined;
    } catch (error) {
      const failure = bounds.failureOf(error, (thrown) => classifyGeminiError(thrown, sdk.ApiError));
      return failure.kind === 'network' ? { kind: 'network', message: describeNetworkError(error) } : failure;
    }
  }
}

/**
 * The first candidate's parts as text, thinking and calls; a missing candidate is a failure, and
 * an answer with neither candidates, prompt feedback nor usage is not a generateContent answer. An
 * empty candidate the filter (`SAFETY`, …) or the output limit (`MAX_TOKENS`) ended is
 * `empty-answer`; a usage that is no count of tokens is malformed.
 */
function readGeminiResponse(response: GenerateContentResponse): CompletionResult {
  if (response.candidates === undefined && response.promptFeedback === undefined && response.usageMetadata === undefined) {
    return { ok: false, failure: malformedBody(`no candidates, prompt feedback or usage: ${JSON.stringify(response).slice(0, 80)}`) };
  }
  const candidate = response.candidates?.[0];
  if (candidate?.content?.parts === undefined) {
    const blocked = response.promptFeedback?.blockReason;
    if (blocked !== undefined) return { ok: false, failure: { kind: 'bad-request', message: `prompt blocked: ${blocked}` } };
    const empty = emptyAnswer('Gemini', candidate?.finishReason, false);
    if (empty !== undefined) return { ok: false, failure: empty };
    return { ok: false, failure: { kind: 'server', message: `Gemini returned no candidate content (${candidate?.finishReason ?? 'no candidates'})` } };
  }
  let text = '';
  let thinking: string | undefined;
  const toolCalls: ToolCall[] = [];
  for (const part of candidate.content.parts) {
    if (part.functionCall !== undefined) {
      const name = part.functionCall.name ?? '';
      toolCalls.push({ id: part.functionCall.id ?? `${name}-${toolCalls.length}`, name, args: part.functionCall.args ?? {} });
    } else if (part.thought === true) {
      thinking = (thinking ?? '') + (part.text ?? '');
    } else {
      text += part.text ?? '';
    }
  }
  const empty = emptyAnswer('Gemini', candidate.finishReason, text !== '' || toolCalls.length > 0);
  if (empty !== undefined) return { ok: false, failure: empty };
  const usage = readGeminiUsage(response.usageMetadata);
  if ('failure' in usage) return { ok: false, failure: usage.failure };
  const result: CompletionResult = { ok: true, text, toolCalls, usage: usage.usage };
  if (thinking !== undefined) result.thinking = thinking;
  return result;
}

/**
 * `usageMetadata`, checked (answer-checks.ts). `output` is what Gemini bills as output:
 * candidates plus thoughts; `reasoning` is the thoughts. Gemini leaves out a count of 0
 * (`candidatesTokenCount` of an answer cut short), so only the prompt's count is required.
 */
function readGeminiUsage(raw: GenerateContentResponse['usageMetadata']): { usage: CompletionUsage } | { failure: Failure } {
  const usage = (raw ?? {}) as Record<string, unknown>;
  const read = readUsageCounts([
    { name: 'usageMetadata.promptTokenCount', value: usage.promptTokenCount, required: true },
    { name: 'usageMetadata.cachedContentTokenCount', value: usage.cachedContentTokenCount, required: false },
    { name: 'usageMetadata.candidatesTokenCount', value: usage.candidatesTokenCount, required: false },
    { name: 'usageMetadata.thoughtsTokenCount', value: usage.thoughtsTokenCount, required: false },
  ]);
  if ('failure' in read) return read;
  const [input = 0, cachedInput = 0, candidates = 0, reasoning = 0] = read.counts;
  return { usage: { input, cachedInput, output: candidates + reasoning, reasoning } };
}
