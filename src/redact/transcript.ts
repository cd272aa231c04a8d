import type { MessageEvent, TranscriptEvent } from '../transcript/types.js';
import { findSecrets, redactText } from './index.js';

/** A transcript's events redacted, and how many secrets of each kind were masked. */
export interface RedactedEvents {
  events: TranscriptEvent[];
  /** Secrets masked, by kind (`openai-key`, `pem-private-key`, …). */
  found: Record<string, number>;
}

/**
 * Masks the secrets in what a transcript says: message text, thinking and tool-call arguments,
 * task titles and summaries, compaction summaries. Ids, names, times, thought signatures and
 * probes are left as they are: ids link tool calls to their results (two ids masked to the same
 * marker would merge them), and a probe is never made of a secret.
 */
export function redactTranscriptEvents(events: readonly TranscriptEvent[]): RedactedEvents {
  const found: Record<string, number> = {};
  const redact = (text: string): string => {
    const spans = findSecrets(text);
    if (spans.length === 0) return text;
    for (const span of spans) found[span.kind] = (found[span.kind] ?? 0) + 1;
    return redactText(text);
  };
  const redactDeep = (value: unknown): unknown => {
    if (typeof value === 'string') return redact(value);
    if (Array.isArray(value)) return value.map(redactDeep);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item)]));
    return value;
  };
  const redactMessage = (message: MessageEvent): MessageEvent => ({
    ...message,
    text: redact(message.text),
    ...(message.thinking !== undefined ? { thinking: redact(message.thinking) } : {}),
    ...(message.toolCalls !== undefined
      ? { toolCalls: message.toolCalls.map((call) => ({ ...call, args: redactDeep(call.args) as Record<string, unknown> })) }
      : {}),
  });
  const redacted = events.map((event): TranscriptEvent => {
    switch (event.type) {
      case 'message':
        return redactMessage(event);
      case 'task':
        return {
          ...event,
          ...(event.title !== undefined ? { title: redact(event.title) } : {}),
          ...(event.resultSummary !== undefined ? { resultSummary: redact(event.resultSummary) } : {}),
          ...(event.criteria !== undefined ? { criteria: event.criteria.map(redact) } : {}),
        };
      case 'compaction':
        return event.summary !== undefined ? { ...event, summary: redact(event.summary) } : event;
      default:
        return event;
    }
  });
  return { events: redacted, found };
}

/** "3 secrets redacted (2 openai-key, 1 github-token)", or undefined when there were none. */
export function describeRedacted(found: Record<string, number>): string | undefined {
  const kinds = Object.entries(found).sort(([a], [b]) => a.localeCompare(b));
  const total = kinds.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return undefined;
  return `${total} secret${total === 1 ? '' : 's'} redacted (${kinds.map(([kind, n]) => `${n} ${kind}`).join(', ')})`;
}
