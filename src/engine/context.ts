import type { ProviderName } from '../providers/types.js';
import type { ContextMessage } from '../transcript/types.js';
import type { Tokenizer } from '../tokens/types.js';

/**
 * Tokens of the longest prompt prefix shared with the previous step's prompt: what a provider's
 * prompt cache could serve. Messages match when id and content are the same.
 */
export function sharedPrefixTokens(
  previous: readonly ContextMessage[],
  current: readonly ContextMessage[],
  tokenizer: Tokenizer,
  format: ProviderName,
): number {
  let tokens = 0;
  const n = Math.min(previous.length, current.length);
  for (let i = 0; i < n; i++) {
    const a = previous[i] as ContextMessage;
    const b = current[i] as ContextMessage;
    if (a !== b && !sameMessage(a, b)) break;
    tokens += tokenizer.countMessage(b, format);
  }
  return tokens;
}

function sameMessage(a: ContextMessage, b: ContextMessage): boolean {
  return (
    a.id === b.id &&
    a.role === b.role &&
    a.text === b.text &&
    a.thinking === b.thinking &&
    a.thoughtSignature === b.thoughtSignature &&
    (a.toolCalls?.length ?? 0) === (b.toolCalls?.length ?? 0)
  );
}
