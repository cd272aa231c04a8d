/**
 * Retrieval hints: the marker a strategy leaves where it removed text that it kept in the
 * archive. The key is either an archived message id (`env.archive.get`) or an archive key
 * (`env.archive.lookup`: a task archive, a scratchpad ref). Probe readers follow them.
 */
const HINT = /\[archived: ([^\]\s]+) — retrievable\]/g;

export function retrievalHint(key: string): string {
  return `[archived: ${key} — retrievable]`;
}

/** The keys of every retrieval hint in `text`, in order. */
export function findRetrievalHints(text: string): string[] {
  return [...text.matchAll(HINT)].map((m) => m[1] as string);
}
