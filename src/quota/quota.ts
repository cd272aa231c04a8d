import type { Admission, Clock, QuotaLimits, QuotaSemantics, QuotaView } from './types.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** What a call asks of the quota. */
export interface QuotaRequest {
  inputTokens: number;
  /** The output budget sent with the call (`max_tokens` / `maxOutputTokens`). */
  maxOutputTokens: number;
}

/** Admitted usage at one virtual instant (admissions at the same instant are merged). */
export interface UsagePoint {
  atMs: number;
  tokens: number;
  requests: number;
}

/**
 * The provider's rate limiter, replayed on the virtual clock (DESIGN.md §7): sliding 60 s windows
 * for TPM and RPM, a sliding 24 h window for RPD.
 *
 * Costs follow each provider's semantics. Gemini counts the input tokens of a request toward TPM.
 * OpenAI's limiter counts `max_tokens` at admission (input + max output) and does not give the
 * unused part back when the call ends, so the reservation stays for the whole window and there is
 * no settle step for either provider.
 *
 * Admissions are kept in time order (for `usageTimeline`); the windows are head indexes into that
 * list with running sums, so pruning expired records is amortised O(1) per admission.
 */
export class QuotaGate implements QuotaView {
  readonly limits: QuotaLimits;
  readonly semantics: QuotaSemantics;
  readonly #clock: Clock;
  readonly #points: UsagePoint[] = [];
  #minuteHead = 0;
  #minuteTokens = 0;
  #minuteRequests = 0;
  #dayHead = 0;
  #dayRequests = 0;

  constructor(limits: QuotaLimits, semantics: QuotaSemantics, clock: Clock) {
    this.limits = { ...limits };
    this.semantics = semantics;
    this.#clock = clock;
  }

  /** The tokens a request counts toward TPM under this gate's semantics. */
  costOf(request: QuotaRequest): number {
    return this.semantics === 'openai' ? request.inputTokens + request.maxOutputTokens : request.inputTokens;
  }

  /**
   * Admits the request at `clock.now()` and records its cost, or says why not: `rate-limit` with
   * the exact virtual wait until enough of the window expires (`too-large` when the request alone
   * exceeds TPM and can never pass), or `quota` when the daily request budget is gone.
   */
  admit(request: QuotaRequest): Admission {
    this.#prune();
    const cost = this.costOf(request);
    const refusal = this.#refuse(cost);
    if (refusal !== undefined) return refusal;
    this.#record(cost);
    return { admitted: true, costTokens: cost };
  }

  remainingTpm(): number {
    this.#prune();
    const { tpm } = this.limits;
    return isLimited(tpm) ? Math.max(0, tpm - this.#minuteTokens) : Infinity;
  }

  usedLastMinute(): number {
    this.#prune();
    return this.#minuteTokens;
  }

  /** Every admission so far, in time order, for the quota chart. */
  usageTimeline(): UsagePoint[] {
    return this.#points.map((point) => ({ ...point }));
  }

  #refuse(cost: number): Admission | undefined {
    const { tpm, rpm, rpd } = this.limits;
    if (isLimited(tpm) && cost > tpm) return this.#refusal('rate-limit', 'too-large', MINUTE_MS);
    if (isLimited(rpd) && this.#dayRequests >= rpd) {
      const wait = this.#waitToExpire(this.#dayHead, DAY_MS, this.#dayRequests + 1 - rpd, (p) => p.requests);
      return this.#refusal('quota', 'rpd', wait);
    }
    const tpmWait =
      isLimited(tpm) && this.#minuteTokens + cost > tpm ? this.#waitToExpire(this.#minuteHead, MINUTE_MS, this.#minuteTokens + cost - tpm, (p) => p.tokens) : 0;
    const rpmWait =
      isLimited(rpm) && this.#minuteRequests >= rpm ? this.#waitToExpire(this.#minuteHead, MINUTE_MS, this.#minuteRequests + 1 - rpm, (p) => p.requests) : 0;
    if (tpmWait === 0 && rpmWait === 0) return undefined;
    // Both windows only free up as time passes, so the longer wait satisfies both.
    return this.#refusal('rate-limit', tpmWait >= rpmWait ? 'tpm' : 'rpm', Math.max(tpmWait, rpmWait));
  }

  #refusal(kind: 'rate-limit' | 'quota', reason: 'tpm' | 'rpm' | 'rpd' | 'too-large', retryAfterMs: number): Admission {
    const { tpm } = this.limits;
    // With no token limit there is nothing to put in the token headers: both are reported as 0.
    const limitTokens = isLimited(tpm) ? tpm : 0;
    const remainingTokens = isLimited(tpm) ? Math.max(0, tpm - this.#minuteTokens) : 0;
    const resetMs = reason === 'rpd' ? retryAfterMs : this.#minuteResetMs();
    return { admitted: false, kind, reason, retryAfterMs, limitTokens, remainingTokens, resetMs };
  }

  /**
   * Virtual ms until at least `amount` (tokens or requests, per `size`) of the window starting at
   * `head` has expired. A point expires exactly `windowMs` after it was admitted.
   */
  #waitToExpire(head: number, windowMs: number, amount: number, size: (point: UsagePoint) => number): number {
    let freed = 0;
    for (let i = head; i < this.#points.length; i++) {
      const point = this.#points[i] as UsagePoint;
      freed += size(point);
      if (freed >= amount) return point.atMs + windowMs - this.#clock.now();
    }
    // Unreachable while callers ask for at most what the window holds; wait a whole window anyway.
    return windowMs;
  }

  /** Ms until the minute window is empty (OpenAI's `x-ratelimit-reset-tokens`). */
  #minuteResetMs(): number {
    const last = this.#points.at(-1);
    if (last === undefined || this.#minuteHead >= this.#points.length) return 0;
    return last.atMs + MINUTE_MS - this.#clock.now();
  }

  #record(cost: number): void {
    const now = this.#clock.now();
    const last = this.#points.at(-1);
    if (last?.atMs === now) {
      last.tokens += cost;
      last.requests += 1;
    } else {
      this.#points.push({ atMs: now, tokens: cost, requests: 1 });
    }
    this.#minuteTokens += cost;
    this.#minuteRequests += 1;
    this.#dayRequests += 1;
  }

  /** Moves the window heads past expired points; the clock never goes back, so this is final. */
  #prune(): void {
    const now = this.#clock.now();
    while (this.#minuteHead < this.#points.length) {
      const point = this.#points[this.#minuteHead] as UsagePoint;
      if (point.atMs + MINUTE_MS > now) break;
      this.#minuteTokens -= point.tokens;
      this.#minuteRequests -= point.requests;
      this.#minuteHead += 1;
    }
    while (this.#dayHead < this.#points.length) {
      const point = this.#points[this.#dayHead] as UsagePoint;
      if (point.atMs + DAY_MS > now) break;
      this.#dayRequests -= point.requests;
      this.#dayHead += 1;
    }
  }
}

function isLimited(limit: number | undefined): limit is number {
  return limit !== undefined && limit > 0;
}
