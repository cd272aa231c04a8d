import { hash as digestOf } from 'node:crypto';
import { servedPrefix, type CacheRules } from './families.js';

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
  /**
   * The last request's parts and prefix chain: the next request re-hashes only where it differs.
   * Both arrays are extended in place from one request to the next.
   */
  last: { keys: string[]; chain: Link[] };
  /**
   * Implicit caches store every prefix of every request: the stores of the last request are kept
   * here, not in `entries`, as "every link of `last.chain` below `count` of at least `minTokens`
   * tokens lives until `expires`". The next request writes into `entries` only the links it does
   * not share, so a step costs what changed, not a write per message of the context.
   */
  pending: { count: number; expires: number };
  /** Entries count after the last purge of evicted ones (memory stays bounded; liveness is checked on read). */
  purgedAt: number;
}

export function createCacheState(rules: CacheRules): CacheState {
  return { rules, entries: new Map(), last: { keys: [], chain: [] }, pending: { count: 0, expires: -Infinity }, purgedAt: 0 };
}

/**
 * Bills one request at virtual time `atMs` and records what it leaves in the cache (mutates
 * `state`). `breakpoints` are part indices after which an explicit-cache provider stores the
 * prefix (Claude Code: after the hidden prefix and after the last message); ignored for implicit
 * caches, which store every prefix. The read is the longest prefix of live entries, in the whole
 * blocks the family serves to a request of this size (`servedPrefix`); an explicit cache then
 * writes up to its last breakpoint.
 */
export function applyCache(state: CacheState, parts: readonly CachePart[], atMs: number, breakpoints: readonly number[] = []): CacheUsage {
  const { rules, entries, pending } = state;
  purgeEvicted(state, atMs);
  const shared = sharedLinks(parts, state.last);
  // The last request's stores that this one does not share become entries of their own.
  for (let i = shared; i < pending.count; i++) {
    const link = state.last.chain[i] as Link;
    if (link.tokens >= rules.minTokens && (entries.get(link.hash) ?? -Infinity) < pending.expires) entries.set(link.hash, pending.expires);
  }
  pending.count = Math.min(pending.count, shared);
  const chain = extendChain(parts, state.last, shared);
  const total = chain.length === 0 ? 0 : (chain[chain.length - 1] as Link).tokens;
  let matched = 0;
  for (let i = chain.length - 1; i >= 0; i--) {
    const link = chain[i] as Link;
    const stored = entries.get(link.hash) ?? -Infinity;
    const expires = i < pending.count && link.tokens >= rules.minTokens ? Math.max(stored, pending.expires) : stored;
    if (!(expires > atMs)) continue;
    matched = link.tokens;
    entries.set(link.hash, atMs + rules.ttlMs);
    break;
  }
  // An implicit cache serves its expected share of the prefix (families.ts); the prefix itself is
  // still what the provider holds, so what it stores below does not change.
  const served = servedPrefix(matched, total, rules);
  const cached = rules.hitShare === 1 ? served : Math.floor(rules.hitShare * served);
  let write = 0;
  if (rules.mode === 'implicit') {
    pending.count = chain.length;
    pending.expires = atMs + rules.ttlMs;
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
 * How many leading links of the last chain this request has too: the same keys, the same prefix
 * tokens. Compared here rather than taken from the step's diff: the cache sees every request of
 * the session (a strategy's summary calls between two steps too), and its parts are not only
 * messages (the hidden prefix, the model, re-sent reasoning, the framing at the end).
 */
function sharedLinks(parts: readonly CachePart[], last: CacheState['last']): number {
  const limit = Math.min(parts.length, last.keys.length);
  let tokens = 0;
  let i = 0;
  for (; i < limit; i++) {
    const part = parts[i] as CachePart;
    if (last.keys[i] !== part.key) break;
    tokens += part.tokens;
    if ((last.chain[i] as Link).tokens !== tokens) break;
  }
  return i;
}

/**
 * The prefix hashes of `parts`, each over the one before and its part's key: the first `shared`
 * links are the last request's; past them, a hash is still reused while the keys are the same
 * (the hash covers only keys, not sizes). Extends `last` in place and returns its chain.
 */
function extendChain(parts: readonly CachePart[], last: CacheState['last'], shared: number): Link[] {
  const { keys, chain } = last;
  let hash = shared === 0 ? '' : (chain[shared - 1] as Link).hash;
  let tokens = shared === 0 ? 0 : (chain[shared - 1] as Link).tokens;
  let same = true;
  for (let i = shared; i < parts.length; i++) {
    const part = parts[i] as CachePart;
    tokens += part.tokens;
    same = same && i < keys.length && keys[i] === part.key;
    // One-shot: the bytes of the three updates a Hash object took (no object made per link).
    hash = same ? (chain[i] as Link).hash : digestOf('sha1', `${hash}\u0000${part.key}`, 'hex');
    keys[i] = part.key;
    chain[i] = { hash, tokens };
  }
  keys.length = parts.length;
  chain.length = parts.length;
  return chain;
}
