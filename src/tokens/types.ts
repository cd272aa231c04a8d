import type { ContextMessage } from '../transcript/types.js';
import type { ProviderName } from '../contracts/provider.js';

export type Encoding = 'o200k_base' | 'cl100k_base' | 'chars4';

/**
 * Counts tokens. Implementations cache per text, so no text is tokenized twice in a run (memo.ts) —
 * across steps, strategies and scenarios.
 */
/**
 * How o200k_base counts become the counts of a model whose tokenizer is not public
 * (src/tokens/calibration.ts): `factor × tokens + perToolCall × tool calls`.
 */
export interface Calibration {
  factor: number;
  perToolCall: number;
  /**
   * Tokens a terminal escape sequence costs (tokens/escapes.ts), in the family's tokens: a text is
   * then counted without its sequences, scaled, plus this a sequence. Absent: counted as o200k_base
   * counts them, scaled.
   */
  perEscape?: number;
}

export interface Tokenizer {
  readonly encoding: Encoding;
  /** Applied to every count of this tokenizer; absent for models counted as they are. */
  readonly calibration?: Calibration;
  count(text: string): number;
  /** Tokens of a message as the provider's format charges it (text, thinking, tool calls, overhead). */
  countMessage(message: ContextMessage, format: ProviderName): number;
  /** Tokens of a whole request: messages, instruction and the per-request overhead. */
  countMessages(messages: readonly ContextMessage[], format: ProviderName, instruction?: string): number;
}
