import type { MessageEvent } from '../transcript/types.js';
import type { StepContext } from './step.js';
import type { StepRecord } from '../metrics/run-events.js';
import type { StrategyFailedError } from '../strategies/external/failure.js';

/**
 * Ends a unit whose strategy failed (a policy process that crashed, hung or wrote garbage; a
 * module that threw, returned no message list or ran past its time limit): a `crash` event of
 * kind `strategy` or `strategy-timeout` with the explanation, and, when the
 * failure came while a step was being prepared, that step as crashed. The session cannot go on
 * without its strategy, whatever `onCrash` says.
 */
export function recordStrategyCrash(ctx: StepContext, steps: StepRecord[], error: StrategyFailedError, preparing: MessageEvent | undefined): void {
  const { env, clock, events } = ctx;
  const kind = error.kind;
  events.push({ type: 'failure', step: env.step, atMs: clock.now(), attempt: 0, failure: { kind, message: error.message } });
  events.push({ type: 'crash', step: env.step, atMs: clock.now(), kind, message: error.message });
  if (preparing === undefined) return;
  steps.push({
    step: env.step,
    messageId: preparing.id,
    atMs: clock.now(),
    promptTokens: 0,
    completionTokens: 0,
    contextTokens: 0,
    contextMessages: 0,
    cachedPrefixTokens: 0,
    cacheWriteTokens: 0,
    overheadTokens: 0,
    retries: 0,
    rateLimitHits: 0,
    waitMs: 0,
    status: 'crashed',
    failure: kind,
  });
}
