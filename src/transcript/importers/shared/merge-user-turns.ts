import type { MessageEvent, TranscriptEvent } from '../../types.js';

/**
 * Joins user messages that follow one another with nothing in between into one user turn, as the
 * Anthropic Messages API does with consecutive user content (and Claude Code before it sends).
 * Claude Code logs a slash command as three user records (a caveat, the command, its output);
 * kept apart, each would open a conversation group of its own, and a window of the last N groups
 * would keep little but them. The first record's id and time stay; the texts are joined with a
 * blank line. Pure.
 */
export function mergeAdjacentUserMessages(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  const merged: TranscriptEvent[] = [];
  for (const event of events) {
    const last = merged[merged.length - 1];
    if (isPlainUser(event) && last !== undefined && isPlainUser(last)) {
      merged[merged.length - 1] = { ...last, text: `${last.text}\n\n${event.text}` };
      continue;
    }
    merged.push(event);
  }
  return merged;
}

function isPlainUser(event: TranscriptEvent): event is MessageEvent {
  return event.type === 'message' && event.role === 'user' && event.toolCalls === undefined;
}
