import nock from 'nock';
import type { Tokenizer } from '../tokens/types.js';
import type { ProviderName, SimDirective } from './types.js';
import { CALL_HEADER } from './call-tag.js';
import { FORMATS, simulateCall } from './simulated/model.js';
import type { FaultRates, SimCall, SimReply, Simulator } from './simulated/types.js';

export const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface SimulatorOptions {
  tokenizer: Tokenizer;
  seed: number;
  faults?: FaultRates;
  /** The OpenAI-compatible base URL to intercept (default `https://api.openai.com/v1`). */
  openaiBaseUrl?: string;
  /** The Gemini base URL to intercept (default `https://generativelanguage.googleapis.com`). */
  geminiBaseUrl?: string;
}

interface PendingCall extends SimCall {
  directive: SimDirective;
  key: string;
}

/**
 * Installs the simulated model behind nock (DESIGN.md §5): persistent interceptors for Gemini's
 * `models/{model}:generateContent` and OpenAI's `chat/completions` that answer requests carrying
 * an `x-ctxbench-call` header with the directive registered under it. Real network is refused.
 */
export function installSimulator(options: SimulatorOptions): Simulator {
  nock.disableNetConnect();
  const pending = new Map<string, PendingCall>();
  let registered = 0;
  const gemini = new URL(options.geminiBaseUrl ?? DEFAULT_GEMINI_BASE_URL);
  const openai = new URL(options.openaiBaseUrl ?? DEFAULT_OPENAI_BASE_URL);

  const answer = (format: ProviderName, model: string, body: unknown, id: string | undefined): SimReply => {
    const call = id === undefined ? undefined : pending.get(id);
    if (id === undefined || call === undefined) {
      return FORMATS[format].badRequest(`ctxbench simulator: no directive registered for call ${id ?? '(none)'}.`);
    }
    pending.delete(id);
    const { directive, key, shape } = call;
    return simulateCall({ ...options, format, body, model, directive, key, ...(shape !== undefined ? { shape } : {}) });
  };

  const geminiInterceptor = nock(gemini.origin)
    .persist()
    .post(new RegExp(`^${escapeRegExp(trimSlash(gemini.pathname))}/v1beta/models/[^/:]+:generateContent$`))
    .matchHeader(CALL_HEADER, /.+/);
  geminiInterceptor.reply(async function (uri, body) {
    const model = /models\/([^/:]+):generateContent/.exec(uri)?.[1] ?? 'gemini';
    return toNockReply(answer('gemini', decodeURIComponent(model), body, this.req.headers[CALL_HEADER]));
  });
  const openaiInterceptor = nock(openai.origin)
    .persist()
    .post(`${trimSlash(openai.pathname)}/chat/completions`)
    .matchHeader(CALL_HEADER, /.+/);
  openaiInterceptor.reply(async function (_uri, body) {
    const model = typeof body === 'object' && typeof body['model'] === 'string' ? body['model'] : 'gpt';
    return toNockReply(answer('openai', model, body, this.req.headers[CALL_HEADER]));
  });

  return {
    openaiBaseUrl: openai.href.replace(/\/$/, ''),
    geminiBaseUrl: gemini.href.replace(/\/$/, ''),
    register(directive, call = {}) {
      registered += 1;
      const key = call.key ?? `sim-${registered}`;
      // The key may repeat across providers; the id must not, while calls are in flight.
      const id = `${key}#${registered}`;
      pending.set(id, { ...call, directive, key });
      return id;
    },
    uninstall() {
      nock.removeInterceptor(geminiInterceptor);
      nock.removeInterceptor(openaiInterceptor);
      pending.clear();
    },
  };
}

/** A timeout becomes a socket error the SDKs report as a connection failure, without waiting. */
async function toNockReply(reply: SimReply): Promise<nock.ReplyFnResult> {
  if (reply.kind === 'timeout') {
    throw Object.assign(new Error('simulated timeout: the connection timed out'), { code: 'ETIMEDOUT' });
  }
  return [reply.status, reply.body, reply.headers];
}

function trimSlash(path: string): string {
  return path.replace(/\/+$/, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
