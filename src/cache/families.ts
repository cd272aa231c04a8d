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
}

const FIVE_MINUTES = 5 * 60_000;

/** The cache rules of a model, keyed on its name (a Claude log replayed as `openai` is still Claude). */
export function cacheRulesForModel(model: string): CacheRules {
  const name = model.toLowerCase();
  if (name.includes('claude')) {
    return { family: 'anthropic', minTokens: name.includes('haiku') ? 2048 : 1024, increment: 1, ttlMs: FIVE_MINUTES, mode: 'explicit' };
  }
  if (name.includes('gemini')) {
    return { family: 'gemini', minTokens: name.includes('pro') ? 2048 : 1024, increment: 1, ttlMs: FIVE_MINUTES, mode: 'implicit' };
  }
  return { family: 'openai', minTokens: 1024, increment: 128, ttlMs: FIVE_MINUTES, mode: 'implicit' };
}
