import { ConfigError } from '../errors.js';
import type { Provider, ProviderMode, ProviderName } from '../contracts/provider.js';
import { createCallTagger } from '../simulator/call-tag.js';
import { GeminiProvider } from './gemini.js';
import { OpenAIProvider } from './openai.js';
import type { Simulator } from '../simulator/types.js';
import { withResponseCache, type ResponseCache } from './cache.js';
import { checkBaseUrl, guardLiveProvider } from './guard.js';

export interface CreateProviderOptions {
  name: ProviderName;
  mode: ProviderMode;
  /** The model used when a request names none. */
  model: string;
  /** Another endpoint: an OpenAI-compatible server, or a Gemini proxy. */
  baseUrl?: string;
  /** Where live keys are read from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /**
   * Mocked mode: the simulator that answers the calls, through its own in-process transport.
   * Without one, mocked calls go to the default hosts untagged through the global `fetch`, for
   * tests that write their own nock replies.
   */
  simulator?: Simulator;
  /** Live mode: each request's time limit (`--request-timeout`); past it the call is aborted, a `network` failure. */
  timeoutMs?: number;
  /** Live mode: the run's stop signal (SIGINT / SIGTERM): aborts the request in flight (RequestStopped is thrown). */
  signal?: AbortSignal;
  /**
   * Mocked mode: prefix of this provider's call keys (e.g. the unit's name), so that seeded faults
   * differ between units while staying independent of the order units run in.
   */
  callKeyPrefix?: string;
  /** Live mode: answer identical requests from this cache (successes only); ignored when mocked. */
  cache?: ResponseCache;
  /**
   * Live mode: raise ProviderError on a failure that makes a whole run meaningless (bad key, no
   * permission, exhausted quota) instead of returning it; what runs use, so they stop at once.
   */
  guard?: boolean;
}

/** A stand-in key for mocked mode: the simulator never checks it, and it is never a real key. */
const MOCK_API_KEY = 'ctxbench-mock-key';
const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * A provider for a name and mode. Live and mocked differ only in the key and in who answers: in
 * mocked mode the same SDK clients are handed the simulator's `fetch`, and each call carries
 * the id of the directive the provider registered just before it. A live provider without its key,
 * or with a base URL that is not an http(s) URL, raises ConfigError. `guard` (live runs) makes
 * it raise ProviderError when it turns out unusable (providers/guard.ts) instead of answering.
 */
export function createProvider(options: CreateProviderOptions): Provider {
  const uncached = createUncachedProvider(options);
  if (options.mode !== 'live') return uncached;
  const provider = options.guard === true ? guardLiveProvider(uncached) : uncached;
  if (options.cache === undefined) return provider;
  const envBaseUrl = options.name === 'openai' ? (options.env ?? process.env).OPENAI_BASE_URL : undefined;
  return withResponseCache(provider, options.cache, { provider: options.name, endpoint: options.baseUrl ?? envBaseUrl ?? '', model: options.model });
}

function createUncachedProvider(options: CreateProviderOptions): Provider {
  const env = options.env ?? process.env;
  const mock = options.mode === 'mock';
  const tagCall = mock && options.simulator !== undefined ? createCallTagger(options.simulator, `${options.callKeyPrefix ?? ''}${options.name}-`) : undefined;
  const common = {
    mode: options.mode,
    model: options.model,
    ...(options.timeoutMs !== undefined && !mock ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal !== undefined && !mock ? { signal: options.signal } : {}),
    ...(tagCall !== undefined ? { tagCall } : {}),
    ...(mock && options.simulator?.fetch !== undefined ? { fetch: options.simulator.fetch } : {}),
    ...(mock && options.simulator?.ask !== undefined ? { ask: options.simulator.ask } : {}),
  };
  if (options.name === 'gemini') {
    const apiKey = mock ? MOCK_API_KEY : readKey(env, 'gemini', 'GEMINI_API_KEY', 'GOOGLE_API_KEY');
    const baseUrl = options.baseUrl ?? (mock ? options.simulator?.geminiBaseUrl : undefined);
    if (!mock && baseUrl !== undefined) checkBaseUrl('gemini', baseUrl);
    return new GeminiProvider({ ...common, apiKey, ...(baseUrl !== undefined ? { baseUrl } : {}) });
  }
  const apiKey = mock ? MOCK_API_KEY : readKey(env, 'openai', 'OPENAI_API_KEY');
  const baseUrl = options.baseUrl ?? (mock ? options.simulator?.openaiBaseUrl : env.OPENAI_BASE_URL) ?? OPENAI_BASE_URL;
  if (!mock) checkBaseUrl('openai', baseUrl);
  return new OpenAIProvider({
    ...common,
    apiKey,
    baseUrl,
    organization: mock ? null : (env.OPENAI_ORG_ID ?? null),
    project: mock ? null : (env.OPENAI_PROJECT_ID ?? null),
  });
}

function readKey(env: Record<string, string | undefined>, provider: ProviderName, name: string, alias?: string): string {
  const key = env[name] ?? (alias !== undefined ? env[alias] : undefined);
  if (key === undefined || key.trim() === '') {
    const also = alias !== undefined ? ` (or ${alias})` : '';
    throw new ConfigError(`the live ${provider} provider needs an API key: set ${name}${also} in the environment`);
  }
  return key;
}

export { OpenAIProvider } from './openai.js';
// createSimulator lives in './mock.js'; it patches nothing global (nock is imported only by the
// --record/--replay cassettes, and only when they are used).
