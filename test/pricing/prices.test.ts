import { describe, expect, it } from 'vitest';
import { costOf, priceForModel } from '../../src/pricing/prices.js';
import { resolvePrice } from '../../src/pricing/resolve.js';

describe('priceForModel', () => {
  it('takes the longest matching key, ignoring a vendor prefix', () => {
    expect(priceForModel('gpt-4.1-mini-2025-04-14')?.input).toBe(0.4);
    expect(priceForModel('gpt-4.1')?.cachedInput).toBe(0.5);
    expect(priceForModel('anthropic/claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 });
    expect(priceForModel('llama-3')).toBeUndefined();
    // The mini-swe-agent fixtures name their model with a vendor prefix and a preview suffix.
    expect(priceForModel('google/gemini-3-pro-preview')).toMatchObject({ input: 2, cachedInput: 0.2, output: 12, asOf: '2025-11' });
  });
});

describe('costOf', () => {
  it('bills cached, written, uncached input and output at their own rates', () => {
    const price = priceForModel('claude-sonnet-4') as NonNullable<ReturnType<typeof priceForModel>>;
    // 1M cached × 0.30 + 100k written × 3.75 + 10k uncached × 3 + 2k output × 15 = 0.30 + 0.375 + 0.03 + 0.03
    expect(costOf({ cached: 1_000_000, write: 100_000, uncached: 10_000, output: 2_000 }, price)).toBeCloseTo(0.735, 12);
  });
});

describe('resolvePrice', () => {
  it('an override keeps the model’s cache ratios unless it gives them', () => {
    expect(resolvePrice('gpt-4.1', { input: 4, output: 16 })).toMatchObject({ input: 4, cachedInput: 1, cacheWrite: 0, output: 16 });
    expect(resolvePrice('my-model', { input: 1, output: 2 })).toMatchObject({ cachedInput: 1, cacheWrite: 0 });
    expect(resolvePrice('my-model')).toBeUndefined();
  });
});
