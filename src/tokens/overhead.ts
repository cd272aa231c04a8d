import type { ContextMessage } from '../transcript/types.js';
import type { ProviderName } from '../providers/types.js';

/**
 * Per-message framing tokens of each provider format, on top of the message's own text.
 * OpenAI chat: 3 per message (role and separators) plus ~8 per tool call for its wrapper and the
 * call id; Gemini: 4 per content (role and part framing), plus 5 per function call or response.
 * Calibrated against recorded usage by `ctxbench fidelity`.
 */
export const OVERHEAD = {
  openai: { perMessage: 3, perToolCall: 8, perToolResult: 4, perRequest: 3 },
  gemini: { perMessage: 4, perToolCall: 5, perToolResult: 5, perRequest: 0 },
} as const satisfies Record<ProviderName, Record<string, number>>;

export function messageOverhead(format: ProviderName, message: ContextMessage): number {
  const o = OVERHEAD[format];
  let n = o.perMessage;
  n += (message.toolCalls?.length ?? 0) * o.perToolCall;
  if (message.role === 'tool') n += o.perToolResult;
  return n;
}

export function requestOverhead(format: ProviderName): number {
  return OVERHEAD[format].perRequest;
}
