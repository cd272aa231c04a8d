import { createHash } from 'node:crypto';
import type { ProviderName } from '../providers/types.js';
import type { ContextMessage } from '../transcript/types.js';
import type { Tokenizer } from '../tokens/types.js';
import type { CachePart } from './model.js';

/** What `applyCache` needs of a request: its parts and where an explicit cache puts breakpoints. */
export interface CacheRequest {
  parts: CachePart[];
  breakpoints: number[];
}

const fingerprints = new WeakMap<ContextMessage, string>();

/**
 * Splits a request into cache parts, one per message, so that its parts add up to the
 * `promptTokens` the provider counted. What the provider counted beyond the messages (the agent's
 * hidden system prompt and tool schemas, request framing) leads the request as one stable part:
 * it is the same bytes at every step of a session. Breakpoints follow Claude Code: after the
 * leading system part(s) and after the last message.
 */
export function cacheRequest(messages: readonly ContextMessage[], promptTokens: number, tokenizer: Tokenizer, format: ProviderName): CacheRequest {
  const parts: CachePart[] = messages.map((m) => ({ key: fingerprint(m), tokens: tokenizer.countMessage(m, format) }));
  const counted = parts.reduce((n, p) => n + p.tokens, 0);
  const residual = promptTokens - counted;
  if (residual > 0) parts.unshift({ key: 'hidden-prefix', tokens: residual });
  else trimTail(parts, -residual);
  let lead = 0;
  while (lead < parts.length - 1 && (parts[lead]?.key === 'hidden-prefix' || messages[lead - (residual > 0 ? 1 : 0)]?.role === 'system')) lead += 1;
  const breakpoints = parts.length === 0 ? [] : [...new Set([Math.max(0, lead - 1), parts.length - 1])];
  return { parts, breakpoints };
}

/** Identity of a message as sent: role, id, text, thinking, signature and tool calls. */
function fingerprint(message: ContextMessage): string {
  const known = fingerprints.get(message);
  if (known !== undefined) return known;
  const hash = createHash('sha1')
    .update(JSON.stringify([message.role, message.id, message.text, message.thinking ?? null, message.thoughtSignature ?? null, message.toolCalls ?? null, message.toolCallId ?? null]))
    .digest('hex');
  fingerprints.set(message, hash);
  return hash;
}

function trimTail(parts: CachePart[], excess: number): void {
  for (let i = parts.length - 1; i >= 0 && excess > 0; i--) {
    const part = parts[i] as CachePart;
    const cut = Math.min(part.tokens, excess);
    part.tokens -= cut;
    excess -= cut;
  }
}
