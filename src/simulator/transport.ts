import type { Tokenizer } from '../tokens/types.js';
import type { ProviderName, SimDirective } from '../contracts/provider.js';
import { CALL_HEADER } from './call-tag.js';
import { NOT_JSON, copyJson } from './json-copy.js';
import { FORMATS, simulateCall } from './model.js';
import type { FaultRates, SimAsk, SimCall, SimFetch, SimReply, SimSuccess, Simulator } from './types.js';

const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface SimulatorOptions {
  tokenizer: Tokenizer;
  seed: number;
  faults?: FaultRates;
  /** The OpenAI-compatible base URL the simulator answers for (default `https://api.openai.com/v1`). */
  openaiBaseUrl?: string;
  /** The Gemini base URL the simulator answers for (default `https://generativelanguage.googleapis.com`). */
  geminiBaseUrl?: string;
}

interface PendingCall extends SimCall {
  directive: SimDirective;
  key: string;
}

/**
 * Creates the simulated model of one run (DESIGN.md §5) and its in-process transport: a `fetch`
 * that the run's SDK clients are given instead of the global one. It answers Gemini's
 * `models/{model}:generateContent` and OpenAI's `chat/completions` for requests carrying an
 * `x-ctxbench-call` header with the directive registered under it, by handing the request body to
 * the simulator and wrapping its reply in a `Response` — no HTTP parsing, no interception. It
 * changes no global: concurrent simulators in one process are independent, nothing needs
 * restoring, and a request it does not answer fails as a network error, so a mocked client never
 * reaches the network by construction.
 */
export function createSimulator(options: SimulatorOptions): Simulator {
  const pending = new Map<string, PendingCall>();
  let registered = 0;
  let uninstalled = false;
  const gemini = new URL(options.geminiBaseUrl ?? DEFAULT_GEMINI_BASE_URL);
  const openai = new URL(options.openaiBaseUrl ?? DEFAULT_OPENAI_BASE_URL);
  const geminiPath = new RegExp(`^${escapeRegExp(trimSlash(gemini.pathname))}/v1beta/models/([^/:]+):generateContent$`);
  const openaiPath = `${trimSlash(openai.pathname)}/chat/completions`;

  const answer = (format: ProviderName, model: string, body: unknown, call: PendingCall): SimReply => {
    const { directive, key, shape, canonical } = call;
    return simulateCall({
      ...options,
      format,
      body,
      model,
      directive,
      key,
      ...(shape !== undefined ? { shape } : {}),
      ...(canonical !== undefined ? { canonical } : {}),
    });
  };

  const route = (url: URL, method: string, id: string | null): { format: ProviderName; model?: string } | undefined => {
    if (uninstalled || method !== 'POST' || id === null) return undefined;
    if (url.origin === gemini.origin) {
      const match = geminiPath.exec(url.pathname);
      if (match !== null) return { format: 'gemini', model: decodeURIComponent(match[1] as string) };
    }
    if (url.origin === openai.origin && url.pathname === openaiPath) return { format: 'openai' };
    return undefined;
  };

  // Every call of a run goes to one or two URLs: each is parsed once (a URL is only read here).
  const urls = new Map<string, URL>();
  const urlOf = (href: string): URL => {
    let url = urls.get(href);
    if (url === undefined) {
      url = new URL(href);
      if (urls.size < MAX_URLS) urls.set(href, url);
    }
    return url;
  };

  /** The reply to a request (`body` read only when its call was registered without what it was rendered from); throws for one it refuses. */
  const reply = async (url: URL, method: string, id: string | null, body: () => Promise<string>): Promise<SimReply> => {
    const target = route(url, method, id);
    if (target === undefined) {
      throw new TypeError(`ctxbench simulator: refused ${method} ${url.origin}${url.pathname} (mocked runs never reach the network)`);
    }
    const call = id === null ? undefined : pending.get(id);
    if (id === null || call === undefined) {
      return FORMATS[target.format].badRequest(`ctxbench simulator: no directive registered for call ${id ?? '(none)'}.`);
    }
    pending.delete(id);
    // An OpenAI call registered with what its body was rendered from is read from that, not parsed back.
    if (target.format === 'openai' && call.canonical !== undefined) return answer('openai', call.canonical.model, undefined, call);
    const parsed = parseBody(await body());
    const model = target.model ?? (isRecord(parsed) && typeof parsed.model === 'string' ? parsed.model : 'gpt');
    return answer(target.format, model, parsed, call);
  };

  const fetch: SimFetch = async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    // input is a string or a URL when request is absent.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    const url = urlOf(request?.url ?? String(input));
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    // Both SDKs hand over their JSON body as a string: read as is, not streamed through a Response.
    const raw = init?.body;
    const body = async (): Promise<string> =>
      typeof raw === 'string' ? raw : raw !== undefined && raw !== null ? await new Response(raw).text() : request !== undefined ? await request.text() : '';
    return toResponse(await reply(url, method, callIdOf(init?.headers ?? request?.headers), body));
  };

  // As `fetch` answers `POST url` with the tag as its headers and no body.
  const ask: SimAsk = async (url, tag) => {
    const answered = await reply(urlOf(url), 'POST', callIdOf(tag), () => Promise.resolve(''));
    return answered.kind === 'http' && answered.status >= 200 && answered.status <= 299 ? simulatedSuccess(answered) : toResponse(answered);
  };

  return {
    openaiBaseUrl: openai.href.replace(/\/$/, ''),
    geminiBaseUrl: gemini.href.replace(/\/$/, ''),
    fetch,
    ask,
    register(directive, call = {}) {
      registered += 1;
      const key = call.key ?? `sim-${registered}`;
      // The key may repeat across providers; the id must not, while calls are in flight.
      const id = `${key}#${registered}`;
      pending.set(id, { ...call, directive, key });
      return id;
    },
    uninstall() {
      uninstalled = true;
      pending.clear();
    },
  };
}

/** URLs parsed and kept per simulator (a run asks one or two). */
const MAX_URLS = 16;

/**
 * The call id a request's headers carry, or null. The provider's in-process call hands over the
 * tag itself (a plain object holding the header by its own name), read as is; any other headers
 * (the OpenAI SDK's own `Headers`, a caller's list) are read as HTTP reads them, case aside.
 */
function callIdOf(given: RequestInit['headers']): string | null {
  // The plain tag first: `Headers` (undici) is loaded on first use, which a tag need not pay for.
  if (isRecord(given) && !Array.isArray(given) && Object.hasOwn(given, CALL_HEADER)) {
    const id = (given as Record<string, unknown>)[CALL_HEADER];
    // As a Headers reads a value: without its leading and trailing HTTP whitespace.
    if (typeof id === 'string') return id.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  }
  if (given instanceof Headers) return given.get(CALL_HEADER);
  return new Headers(given).get(CALL_HEADER);
}

/** A timeout is a connection error the SDKs report as such, without waiting (as a socket's ETIMEDOUT). */
function toResponse(reply: SimReply): Response {
  if (reply.kind === 'timeout') {
    throw Object.assign(new Error('simulated timeout: the connection timed out'), { code: 'ETIMEDOUT' });
  }
  return simulatedResponse(reply.body, { status: reply.status, headers: reply.headers });
}

/**
 * A `Response` whose body is read from what it was made of: the SDKs read a reply with `json()` or
 * `text()`, and a body streamed through undici (encoded, chunked, read back, decoded) cost a sixth
 * of a mocked request. A body the simulator built as a value is written out only when its text is
 * read; `json()` hands over a copy of it, the value `JSON.parse` of its text gives (`copyJson`),
 * made without writing and parsing the text (every reply of a run went through both).
 */
function simulatedResponse(body: unknown, init: ResponseInit): Response {
  const { text, json } = bodyReader(body);
  return Object.defineProperties(new Response(null, init), { text: { value: text }, json: { value: json } });
}

/** A 2xx reply as `simulatedResponse` would read: its status, its headers as `Headers` reads them, its body. */
function simulatedSuccess(reply: Extract<SimReply, { kind: 'http' }>): SimSuccess {
  const headers = new Map(Object.entries(reply.headers).map(([name, value]) => [name.toLowerCase(), value.trim()]));
  return { ok: true, status: reply.status, headers: { get: (name) => headers.get(name.toLowerCase()) ?? null }, ...bodyReader(reply.body) };
}

/** `text()` and `json()` of a body the simulator built: written out only when its text is read (see `simulatedResponse`). */
function bodyReader(body: unknown): { text: () => Promise<string>; json: () => Promise<unknown> } {
  let text = typeof body === 'string' ? body : undefined;
  const textOf = (): string => (text ??= JSON.stringify(body));
  const json = (): Promise<unknown> =>
    new Promise((resolve) => {
      const copy = text === undefined ? copyJson(body) : NOT_JSON;
      resolve(copy !== NOT_JSON ? copy : (JSON.parse(textOf()) as unknown));
    });
  return { text: () => Promise.resolve(textOf()), json };
}

/** The body as JSON when it is JSON, else the text (as an HTTP interceptor would hand it over). */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function trimSlash(path: string): string {
  return path.replace(/\/+$/, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
