import { createHash } from 'node:crypto';
import type { CacheRules } from './families.js';

/**
 * The simulated prompt cache of one session (issue 14): what a provider bills as cached input,
 * uncached input and cache writes for each request, given the requests it saw before on the
 * virtual clock. One copy of the mechanism: the engine and fidelity both call `applyCache`.
 */

/** One block of a request, in order: its identity (equal keys = identical bytes) and its tokens. */
export interface CachePart {
  key: string;
  tokens: number;
}

/** How one request is billed; `cached + write + uncached` is the request's prompt tokens. */
export interface CacheUsage {
  cached: number;
  write: number;
  uncached: number;
}

export interface CacheState {
  rules: CacheRules;
  /** Prefix fingerprint → when it is evicted (virtual ms); an entry is live while `atMs` is before it. */
  entries: Map<string, number>;
  /** The last request's parts and prefix chain: the next request re-hashes only where it differs. */
  last: { keys: string[]; chain: Link[] };
  /** Entries count after the last purge of evicted ones (memory stays bounded; liveness is checked on read). */
  purgedAt: number;
}

export function createCacheState(rules: CacheRules): CacheState {
  return { rules, entries: new Map(), last: { keys: [], chain: [] }, purgedAt: 0 };
}

/**
 * Bills one request at virtual time `atMs` and records what it leaves in the cache (mutates
 * `state`). `breakpoints` are part indices after which an explicit-cache provider stores the
 * prefix (Claude Code: after the hidden prefix and after the last message); ignored for implicit
 * caches, which store every prefix. The read is the longest prefix of live entries, rounded to
 * the family's increment; an explicit cache then writes up to its last breakpoint.
 */
export function applyCache(state: CacheState, parts: readonly CachePart[], atMs: number, breakpoints: readonly number[] = []): CacheUsage {
  const { rules, entries } = state;
  purgeEvicted(state, atMs);
  const chain = prefixChain(parts, state.last);
  const total = chain.length === 0 ? 0 : (chain[chain.length - 1] as Link).tokens;
  let matched = 0;
  for (let i = chain.length - 1; i >= 0; i--) {
    const link = chain[i] as Link;
    if (!((entries.get(link.hash) ?? -Infinity) > atMs)) continue;
    matched = link.tokens;
    entries.set(link.hash, atMs + rules.ttlMs);
    break;
  }
  const cached = roundDown(matched, rules);
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
}

interface Link {
  hash: string;
  /** Tokens of the prefix ending with this part. */
  tokens: number;
}

/**
 * Drops evicted entries once the map has doubled since the last purge: a scan at every request
 * made long sessions quadratic, and reads check liveness themselves, so when evicted entries go
 * changes no bill.
 */
function purgeEvicted(state: CacheState, atMs: number): void {
  if (state.entries.size < 2 * state.purgedAt + 64) return;
  for (const [key, expires] of state.entries) if (expires <= atMs) state.entries.delete(key);
  state.purgedAt = state.entries.size;
}

/**
 * The prefix hashes of `parts`, each over the one before and its part's key. Where a request
 * starts with the previous request's parts (most of a session's requests do), their links are
 * reused: the tokens as well, since the hash covers only keys, not sizes.
 */
function prefixChain(parts: readonly CachePart[], last: CacheState['last']): Link[] {
  const chain: Link[] = [];
  let hash = '';
  let tokens = 0;
  let same = true;
  const keys: string[] = [];
  for (const [i, part] of parts.entries()) {
    keys.push(part.key);
    tokens += part.tokens;
    const previous = last.chain[i];
    same = same && previous !== undefined && last.keys[i] === part.key;
    hash = same ? (previous as Link).hash : createHash('sha1').update(hash).update('\u0000').update(part.key).digest('hex');
    chain.push(same && (previous as Link).tokens === tokens ? (previous as Link) : { hash, tokens });
  }
  last.keys = keys;
  last.chain = chain;
  return chain;
}

function roundDown(tokens: number, rules: CacheRules): number {
  if (tokens < rules.minTokens) return 0;
  return rules.minTokens + Math.floor((tokens - rules.minTokens) / rules.increment) * rules.increment;
}
