import type { Archive } from '../strategies/types.js';
import type { ContextMessage, MessageEvent } from '../transcript/types.js';
import { findRetrievalHints } from '../strategies/hints.js';
import { rankPassages, splitPassages } from '../providers/simulated/reader.js';
import { isAbsenceAnswer } from './grade.js';
import { messageText } from './context-text.js';

/**
 * Retrieval-aware recall (issue: a strategy that leaves a retrieval hint claims the text is
 * recoverable). The reader may follow a hint when it could not answer, or when the passage it
 * answered from is itself a hint, and only a hint found next to what the question asks about:
 * in the messages of the passages that best match the question, or in the message beside one
 * (a tool call's args match the question, its truncated result holds the hint). The choice uses
 * the question and the context alone, never the expected answer.
 */

/** Passages that count as "what the question asks about". */
const TOP_PASSAGES = 3;
/** At most this many archived texts are fetched for one question. */
const MAX_KEYS = 2;

/** Whether an answer calls for retrieval: a "not found", or an answer read from a hint. */
export function needsRetrieval(answer: string): boolean {
  return isAbsenceAnswer(answer) || findRetrievalHints(answer).length > 0;
}

/** The retrieval keys worth following for `question`, best first; empty when none applies. */
export function chooseRetrievalKeys(question: string, context: readonly ContextMessage[], answer: string): string[] {
  if (!needsRetrieval(answer)) return [];
  const keys = findRetrievalHints(answer);
  const position = new Map<string, number>();
  context.forEach((message, index) => position.set(message.id, index));
  const best = rankPassages(question, splitPassages(context))
    .filter((passage) => passage.score > 0)
    .slice(0, TOP_PASSAGES);
  for (const passage of best) {
    const at = position.get(passage.messageId);
    if (at === undefined) continue;
    for (const neighbour of [at, at - 1, at + 1]) {
      const message = context[neighbour];
      if (message !== undefined) keys.push(...findRetrievalHints(messageText(message)));
    }
  }
  return [...new Set(keys)].slice(0, MAX_KEYS);
}

/** An archived text fetched by its key. */
export interface Retrieved {
  key: string;
  messages: MessageEvent[];
}

/**
 * Resolves keys in the archive: an archived message id (`archive.get`) or an archive key
 * (`archive.lookup`). Keys that resolve to nothing are dropped.
 */
export function fetchArchived(keys: readonly string[], archive: Archive): Retrieved[] {
  return keys.flatMap((key) => {
    const message = archive.get(key);
    const messages = message !== undefined ? [message] : (archive.lookup(key) ?? []);
    return messages.length === 0 ? [] : [{ key, messages }];
  });
}

/** The fetched texts as one message placed before the question (what a retrieval tool returns). */
export function retrievedMessage(probeId: string, retrieved: readonly Retrieved[]): ContextMessage {
  const text = retrieved
    .map(({ key, messages }) => `Retrieved from the archive (${key}):\n${messages.map(messageText).join('\n')}`)
    .join('\n\n');
  return { type: 'message', id: `retrieved:${probeId}`, role: 'user', text, synthetic: 'retrieval' };
}
