/**
 * Prompt-cache rules per provider family (issue 14). The cached share of a request is the longest
 * prefix it shares with what the provider still holds; these are the rules that decide what it
 * holds. Sources, read 2026-11 (figures as published; ctxbench decides where the docs leave a range):
 * - Anthropic: https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching — explicit
 *   `cache_control` breakpoints (Claude Code: after the system prompt + tools, and on the last
 *   messages), minimum 1,024 tokens (Sonnet, Opus) or 2,048 (Haiku), 5-minute TTL refreshed on
 *   every hit, writes billed (1.25× for 5 min), reads 0.1×.
 * - OpenAI: https://platform.openai.com/docs/guides/prompt-caching — automatic, prompts of 1,024
 *   tokens or more, cached in 128-token increments after the first 1,024, kept "5–10 minutes of
 *   inactivity" (ctxbench takes 5), writes free; 24 hours under extended retention, where the model
 *   has only that or the log shows it (retention.ts).
 * - Gemini implicit caching: https://ai.google.dev/gemini-api/docs/caching — automatic, minimum
 *   1,024 tokens on Flash, 2,048 on Pro (2.5 family); no TTL published: ctxbench assumes 5 minutes
 *   refreshed on hit, as the other two. Not published, but what every Gemini log and report shows:
 *   it serves whole 2,048-token blocks (871 of the 899 hits of the 23 mini-swe-agent Gemini 3 Pro
 *   runs read 0–5 % under a multiple of 2,048 tokens, median 1.4 % under; 2.5 Flash reads 4,075
 *   of a repeated 4k prompt), and Gemini 3 Flash serves larger blocks to larger requests: 2,048-token blocks to a
 *   request under 8,192 tokens, nothing to one of 8,192–17k, then 16,384, 24,576, 32,768… —
 *   8,192-token blocks from two of them (googleapis/python-genai#2064: a 35-turn sweep of a
 *   byte-identical growing prefix on gemini-3-flash-preview, reproduced on gemini-3.5-flash).
 */
type CacheFamily = 'anthropic' | 'openai' | 'gemini';

/**
 * How an implicit cache is billed: `expected` (the default) serves the expected share of the
 * longest live prefix, as calibrated on real logs; `upper-bound` serves all of it, every time.
 * Explicit caches (Anthropic) are exact either way.
 */
export type CacheEstimate = 'expected' | 'upper-bound';

export const CACHE_ESTIMATES: readonly CacheEstimate[] = ['expected', 'upper-bound'];

/**
 * The share of the longest live prefix an implicit cache is expected to serve. Implicit caching
 * is best effort (OpenAI routes a request to a machine by a hash of its prefix; Google: "no cost
 * saving guarantee"), so real logs read less than the longest prefix the provider could hold.
 * Fitted 2026-11-26 as recorded cached tokens / upper-bound cached tokens, each as a share of its
 * prompt, pooled over the real logs that record cached tokens (`ctxbench fidelity` prints the fit):
 * - OpenAI: 3 Codex rollouts (gpt-5, gpt-5-codex), 201 steps: recorded 90.1 %, upper bound 94.5 %.
 * - Gemini: 23 mini-swe-agent runs (gemini-3-pro-preview), 1,019 steps: recorded 83.6 %, upper
 *   bound 91.6 % in whole 2,048-token blocks (96.2 % before blocks). Not fitted on the Gemini CLI
 *   log (6 steps of gemini-3-flash-preview), which it predicts at 25.4 % for 24.2 % recorded.
 */
const EXPECTED_HIT: Record<Exclude<CacheFamily, 'anthropic'>, number> = { openai: 0.95, gemini: 0.91 };

/** How a cache serves a prefix to a request of some size: whole blocks of `increment`, none under `minTokens`. */
interface CacheBlocks {
  /** A prefix shorter than this is never served. */
  minTokens: number;
  /** The served length is rounded down to a multiple of this; 1 = exact. */
  increment: number;
}

/** Blocks a cache serves to a request of at least `fromPrompt` tokens (the largest tier that applies wins). */
interface CacheTier extends CacheBlocks {
  fromPrompt: number;
}

export interface CacheRules extends CacheBlocks {
  family: CacheFamily;
  /**
   * Larger requests served in other blocks than `increment` (Gemini 3 Flash), in ascending
   * `fromPrompt`; what the provider stores does not change, only what it serves.
   */
  tiers?: readonly CacheTier[];
  /** Idle time after which an entry is evicted; every hit refreshes it. */
  ttlMs: number;
  /** Why an OpenAI cache keeps prefixes 24 hours rather than 5 minutes (retention.ts), when it does. */
  extended?: { source: 'model' } | { source: 'log'; idleMs: number; share: number };
  /**
   * `explicit`: only prefixes ending at a breakpoint are stored, and storing them is a billed
   * write (Anthropic). `implicit`: every prefix of every request is stored, for free.
   */
  mode: 'explicit' | 'implicit';
  /** Of the longest live prefix, the share a request is billed as cached: 1 for explicit caches and for the upper bound. */
  hitShare: number;
}

const FIVE_MINUTES = 5 * 60_000;

/**
 * The cache rules of a model, keyed on its name (a Claude log replayed as `openai` is still
 * Claude); `estimate` decides how much of an implicit cache's longest prefix is billed as cached.
 */
export function cacheRulesForModel(model: string, estimate: CacheEstimate = 'expected'): CacheRules {
  const name = model.toLowerCase();
  if (name.includes('claude')) {
    return { family: 'anthropic', minTokens: name.includes('haiku') ? 2048 : 1024, increment: 1, ttlMs: FIVE_MINUTES, mode: 'explicit', hitShare: 1 };
  }
  const family = name.includes('gemini') ? 'gemini' : 'openai';
  const hitShare = estimate === 'expected' ? EXPECTED_HIT[family] : 1;
  if (family === 'gemini') {
    const rules: CacheRules = { family, minTokens: name.includes('pro') ? 2048 : 1024, increment: 2048, ttlMs: FIVE_MINUTES, mode: 'implicit', hitShare };
    return GEMINI_3_FLASH.test(name) ? { ...rules, tiers: GEMINI_3_FLASH_TIERS } : rules;
  }
  return { family, minTokens: 1024, increment: 128, ttlMs: FIVE_MINUTES, mode: 'implicit', hitShare };
}

const GEMINI_3_FLASH = /gemini-3(\.\d+)?-flash/;
const GEMINI_3_FLASH_TIERS: readonly CacheTier[] = [{ fromPrompt: 8192, minTokens: 16_384, increment: 8192 }];

/**
 * Of a live prefix of `matched` tokens, what the cache serves to a request of `promptTokens`:
 * whole blocks of the tier the request's size falls in, nothing under its minimum.
 */
export function servedPrefix(matched: number, promptTokens: number, rules: CacheRules): number {
  const blocks = rules.tiers?.findLast((tier) => promptTokens >= tier.fromPrompt) ?? rules;
  if (matched < blocks.minTokens) return 0;
  return Math.floor(matched / blocks.increment) * blocks.increment;
}

/** How a cache family is modelled, in words, for the reports: which estimate and what it means. */
export function describeCacheRules(rules: CacheRules): string {
  if (rules.mode === 'explicit') return `${rules.family}: explicit breakpoints, exact`;
  const kept = describeRetention(rules);
  if (rules.hitShare === 1) return `${rules.family}: implicit, upper bound (the longest live prefix, every time)${kept}`;
  return `${rules.family}: implicit, expected hit rate (${Math.round(rules.hitShare * 100)} % of the longest live prefix)${kept}`;
}

function describeRetention(rules: CacheRules): string {
  const { extended } = rules;
  if (extended === undefined) return '';
  if (extended.source === 'model') return ', extended retention (24 h: the model has no other)';
  return `, extended retention (24 h: the log read ${Math.round(extended.share * 100)} % from cache after ${Math.round(extended.idleMs / 60_000)} min idle)`;
}
