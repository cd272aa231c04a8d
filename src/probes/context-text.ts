import type { MessageEvent } from '../transcript/types.js';
import { normaliseAnswer } from './grade.js';
import { renderMessageText } from './message-text.js';
import type { PreparedContext } from './retention.js';

// Joins texts so that no match can span two of them (as retention.ts `prepareContext` does).
const SEPARATOR = '\u0000';

interface MessageTexts {
  raw: string;
  normalised?: string;
}

// Strategies send the same message objects step after step; each is rendered (and normalised)
// once. A weak map keeps the texts without holding messages alive.
const textCache = new WeakMap<MessageEvent, MessageTexts>();

function textsOf(message: MessageEvent): MessageTexts {
  let entry = textCache.get(message);
  if (entry === undefined) {
    entry = { raw: renderMessageText(message) };
    textCache.set(message, entry);
  }
  return entry;
}

/** The searchable text of a message (message-text.ts `renderMessageText`, no thinking), cached. */
export function messageText(message: MessageEvent): string {
  return textsOf(message).raw;
}

function normalisedOf(message: MessageEvent): string {
  const entry = textsOf(message);
  entry.normalised ??= normaliseAnswer(entry.raw);
  return entry.normalised;
}

/**
 * The prepared context of one step (retention.ts `PreparedContext`), built from messages with
 * every message's text cached across steps. The normalised join is built only when a probe asks
 * for it: evidence found verbatim never needs it.
 */
export function prepareMessages(messages: readonly MessageEvent[]): PreparedContext {
  const raw = messages.map(messageText).join(SEPARATOR);
  let normalised: string | undefined;
  return {
    raw,
    get normalised(): string {
      normalised ??= messages.map(normalisedOf).join(SEPARATOR);
      return normalised;
    },
  };
}
