import type { Scenario } from '../scenario/types.js';
import type { CompletionResult } from '../contracts/provider.js';
import type { StrategyEnv, StrategyModelCall } from '../strategies/types.js';
import type { Clock } from '../quota/types.js';
import type { RunEvent } from '../metrics/run-events.js';
import type { Gateway } from '../quota/gateway.js';
import { retryDelay } from '../quota/retry.js';
import { refuseLongWait, waitToRetry } from '../quota/retry-wait.js';
import type { Tokenizer } from '../tokens/types.js';
import type { ProviderName } from '../contracts/provider.js';
import { applyCache, type CacheState } from '../cache/model.js';
import { strategyCallRequest } from '../cache/request-parts.js';

interface StrategyModelDeps {
  gateway: Gateway;
  scenario: Scenario;
  events: RunEvent[];
  clock: Clock;
  stepOf: () => number;
  /** The session's prompt cache, shared with the agent's requests; none = nothing cached. */
  cache?: CacheState;
  tokenizer: Tokenizer;
  format: ProviderName;
  /** The model serving the session now (the last step's recorded model): it owns the cache. */
  servedModel: () => string;
}

/**
 * The model as strategies see it (`env.model`): their own calls (summaries, recaps, map-reduce
 * passes) are metered as overhead, count against the quota, and wait on the virtual clock under
 * the scenario's retry policy. Overflow is returned to the strategy, which may shrink and retry.
 * They are billed as the agent's calls are: through the session's prompt cache (issue 14).
 */
export function createStrategyModel(deps: StrategyModelDeps): StrategyEnv['model'] {
  const { gateway, scenario, events, clock } = deps;
  return {
    async complete(call: StrategyModelCall): Promise<CompletionResult> {
      const purpose = call.purpose ?? 'summary';
      for (let attempt = 0; ; attempt++) {
        const answer = await gateway.attempt(
          {
            model: scenario.model,
            messages: call.messages,
            instruction: call.instruction,
            maxOutputTokens: call.maxOutputTokens,
            purpose,
            directive: { purpose, window: scenario.window, budgetTokens: call.maxOutputTokens },
          },
          { useQuota: true },
        );
        const { result } = answer;
        const step = deps.stepOf();
        events.push({
          type: 'call',
          step,
          atMs: clock.now(),
          purpose,
          inputTokens: result.ok ? result.usage.input : 0,
          outputTokens: result.ok ? result.usage.output : 0,
          ok: result.ok,
          ...(result.ok ? cacheBilling(deps, call, result.usage.input) : {}),
          ...(result.ok ? {} : { failure: result.failure.kind }),
        });
        if (result.ok) return result;
        events.push({ type: 'failure', step, atMs: clock.now(), attempt, failure: result.failure });
        const delay = result.failure.kind === 'overflow' ? undefined : retryDelay(scenario.retry, attempt, result.failure);
        if (delay === undefined) return result;
        const refusal = refuseLongWait(gateway, delay, answer);
        if (refusal !== undefined) return { ok: false, failure: { ...result.failure, message: `${result.failure.message} (${refusal})` } };
        const atMs = clock.now();
        const waited = await waitToRetry(gateway, clock, delay, answer, `${purpose} ${result.failure.kind}`);
        events.push({ type: 'wait', step, atMs, ms: waited, reason: `${purpose} ${result.failure.kind}` });
      }
    },
  };
}

/** What the call read from and wrote to the session's prompt cache (nothing without a cache). */
function cacheBilling(deps: StrategyModelDeps, call: StrategyModelCall, promptTokens: number): { cachedTokens: number; cacheWriteTokens: number } {
  if (deps.cache === undefined) return { cachedTokens: 0, cacheWriteTokens: 0 };
  const request = strategyCallRequest(call.instruction, call.messages, promptTokens, deps.tokenizer, deps.format, deps.servedModel());
  const usage = applyCache(deps.cache, request.parts, deps.clock.now(), request.breakpoints);
  return { cachedTokens: usage.cached, cacheWriteTokens: usage.write };
}
