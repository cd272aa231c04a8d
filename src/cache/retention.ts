import type { TranscriptEvent } from '../transcript/types.js';
import type { CacheRules } from './families.js';

/**
 * How long OpenAI keeps a cached prefix (platform.openai.com/docs/guides/prompt-caching, "Prompt
 * cache retention", read 2026-11): `in_memory` entries are typically cleared after 5–10 minutes
 * of inactivity and always within an hour of their last use; `24h` (extended retention) offloads
 * them to GPU-local storage and keeps them up to 24 hours. Extended retention exists for gpt-4.1,
 * gpt-5, gpt-5-codex and the gpt-5.1 … 5.4 families, where a request asks for it or, per the API
 * reference, by default for an organisation without zero data retention; gpt-5.5 and later
 * support only `24h`. `prompt_cache_key` (Codex sends one per conversation) only steers routing.
 *
 * What a log cannot say is which policy its requests ran under, and the logs differ: on the two
 * Codex apply_patch rollouts (gpt-5-codex, 2025-11) the first call after 20, 53, 98 and 180
 * minutes idle read 3–6k tokens (the instructions every Codex session shares) of 6–60k; on other
 * Codex rollouts the first call after 27 minutes, 84 minutes and 11 hours read 98–99 %. So the
 * retention is the documented one for the model (5 minutes in memory; 24 hours where only `24h`
 * exists), and extended where the log shows it: a call after more than IN_MEMORY_MAX_IDLE_MS idle
 * that still read at least EXTENDED_EVIDENCE_SHARE of a prompt of EXTENDED_EVIDENCE_MIN tokens or
 * more from the cache. Below that share a call reads at most the prefix every session shares.
 */
export const IN_MEMORY_TTL_MS = 5 * 60_000;
const IN_MEMORY_MAX_IDLE_MS = 10 * 60_000;
export const EXTENDED_TTL_MS = 24 * 3_600_000;
const EXTENDED_EVIDENCE_SHARE = 0.9;
const EXTENDED_EVIDENCE_MIN = 4_096;

/** Models that support only extended retention (gpt-5.5 and later), after any `vendor/` prefix. */
const ONLY_EXTENDED = /^gpt-5\.([5-9]|\d{2,})/;

/** Why a session's implicit cache keeps prefixes 24 hours, if it does: the model, or the log's own reads. */
export type ExtendedRetention = { source: 'model' } | { source: 'log'; idleMs: number; share: number };

/** The longest idle gap after which a recorded call still read most of its prompt from the cache (see above). */
export function extendedRetentionInLog(events: readonly TranscriptEvent[]): ExtendedRetention | undefined {
  let previous: number | undefined;
  let found: ExtendedRetention | undefined;
  for (const event of events) {
    if (event.type !== 'message' || event.role !== 'assistant' || event.at === undefined) continue;
    const at = Date.parse(event.at);
    const { input, cachedInput } = event.usage ?? {};
    if (previous !== undefined && input !== undefined && cachedInput !== undefined && input >= EXTENDED_EVIDENCE_MIN) {
      const idleMs = at - previous;
      const share = cachedInput / input;
      if (idleMs > IN_MEMORY_MAX_IDLE_MS && share >= EXTENDED_EVIDENCE_SHARE && (found?.source !== 'log' || idleMs > found.idleMs))
        found = { source: 'log', idleMs, share };
    }
    if (Number.isFinite(at)) previous = at;
  }
  return found;
}

/**
 * The rules of `model`'s cache with the retention its requests had: for OpenAI, 24 hours when the
 * model has only extended retention or the log shows it (`events`); otherwise as they are.
 */
export function withRetention(rules: CacheRules, model: string, events: readonly TranscriptEvent[] = []): CacheRules {
  if (rules.family !== 'openai') return rules;
  const name = model.toLowerCase().split('/').pop() ?? '';
  const extended: ExtendedRetention | undefined = ONLY_EXTENDED.test(name) ? { source: 'model' } : extendedRetentionInLog(events);
  return extended === undefined ? rules : { ...rules, ttlMs: EXTENDED_TTL_MS, extended };
}
