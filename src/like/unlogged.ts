import type { Transcript } from '../transcript/types.js';
import { resolveHiddenPrefix } from '../replay/hidden-prefix.js';
import { countTokens, tokenizerForModel } from '../tokens/tokenizer.js';

/**
 * What the agent sent with each tool result and request beyond its logged text (by message id), as the replay
 * charges it (replay/unlogged.ts: Claude Code's system reminders, a changed file's new text, hook
 * output), in o200k_base tokens like every size of the fit: 0 for a message that carried nothing,
 * and for every message of a log without recorded usage. A replay charges a generated session
 * nothing unlogged (its usage is the generator's), so a session like these logs writes it out.
 */
export function unloggedTokensOf(transcript: Transcript): Map<string, number> {
  const messages = transcript.events.flatMap((e) => (e.type === 'message' && (e.role === 'tool' || e.role === 'user') ? [e] : []));
  const tokenizer = tokenizerForModel(transcript.header.model ?? 'gpt-4o');
  const charged = resolveHiddenPrefix('auto', transcript, tokenizer, transcript.header.dialect === 'gemini' ? 'gemini' : 'openai').unlogged ?? {};
  if (Object.keys(charged).length === 0) return new Map(messages.map((m) => [m.id, 0]));
  // The charges are in the model's (calibrated) tokens: back to o200k_base at the log's own ratio.
  const texts = messages.map((m) => m.text).join('\n');
  const ratio = countTokens('o200k_base', texts) / Math.max(1, tokenizer.count(texts));
  return new Map(messages.map((m) => [m.id, Math.round((charged[m.id] ?? 0) * ratio)]));
}
