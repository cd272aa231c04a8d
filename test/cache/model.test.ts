import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { applyCache, createCacheState, type CachePart, type CacheUsage } from '../../src/cache/model.js';
import { cacheRulesForModel, servedPrefix, type CacheRules } from '../../src/cache/families.js';
import { createRandom, hashString } from '../../src/random.js';

const part = (key: string, tokens: number): CachePart => ({ key, tokens });
const MIN = 60_000;

describe('cacheRulesForModel', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 'anthropic', 1024, 1],
    ['claude-haiku-4-5', 'anthropic', 2048, 1],
    ['gpt-5', 'openai', 1024, 128],
    ['gemini-2.5-flash', 'gemini', 1024, 2048],
    ['gemini-2.5-pro', 'gemini', 2048, 2048],
  ])('%s → %s, min %d, increment %d', (model, family, min, increment) => {
    const rules = cacheRulesForModel(model);
    expect([rules.family, rules.minTokens, rules.increment]).toEqual([family, min, increment]);
  });
});

describe('applyCache, implicit (OpenAI)', () => {
  const rules = cacheRulesForModel('gpt-4.1', 'upper-bound');

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

describe('applyCache, Gemini blocks (issue 29)', () => {
  it('serves a Gemini prefix in whole 2,048-token blocks', () => {
    const state = createCacheState(cacheRulesForModel('gemini-3-pro-preview', 'upper-bound'));
    applyCache(state, [part('sys', 5000)], 0);
    expect(applyCache(state, [part('sys', 5000), part('a', 1000)], MIN).cached).toBe(4096);
  });

  it('serves Gemini 3 Flash nothing at 8k–16k and 8,192-token blocks from 16,384 (python-genai#2064)', () => {
    const rules = cacheRulesForModel('gemini-3-flash-preview', 'upper-bound');
    // The sweep: 2,048-token blocks under 8k, none to a 9k–17k request, then 16,384, 24,576, 32,768.
    expect([3124, 7006, 8986, 15_000, 17_100, 25_000, 33_100].map((matched) => servedPrefix(matched, matched + 1000, rules))).toEqual([
      2048, 6144, 0, 0, 16_384, 24_576, 32_768,
    ]);
    expect(servedPrefix(9000, 10_000, cacheRulesForModel('gemini-3-pro-preview'))).toBe(8192);
    expect(servedPrefix(9000, 10_000, cacheRulesForModel('gpt-5'))).toBe(8960);
  });
});

describe('applyCache, expected hit rate (issue 29)', () => {
  it('bills an implicit cache its expected share of the longest live prefix, and keeps the prefix itself', () => {
    const expected = cacheRulesForModel('gemini-3-pro-preview');
    const upper = cacheRulesForModel('gemini-3-pro-preview', 'upper-bound');
    expect([expected.hitShare, upper.hitShare]).toEqual([0.91, 1]);
    const [a, b] = [createCacheState(expected), createCacheState(upper)];
    const requests = [[part('sys', 4100)], [part('sys', 4100), part('a', 2100)], [part('sys', 4100), part('a', 2100), part('b', 500)]];
    const billed = requests.map((request, i) => [applyCache(a, request, i * MIN), applyCache(b, request, i * MIN)]);
    expect(billed.map(([e, u]) => [e?.cached, u?.cached])).toEqual([
      [0, 0],
      [Math.floor(0.91 * 4096), 4096],
      [Math.floor(0.91 * 6144), 6144],
    ]);
    // What is not served from cache is billed uncached: every prompt token is billed once.
    for (const [e, u] of billed) expect((e?.cached ?? 0) + (e?.uncached ?? 0)).toBe((u?.cached ?? 0) + (u?.uncached ?? 0));
  });

  it('leaves explicit (Anthropic) caches exact either way', () => {
    expect(cacheRulesForModel('claude-opus-4-5').hitShare).toBe(1);
    expect(cacheRulesForModel('claude-opus-4-5', 'upper-bound')).toEqual(cacheRulesForModel('claude-opus-4-5'));
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

/**
 * applyCache as it was first written: every prefix hashed and compared at every request, every
 * stored prefix written into the map. The bills of the kept-in-place chain and the deferred
 * implicit stores must equal these.
 */
function referenceCache(rules: CacheRules): (parts: readonly CachePart[], atMs: number, breakpoints?: readonly number[]) => CacheUsage {
  const entries = new Map<string, number>();
  return (parts, atMs, breakpoints = []) => {
    const chain: { hash: string; tokens: number }[] = [];
    let hash = '';
    let tokens = 0;
    for (const p of parts) {
      tokens += p.tokens;
      hash = createHash('sha1').update(hash).update('\u0000').update(p.key).digest('hex');
      chain.push({ hash, tokens });
    }
    const total = chain.at(-1)?.tokens ?? 0;
    let matched = 0;
    for (let i = chain.length - 1; i >= 0; i--) {
      const link = chain[i] as { hash: string; tokens: number };
      if (!((entries.get(link.hash) ?? -Infinity) > atMs)) continue;
      matched = link.tokens;
      entries.set(link.hash, atMs + rules.ttlMs);
      break;
    }
    const cached = matched < rules.minTokens ? 0 : rules.minTokens + Math.floor((matched - rules.minTokens) / rules.increment) * rules.increment;
    let write = 0;
    if (rules.mode === 'implicit') {
      for (const link of chain) if (link.tokens >= rules.minTokens) entries.set(link.hash, atMs + rules.ttlMs);
    } else {
      for (const index of breakpoints) {
        const link = chain[index];
        if (link === undefined || link.tokens < rules.minTokens) continue;
        entries.set(link.hash, atMs + rules.ttlMs);
        write = Math.max(write, link.tokens - cached);
      }
    }
    return { cached, write, uncached: total - cached - write };
  };
}

describe('applyCache over long sequences of requests', () => {
  it.each(['gpt-4.1', 'gemini-2.5-pro', 'claude-sonnet-4'])('bills every request of a random session of %s as the whole-chain reference does', (model) => {
    const rules = cacheRulesForModel(model, 'upper-bound');
    const { next: random } = createRandom(hashString(`cache-${model}`));
    const state = createCacheState(rules);
    const reference = referenceCache(rules);
    let parts: CachePart[] = [part('sys', 900)];
    let atMs = 0;
    let next = 0;
    const fresh = (): CachePart => part(`m${next++}`, 50 + Math.floor(random() * 400));
    for (let step = 0; step < 600; step++) {
      const roll = random();
      // Mostly a history that grows; sometimes a compaction (a cut), a changed tail, a part
      // re-counted under the same key, a strategy's own request, or a long idle gap.
      if (roll < 0.6) parts = [...parts, fresh()];
      else if (roll < 0.7) parts = [...parts.slice(0, 1 + Math.floor(random() * parts.length)), fresh()];
      else if (roll < 0.78 && parts.length > 2) parts = [...parts.slice(0, -1), fresh()];
      else if (roll < 0.84) {
        const i = Math.floor(random() * parts.length);
        parts = parts.map((p, k) => (k === i ? part(p.key, p.tokens + (random() < 0.5 ? -30 : 30)) : p));
      } else if (roll < 0.92) {
        const own = [part('instruction', 300), ...parts.slice(1, 1 + Math.floor(random() * parts.length))];
        const bp = [own.length - 1];
        expect(applyCache(state, own, atMs, bp), `strategy call at step ${step}`).toEqual(reference(own, atMs, bp));
      } else atMs += 4 * MIN;
      atMs += Math.floor(random() * 20_000);
      const breakpoints = [0, parts.length - 1];
      expect(applyCache(state, parts, atMs, breakpoints), `step ${step}`).toEqual(reference(parts, atMs, breakpoints));
    }
  });
});
