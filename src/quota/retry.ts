import type { Failure, FailureKind } from '../contracts/provider.js';
import type { RetryPolicy } from './types.js';

/** The retry policy when a scenario sets none. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  honourRetryAfter: true,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  factor: 2,
};

/**
 * Failures that a later identical request cannot fix: `quota` (the budget is gone), `overflow`,
 * `bad-request` and `invalid-request` (the request itself is wrong; a strategy's `recover` may
 * change an overflowing one instead), `empty-answer` (the same context meets the same filter or
 * output limit).
 */
const RETRYABLE: Record<FailureKind, boolean> = {
  'rate-limit': true,
  server: true,
  network: true,
  quota: false,
  overflow: false,
  'bad-request': false,
  'invalid-request': false,
  'empty-answer': false,
  strategy: false,
  'strategy-timeout': false,
};

/**
 * How long to wait (virtual ms) before retrying a call that failed with `failure`, where `attempt`
 * is the number of retries already made for that call (0 before the first retry), or `undefined`
 * to give up: after `maxRetries` retries, or for a failure that is not retryable. A rate limit's
 * own hint (Retry-After, RetryInfo) is honoured as given, not capped, because waiting less than
 * the provider says only earns another 429. Otherwise the wait is exponential backoff.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, failure: Failure): number | undefined {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`retry attempt must be an integer >= 0, got ${attempt}`);
  if (attempt >= policy.maxRetries || !RETRYABLE[failure.kind]) return undefined;
  if (failure.kind === 'rate-limit' && policy.honourRetryAfter && failure.retryAfterMs !== undefined) {
    return Math.max(0, failure.retryAfterMs);
  }
  return backoffDelay(policy, attempt);
}

/** `baseDelayMs × factor^attempt`, capped at `maxDelayMs` (`attempt` counts from 0). */
function backoffDelay(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.factor ** attempt);
}
