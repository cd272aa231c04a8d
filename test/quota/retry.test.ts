import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, retryDelay } from '../../src/quota/retry.js';
import type { Failure } from '../../src/contracts/provider.js';
import type { RetryPolicy } from '../../src/quota/types.js';

const policy: RetryPolicy = DEFAULT_RETRY_POLICY;
const noHints: RetryPolicy = { ...policy, honourRetryAfter: false };
const rateLimited = (retryAfterMs?: number): Failure => ({ kind: 'rate-limit', message: '429', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });

describe('retryDelay', () => {
  it.each<[string, RetryPolicy, number, Failure, number | undefined]>([
    ['rate limit with a hint: the hint', policy, 0, rateLimited(12_345), 12_345],
    ['a hint longer than maxDelay is still honoured', policy, 0, rateLimited(90_000), 90_000],
    ['rate limit without a hint: backoff', policy, 0, rateLimited(), 1000],
    ['hints ignored when told to', noHints, 2, rateLimited(12_345), 4000],
    ['server error: backoff', policy, 1, { kind: 'server', message: '503', status: 503 }, 2000],
    ['network error: backoff', policy, 3, { kind: 'network', message: 'reset' }, 8000],
    ['backoff is capped', { ...policy, maxRetries: 20 }, 10, { kind: 'server', message: '500' }, 60_000],
    ['last allowed retry', policy, 4, rateLimited(1000), 1000],
    ['after maxRetries: give up', policy, 5, rateLimited(1000), undefined],
    ['no retries allowed', { ...policy, maxRetries: 0 }, 0, { kind: 'server', message: '500' }, undefined],
    ['quota: stop', policy, 0, { kind: 'quota', message: 'daily quota' }, undefined],
    ['overflow: not retryable as is', policy, 0, { kind: 'overflow', message: 'too long' }, undefined],
    ['bad request: not retryable', policy, 0, { kind: 'bad-request', message: 'bad', status: 400 }, undefined],
  ])('%s', (_name, retryPolicy, attempt, failure, expected) => {
    expect(retryDelay(retryPolicy, attempt, failure)).toBe(expected);
  });

  it('rejects a negative or fractional attempt', () => {
    expect(() => retryDelay(policy, -1, rateLimited())).toThrow(RangeError);
    expect(() => retryDelay(policy, 0.5, rateLimited())).toThrow(RangeError);
  });

  it('defaults match the documented policy', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({ maxRetries: 5, honourRetryAfter: true, baseDelayMs: 1000, maxDelayMs: 60_000, factor: 2 });
  });
});
