import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/quota/gateway.js';
import { waitToRetry } from '../../src/quota/retry-wait.js';
import type { CompletionRequest, Provider, ProviderMode } from '../../src/contracts/provider.js';
import { createClock } from '../../src/quota/clock.js';
import { QuotaGate } from '../../src/quota/quota.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';

const tokenizer = createTokenizer('o200k_base');
const request: CompletionRequest = {
  model: 'm',
  messages: [{ type: 'message', id: 'u', role: 'user', text: 'hello there' }],
  purpose: 'step',
  maxOutputTokens: 10,
};

/** A provider that refuses every call with a 429 asking for `retryAfterMs`. */
function refusing(mode: ProviderMode, retryAfterMs: number): Provider {
  return { name: 'openai', mode, dialect: 'openai', complete: async () => ({ ok: false, failure: { kind: 'rate-limit', message: '429', retryAfterMs } }) };
}

/** A sleep that records what it was asked and reports `extra` ms more (as jitter would). */
function fakeSleep(extra: number) {
  const asked: number[] = [];
  return { asked, sleep: async (ms: number) => (asked.push(ms), ms + extra) };
}

function gatewayFor(provider: Provider, sleep: ReturnType<typeof fakeSleep>['sleep'], tpm?: number) {
  const clock = createClock();
  const gateway = createGateway({
    provider,
    quota: new QuotaGate(tpm !== undefined ? { tpm } : {}, 'openai', clock),
    tokenizer,
    window: 10_000,
    requireThoughtSignatures: false,
    sleep,
    maxSleepMs: 60_000,
  });
  return { clock, gateway };
}

describe('waitToRetry', () => {
  it('live: a provider refusal is slept for real, capped at maxDelayMs, and the measured time is charged', async () => {
    const { asked, sleep } = fakeSleep(7);
    const { clock, gateway } = gatewayFor(refusing('live', 120_000), sleep);
    const attempt = await gateway.attempt(request, { useQuota: true });
    expect(attempt.sent).toBe(true);
    expect(await waitToRetry(gateway, clock, 120_000, attempt)).toBe(60_007);
    expect(asked).toEqual([60_000]);
    expect(clock.now()).toBe(60_007);
  });

  it('live: a refusal of the simulated quota gate is waited on the virtual clock only', async () => {
    const { asked, sleep } = fakeSleep(7);
    const { clock, gateway } = gatewayFor(refusing('live', 1), sleep, 5);
    const attempt = await gateway.attempt(request, { useQuota: true });
    expect(attempt.sent).toBeFalsy();
    expect(attempt.result).toMatchObject({ ok: false, failure: { kind: 'rate-limit' } });
    expect(await waitToRetry(gateway, clock, 2_500, attempt)).toBe(2_500);
    expect(asked).toEqual([]);
    expect(clock.now()).toBe(2_500);
  });

  it('mocked: no real sleep even when one is given; the wait is exactly the delay', async () => {
    const { asked, sleep } = fakeSleep(7);
    const { clock, gateway } = gatewayFor(refusing('mock', 120_000), sleep);
    expect(gateway.sleep).toBeUndefined();
    const attempt = await gateway.attempt(request, { useQuota: true });
    expect(await waitToRetry(gateway, clock, 120_000, attempt)).toBe(120_000);
    expect(asked).toEqual([]);
  });
});
