import { runTextMemo } from '../../memo.js';

/**
 * Retrieval hints: the marker a strategy leaves where it removed text that it kept in the
 * archive. The key is either an archived message id (`env.archive.get`) or an archive key
 * (`env.archive.lookup`: a task archive, a scratchpad ref). Probe readers follow them.
 */
const HINT = /\[archived: ([^\]\s]+) — retrievable\]/g;
/** Every hint starts so: a text without it holds none (a plain search, cheaper than the pattern). */
const HINT_START = '[archived: ';

export function retrievalHint(key: string): string {
  return `[archived: ${key} — retrievable]`;
}

/**
 * The keys of each text holding a hint, found once: the probe reader and the follow-up reads look
 * at every message of a context at every step, and kept messages hand them the same texts again.
 * A pure function of the text; emptied when large.
 */
const hintMemo = runTextMemo<readonly string[]>('strategy-hints');

/** The keys of every retrieval hint in `text`, in order (a new array: callers may add to it). */
export function findRetrievalHints(text: string): string[] {
  const keys = hintMemo.get(text, () => (text.includes(HINT_START) ? [...text.matchAll(HINT)].map((m) => m[1] as string) : []));
  return [...keys];
}
