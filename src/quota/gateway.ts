import type { CompletionRequest, CompletionResult, Failure, Provider } from '../contracts/provider.js';
import type { QuotaGate } from './quota.js';
import type { Tokenizer } from '../tokens/types.js';
import type { RetrySleep } from './types.js';

/**
 * The single path of every model call: window check, quota gate, provider. In mocked mode a
 * refusal of the gate travels to the simulated model, which answers with the provider's own 429,
 * so the SDK's error path is what the engine sees; in live mode the gate answers directly.
 */
export interface Gateway {
  /**
   * One attempt, no retry. `useQuota: false` for measurement calls (probes). `hiddenTokens`: what
   * the request carries beyond its messages (a replayed log's hidden prefix, re-sent reasoning);
   * counted in the window check and the quota, and told to the simulated model rather than sent.
   * `messageTokens`: the request's tokens without them, when the caller counted them already (the
   * step loop keeps its context's count along the step's diff); else they are counted here.
   */
  attempt(request: CompletionRequest, options: { useQuota: boolean; hiddenTokens?: number; messageTokens?: number }): Promise<Attempt>;
  /**
   * Live mode only: waits out a refusal of the provider in real time (the engine's injected
   * sleep, capped at the retry policy's `maxDelayMs`) and returns the ms that passed, measured.
   * Absent in mocked mode, where every wait is virtual (quota/retry-wait.ts).
   */
  sleep?: RetrySleep;
  /**
   * Live mode only: the longest wait a retry may ask for (`--max-retry-wait`); a longer one ends
   * the call at once with the failure (quota/retry-wait.ts `refuseLongWait`) instead of waiting.
   */
  maxWaitMs?: number;
}

export interface Attempt {
  result: CompletionResult;
  inputTokens: number;
  /**
   * The provider answered (over HTTP, or nock); false or absent when the gateway answered itself
   * (window check, or the quota gate in live mode): such a refusal is waited out virtually.
   */
  sent?: boolean;
}

export interface GatewayDeps {
  provider: Provider;
  quota: QuotaGate;
  tokenizer: Tokenizer;
  window: number;
  /** Gemini histories that carried signatures must keep them. */
  requireThoughtSignatures: boolean;
  /** Live mode: the real sleep of retries (see `Gateway.sleep`); never given in mocked mode. */
  sleep?: RetrySleep;
  /** The longest real wait (the retry policy's `maxDelayMs`); a longer hint is cut to it. */
  maxSleepMs?: number;
  /** Live mode: a wait asked for beyond this ends the call (`Gateway.maxWaitMs`). */
  maxWaitMs?: number;
}

export function createGateway(deps: GatewayDeps): Gateway {
  const { provider, quota, tokenizer, window } = deps;
  const mocked = provider.mode === 'mock';
  const send = (request: CompletionRequest, extra: Partial<NonNullable<CompletionRequest['directive']>>) =>
    provider.complete({
      ...request,
      directive: {
        purpose: request.purpose,
        window,
        requireThoughtSignatures: deps.requireThoughtSignatures,
        ...request.directive,
        ...extra,
      },
    });

  const sent = async (request: CompletionRequest, extra: Partial<NonNullable<CompletionRequest['directive']>>, inputTokens: number): Promise<Attempt> => ({
    inputTokens,
    result: await send(request, extra),
    sent: true,
  });
  const sleep = deps.sleep;
  const cap = deps.maxSleepMs ?? Number.POSITIVE_INFINITY;

  return {
    ...(sleep !== undefined && !mocked ? { sleep: (delayMs: number, reason?: string) => sleep(Math.min(delayMs, cap), reason) } : {}),
    ...(sleep !== undefined && !mocked && deps.maxWaitMs !== undefined ? { maxWaitMs: deps.maxWaitMs } : {}),
    async attempt(request, { useQuota, hiddenTokens = 0, messageTokens }) {
      const inputTokens = (messageTokens ?? tokenizer.countMessages(request.messages, provider.name, request.instruction)) + hiddenTokens;
      if (hiddenTokens > 0) request = { ...request, directive: { purpose: request.purpose, window, ...request.directive, hiddenTokens } };
      if (inputTokens > window && !mocked) {
        return {
          inputTokens,
          result: failed({ kind: 'overflow', message: `input of ${inputTokens} tokens exceeds the window of ${window}`, inputTokens, limit: window }),
        };
      }
      if (inputTokens > window || !useQuota) return sent(request, {}, inputTokens);
      const admission = quota.admit({ inputTokens, maxOutputTokens: request.maxOutputTokens ?? 0 });
      if (admission.admitted) return sent(request, {}, inputTokens);
      if (admission.kind === 'quota') {
        return { inputTokens, result: failed({ kind: 'quota', message: `daily quota exhausted (${admission.reason})` }) };
      }
      const rateLimit = {
        retryAfterMs: admission.retryAfterMs,
        limitTokens: admission.limitTokens,
        remainingTokens: admission.remainingTokens,
        resetMs: admission.resetMs,
      };
      if (mocked) return sent(request, { rateLimit }, inputTokens);
      return {
        inputTokens,
        result: failed({ kind: 'rate-limit', message: `simulated ${admission.reason} limit`, retryAfterMs: admission.retryAfterMs }),
      };
    },
  };
}

function failed(failure: Failure): CompletionResult {
  return { ok: false, failure };
}
