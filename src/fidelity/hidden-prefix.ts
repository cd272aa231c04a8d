import type { Transcript } from '../transcript/types.js';
import type { ProviderName } from '../providers/types.js';
import type { Tokenizer } from '../tokens/types.js';
import type { HiddenPrefix } from '../engine/hidden-tokens.js';
import { carriedReasoningTokens, NO_HIDDEN_PREFIX } from '../engine/hidden-tokens.js';
import { applyRecorded } from '../strategies/recorded.js';
import { createHistory } from '../strategies/history.js';
import { median } from './stats.js';

/**
 * How many first steps with recorded usage estimate a hidden prefix. Early contexts are small, so
 * `recorded − computed` there is mostly what the log does not hold (the agent's system prompt and
 * tool schemas) and little tokenizer mismatch; the median of three shrugs off one odd step.
 */
export const OFFSET_STEPS = 3;

/**
 * Estimates a log's hidden prefix from its recorded usage: the median of `recorded − computed`
 * over the first OFFSET_STEPS steps, where `computed` is what `recorded` sends (the log's messages,
 * its own compactions followed, the current turn's reasoning), counted with `tokenizer` — so the
 * estimate is in the same (calibrated) units as every other count. The same estimate over the
 * first steps after each recorded compaction, less the prefix, is what the agent re-attached with
 * its summary. Never negative: a log cannot have sent less than it holds. 0 (`none`) without usage.
 */
export function estimateHiddenPrefix(transcript: Transcript, tokenizer: Tokenizer, format: ProviderName): HiddenPrefix {
  const history = createHistory();
  const dialect = transcript.header.dialect;
  const segments: { id: string | undefined; residuals: number[] }[] = [{ id: undefined, residuals: [] }];
  for (const event of transcript.events) {
    if (event.type === 'message' && event.role === 'assistant') {
      const recorded = event.usage?.input;
      const segment = segments[segments.length - 1];
      if (recorded !== undefined && recorded > 0 && segment !== undefined && segment.residuals.length < OFFSET_STEPS) {
        const computed = tokenizer.countMessages(history.messages, format) + carriedReasoningTokens(history.messages, tokenizer, format, dialect);
        segment.residuals.push(recorded - computed);
      }
    }
    if (event.type === 'compaction' && event.summary !== undefined) segments.push({ id: event.id, residuals: [] });
    applyRecorded(history, event);
  }
  const first = segments[0]?.residuals ?? [];
  if (first.length === 0) return NO_HIDDEN_PREFIX;
  const tokens = Math.max(0, Math.round(median(first)));
  const restored: Record<string, number> = {};
  for (const { id, residuals } of segments.slice(1)) {
    if (id !== undefined && residuals.length > 0) restored[id] = Math.max(0, Math.round(median(residuals)) - tokens);
  }
  return { tokens, source: 'auto', estimatedOn: first.length, ...(Object.keys(restored).length > 0 ? { restored } : {}) };
}

/** The scenario's `hiddenPrefix` setting resolved for one transcript. */
export function resolveHiddenPrefix(setting: 'auto' | number, transcript: Transcript, tokenizer: Tokenizer, format: ProviderName): HiddenPrefix {
  if (setting === 'auto') return estimateHiddenPrefix(transcript, tokenizer, format);
  return setting === 0 ? NO_HIDDEN_PREFIX : { tokens: setting, source: 'given' };
}
