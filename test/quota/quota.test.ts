import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/quota/clock.js';
import { QuotaGate } from '../../src/quota/quota.js';
import type { QuotaLimits, QuotaSemantics } from '../../src/quota/types.js';

function gate(limits: QuotaLimits, semantics: QuotaSemantics = 'gemini') {
  const clock = createClock();
  return { clock, quota: new QuotaGate(limits, semantics, clock) };
}

describe('QuotaGate costs', () => {
  it.each([
    { semantics: 'gemini' as const, input: 300, maxOut: 200, cost: 300 },
    { semantics: 'openai' as const, input: 300, maxOut: 200, cost: 500 },
  ])('$semantics charges $cost for $input in + $maxOut max out', ({ semantics, input, maxOut, cost }) => {
    const { quota } = gate({ tpm: 1000 }, semantics);
    expect(quota.admit({ inputTokens: input, maxOutputTokens: maxOut })).toEqual({ admitted: true, costTokens: cost });
    expect(quota.usedLastMinute()).toBe(cost);
    expect(quota.remainingTpm()).toBe(1000 - cost);
  });

  it('the same traffic passes Gemini and is refused by OpenAI, which reserves max output', () => {
    const traffic = { inputTokens: 400, maxOutputTokens: 300 };
    const gemini = gate({ tpm: 1000 }, 'gemini').quota;
    const openai = gate({ tpm: 1000 }, 'openai').quota;
    expect([gemini.admit(traffic).admitted, gemini.admit(traffic).admitted]).toEqual([true, true]);
    expect([openai.admit(traffic).admitted, openai.admit(traffic).admitted]).toEqual([true, false]);
  });
});

describe('QuotaGate TPM window', () => {
  it('refuses with the exact wait until enough of the window expires', () => {
    const { clock, quota } = gate({ tpm: 1000 });
    quota.admit({ inputTokens: 400, maxOutputTokens: 0 }); // t=0
    clock.advance(10_000);
    quota.admit({ inputTokens: 400, maxOutputTokens: 0 }); // t=10s
    clock.advance(5_000); // t=15s, 800 used
    const refused = quota.admit({ inputTokens: 500, maxOutputTokens: 0 });
    // 300 too many: the 400 admitted at t=0 must expire, at t=60s, 45s from now.
    expect(refused).toEqual({
      admitted: false,
      kind: 'rate-limit',
      reason: 'tpm',
      retryAfterMs: 45_000,
      limitTokens: 1000,
      remainingTokens: 200,
      resetMs: 55_000,
    });
  });

  it('admits exactly at retryAfterMs and not one ms before', () => {
    const { clock, quota } = gate({ tpm: 1000 });
    quota.admit({ inputTokens: 900, maxOutputTokens: 0 });
    clock.advance(20_000);
    const refused = quota.admit({ inputTokens: 200, maxOutputTokens: 0 });
    if (refused.admitted) throw new Error('expected a refusal');
    expect(refused.retryAfterMs).toBe(40_000);
    clock.advance(refused.retryAfterMs - 1);
    expect(quota.admit({ inputTokens: 200, maxOutputTokens: 0 }).admitted).toBe(false);
    clock.advance(1);
    expect(quota.admit({ inputTokens: 200, maxOutputTokens: 0 }).admitted).toBe(true);
  });

  it('waits for as many old records as the request needs', () => {
    const { clock, quota } = gate({ tpm: 1000 });
    for (const at of [0, 1000, 2000, 3000]) {
      clock.advanceTo(at);
      quota.admit({ inputTokens: 250, maxOutputTokens: 0 });
    }
    clock.advanceTo(4000);
    const refused = quota.admit({ inputTokens: 600, maxOutputTokens: 0 });
    // 600 needs three of the 250s gone: the one admitted at t=2000 expires at t=62000.
    expect(refused).toMatchObject({ admitted: false, reason: 'tpm', retryAfterMs: 58_000 });
  });

  it('the sliding window forgets usage after 60 s', () => {
    const { clock, quota } = gate({ tpm: 1000 });
    quota.admit({ inputTokens: 700, maxOutputTokens: 0 });
    clock.advance(30_000);
    quota.admit({ inputTokens: 200, maxOutputTokens: 0 });
    expect(quota.usedLastMinute()).toBe(900);
    clock.advance(30_000);
    expect(quota.usedLastMinute()).toBe(200);
    expect(quota.remainingTpm()).toBe(800);
    clock.advance(30_000);
    expect(quota.usedLastMinute()).toBe(0);
  });

  it('a request larger than TPM can never pass', () => {
    const { clock, quota } = gate({ tpm: 1000 }, 'openai');
    const huge = { inputTokens: 900, maxOutputTokens: 200 };
    expect(quota.admit(huge)).toMatchObject({ admitted: false, kind: 'rate-limit', reason: 'too-large', retryAfterMs: 60_000 });
    clock.advance(3_600_000);
    expect(quota.admit(huge)).toMatchObject({ admitted: false, reason: 'too-large' });
    expect(quota.usedLastMinute()).toBe(0);
  });

  it('unlimited TPM admits anything and reports Infinity remaining', () => {
    const { quota } = gate({});
    expect(quota.admit({ inputTokens: 10_000_000, maxOutputTokens: 0 }).admitted).toBe(true);
    expect(quota.remainingTpm()).toBe(Infinity);
    expect(gate({ tpm: 0 }).quota.admit({ inputTokens: 5, maxOutputTokens: 0 }).admitted).toBe(true);
  });
});

describe('QuotaGate RPM and RPD', () => {
  it('RPM refuses the extra request until the oldest leaves the window', () => {
    const { clock, quota } = gate({ rpm: 2 });
    quota.admit({ inputTokens: 1, maxOutputTokens: 0 });
    clock.advance(15_000);
    quota.admit({ inputTokens: 1, maxOutputTokens: 0 });
    clock.advance(15_000);
    expect(quota.admit({ inputTokens: 1, maxOutputTokens: 0 })).toMatchObject({
      admitted: false,
      kind: 'rate-limit',
      reason: 'rpm',
      retryAfterMs: 30_000,
    });
    clock.advance(30_000);
    expect(quota.admit({ inputTokens: 1, maxOutputTokens: 0 }).admitted).toBe(true);
  });

  it('when TPM and RPM both refuse, the longer wait wins', () => {
    const { clock, quota } = gate({ tpm: 100, rpm: 2 });
    quota.admit({ inputTokens: 1, maxOutputTokens: 0 }); // t=0: frees a request slot at t=60s
    clock.advance(30_000);
    quota.admit({ inputTokens: 90, maxOutputTokens: 0 }); // t=30s: frees 90 tokens at t=90s
    clock.advance(10_000);
    expect(quota.admit({ inputTokens: 20, maxOutputTokens: 0 })).toMatchObject({ reason: 'tpm', retryAfterMs: 50_000 });
    clock.advance(20_000);
    expect(quota.admit({ inputTokens: 20, maxOutputTokens: 0 })).toMatchObject({ reason: 'tpm', retryAfterMs: 30_000 });
  });

  it('RPD exhausted is a quota failure (stop), even when the minute is free', () => {
    const { clock, quota } = gate({ rpd: 2 });
    quota.admit({ inputTokens: 1, maxOutputTokens: 0 });
    clock.advance(120_000);
    quota.admit({ inputTokens: 1, maxOutputTokens: 0 });
    clock.advance(120_000);
    const refused = quota.admit({ inputTokens: 1, maxOutputTokens: 0 });
    expect(refused).toMatchObject({ admitted: false, kind: 'quota', reason: 'rpd', retryAfterMs: 86_400_000 - 240_000 });
    clock.advance(86_400_000 - 240_000);
    expect(quota.admit({ inputTokens: 1, maxOutputTokens: 0 }).admitted).toBe(true);
  });
});

describe('QuotaGate bookkeeping', () => {
  it('usageTimeline lists admissions, merging those at one instant, and skips refusals', () => {
    const { clock, quota } = gate({ tpm: 1000 });
    quota.admit({ inputTokens: 100, maxOutputTokens: 0 });
    quota.admit({ inputTokens: 50, maxOutputTokens: 0 });
    clock.advance(1000);
    quota.admit({ inputTokens: 900, maxOutputTokens: 0 });
    quota.admit({ inputTokens: 300, maxOutputTokens: 0 });
    expect(quota.usageTimeline()).toEqual([
      { atMs: 0, tokens: 150, requests: 2 },
      { atMs: 1000, tokens: 300, requests: 1 },
    ]);
  });

  it('the timeline is a copy', () => {
    const { quota } = gate({ tpm: 1000 });
    quota.admit({ inputTokens: 100, maxOutputTokens: 0 });
    const timeline = quota.usageTimeline();
    timeline[0]!.tokens = 999;
    expect(quota.usageTimeline()[0]?.tokens).toBe(100);
  });

  it('keeps 10^4 admissions over a long session exact (speed: npm run bench)', () => {
    const { clock, quota } = gate({ tpm: 50_000, rpm: 100 });
    let admitted = 0;
    while (admitted < 10_000) {
      const admission = quota.admit({ inputTokens: 700, maxOutputTokens: 0 });
      if (admission.admitted) admitted += 1;
      else clock.advance(admission.retryAfterMs);
      clock.advance(200);
    }
    expect(quota.usedLastMinute()).toBeLessThanOrEqual(50_000);
    const sum = quota
      .usageTimeline()
      .filter((p) => p.atMs + 60_000 > clock.now())
      .reduce((a, p) => a + p.tokens, 0);
    expect(quota.usedLastMinute()).toBe(sum);
  });
});
