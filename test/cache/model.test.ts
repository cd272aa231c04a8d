import { describe, expect, it } from 'vitest';
import { applyCache, createCacheState, type CachePart } from '../../src/cache/model.js';
import { cacheRulesForModel } from '../../src/cache/families.js';

const part = (key: string, tokens: number): CachePart => ({ key, tokens });
const MIN = 60_000;

describe('cacheRulesForModel', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 'anthropic', 1024, 1],
    ['claude-haiku-4-5', 'anthropic', 2048, 1],
    ['gpt-5', 'openai', 1024, 128],
    ['gemini-2.5-flash', 'gemini', 1024, 1],
    ['gemini-2.5-pro', 'gemini', 2048, 1],
  ])('%s → %s, min %d, increment %d', (model, family, min, increment) => {
    const rules = cacheRulesForModel(model);
    expect([rules.family, rules.minTokens, rules.increment]).toEqual([family, min, increment]);
  });
});

describe('applyCache, implicit (OpenAI)', () => {
  const rules = cacheRulesForModel('gpt-4.1');

  it('caches the shared prefix in 128-token increments above 1,024', () => {
    const state = createCacheState(rules);
    expect(applyCache(state, [part('sys', 1000), part('a', 500)], 0)).toEqual({ cached: 0, write: 0, uncached: 1500 });
    // 1,500 shared: 1,024 + 3 × 128 = 1,408 cached.
    expect(applyCache(state, [part('sys', 1000), part('a', 500), part('b', 300)], MIN)).toEqual({ cached: 1408, write: 0, uncached: 392 });
  });

  it('caches nothing under the minimum, and nothing once the prefix changes at the start', () => {
    const state = createCacheState(rules);
    applyCache(state, [part('sys', 600), part('a', 300)], 0);
    expect(applyCache(state, [part('sys', 600), part('a', 300), part('b', 300)], MIN).cached).toBe(0);
    expect(applyCache(state, [part('other', 600), part('a', 300), part('b', 300)], 2 * MIN).cached).toBe(0);
  });

  it('evicts after five idle minutes on the virtual clock, and a hit refreshes the entry', () => {
    const state = createCacheState(rules);
    const request = [part('sys', 2048)];
    applyCache(state, request, 0);
    expect(applyCache(state, request, 4 * MIN).cached).toBe(2048);
    expect(applyCache(state, request, 8 * MIN).cached).toBe(2048); // refreshed at 4 min
    expect(applyCache(state, request, 14 * MIN).cached).toBe(0);
  });
});

describe('applyCache, explicit (Anthropic)', () => {
  const rules = cacheRulesForModel('claude-sonnet-4');

  it('writes up to the last breakpoint and reads the longest stored breakpoint prefix', () => {
    const state = createCacheState(rules);
    const first = [part('hidden', 15000), part('u1', 500)];
    expect(applyCache(state, first, 0, [0, 1])).toEqual({ cached: 0, write: 15500, uncached: 0 });
    const second = [...first, part('a1', 200), part('t1', 300)];
    expect(applyCache(state, second, MIN, [0, 3])).toEqual({ cached: 15500, write: 500, uncached: 0 });
  });

  it('a rolling window that drops the oldest message keeps only the system breakpoint', () => {
    const state = createCacheState(rules);
    applyCache(state, [part('hidden', 15000), part('u1', 500), part('a1', 500)], 0, [0, 2]);
    expect(applyCache(state, [part('hidden', 15000), part('a1', 500), part('u2', 500)], MIN, [0, 2])).toEqual({ cached: 15000, write: 1000, uncached: 0 });
  });

  it('stores nothing without a breakpoint: the tokens are billed uncached', () => {
    const state = createCacheState(rules);
    applyCache(state, [part('hidden', 15000)], 0);
    expect(applyCache(state, [part('hidden', 15000)], MIN)).toEqual({ cached: 0, write: 0, uncached: 15000 });
  });
});
