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
 *   inactivity" (ctxbench takes 5), writes free.
 * - Gemini implicit caching: https://ai.google.dev/gemini-api/docs/caching — automatic, minimum
 *   1,024 tokens on Flash, 2,048 on Pro (2.5 family); no TTL published: ctxbench assumes 5 minutes
 *   refreshed on hit, as the other two.
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
 * - OpenAI: 3 Codex rollouts (gpt-5, gpt-5-codex), 201 steps: recorded 90.1 %, upper bound 95.0 %.
 * - Gemini: 23 mini-swe-agent runs (gemini-3-pro-preview), 1,019 steps: recorded 83.6 %, upper
 *   bound 96.2 % (the one Gemini CLI log, 6 steps of gemini-3-flash-preview, reads 24 % against
 *   60 %: too short to fit on, and no prefix model explains its hits).
 */
const EXPECTED_HIT: Record<Exclude<CacheFamily, 'anthropic'>, number> = { openai: 0.95, gemini: 0.87 };

export interface CacheRules {
  family: CacheFamily;
  /** A prefix shorter than this is never cached (nor written). */
  minTokens: number;
  /** Above `minTokens`, the cached length is rounded down to a multiple of this; 1 = exact. */
  increment: number;
  /** Idle time after which an entry is evicted; every hit refreshes it. */
  ttlMs: number;
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
  if (family === 'gemini') return { family, minTokens: name.includes('pro') ? 2048 : 1024, increment: 1, ttlMs: FIVE_MINUTES, mode: 'implicit', hitShare };
  return { family, minTokens: 1024, increment: 128, ttlMs: FIVE_MINUTES, mode: 'implicit', hitShare };
}

/** How a cache family is modelled, in words, for the reports: which estimate and what it means. */
export function describeCacheRules(rules: CacheRules): string {
  if (rules.mode === 'explicit') return `${rules.family}: explicit breakpoints, exact`;
  if (rules.hitShare === 1) return `${rules.family}: implicit, upper bound (the longest live prefix, every time)`;
  return `${rules.family}: implicit, expected hit rate (${Math.round(rules.hitShare * 100)} % of the longest live prefix)`;
}
