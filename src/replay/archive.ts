import type { MessageEvent } from '../transcript/types.js';
import type { Archive } from '../strategies/types.js';

/**
 * The canonical full history of a session, kept by the engine beside the strategy's state.
 * Retrieval hints (message ids, archive keys, scratchpad refs) point into it.
 */
export function createArchive(): Archive & { add(message: MessageEvent): void } {
  const byId = new Map<string, MessageEvent>();
  const stored = new Map<string, MessageEvent[]>();
  return {
    add(message) {
      byId.set(message.id, message);
    },
    get: (id) => byId.get(id),
    put(key, messages) {
      stored.set(key, [...(stored.get(key) ?? []), ...messages]);
      return key;
    },
    lookup: (key) => stored.get(key),
    keys: () => [...stored.keys()],
  };
}
