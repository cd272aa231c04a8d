import type { ProviderName } from '../contracts/provider.js';

/** A virtual clock in milliseconds since the session start. Waiting costs no wall time. */
export interface Clock {
  now(): number;
  /** Moves the clock forward by `ms` (never back). */
  advance(ms: number): void;
  /** Moves the clock to `ms` if that is later than now. */
  advanceTo(ms: number): void;
}

export interface QuotaLimits {
  /** Tokens per minute; undefined or 0 = unlimited. */
  tpm?: number;
  /** Requests per minute. */
  rpm?: number;
  /** Requests per day. */
  rpd?: number;
}

/** Which quota semantics apply: Gemini counts input tokens; OpenAI reserves input + max output. */
export type QuotaSemantics = ProviderName;

export type Admission =
  | { admitted: true; costTokens: number }
  | {
      admitted: false;
      /** `rate-limit`: wait and retry; `quota`: the daily budget is gone, stop. */
      kind: 'rate-limit' | 'quota';
      reason: 'tpm' | 'rpm' | 'rpd' | 'too-large';
      retryAfterMs: number;
      limitTokens: number;
      remainingTokens: number;
      resetMs: number;
    };

/** Read-only view of the quota that strategies see through `env.quota`. */
export interface QuotaView {
  readonly limits: QuotaLimits;
  /** Tokens still admissible in the current minute (Infinity when unlimited). */
  remainingTpm(): number;
  /** Tokens admitted in the last 60 s of virtual time. */
  usedLastMinute(): number;
}

export interface RetryPolicy {
  /** Give up after this many retries of one call. */
  maxRetries: number;
  /** Honour the provider's retry hint (Retry-After, RetryInfo) when present. */
  honourRetryAfter: boolean;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Multiplier of exponential backoff. */
  factor: number;
}

/** How virtual time passes between steps when the transcript has no `at` times. */
export interface PacingModel {
  /** Mean think time between steps. */
  thinkMs: number;
  /** Latency per output token. */
  msPerOutputToken: number;
  /** Fixed latency per call. */
  baseLatencyMs: number;
  /** Relative jitter (seeded), 0..1. */
  jitter: number;
}

/**
 * Live mode: waits before a retry in real time, for about `delayMs` (the sleep may add jitter),
 * and resolves with the milliseconds that really passed, as measured. Mocked runs have none: their
 * waits are virtual. `reason`: the failure waited out (`rate-limit`), for a progress line.
 */
export type RetrySleep = (delayMs: number, reason?: string) => Promise<number>;
