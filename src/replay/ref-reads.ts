import { runWeakMap } from '../memo.js';
import type { ContextMessage, MessageEvent } from '../transcript/types.js';
import type { Archive } from '../strategies/types.js';
import { findRetrievalHints } from '../strategies/helpers/hints.js';

/**
 * Reads through a reference (the seed's `read_chunk` / `scratchpad_list` tools). When the context
 * a strategy sent names where cut content went (a retrieval hint: a scratchpad ref, an archive
 * key, an archived message id), an agent that needs that content reads it through the ref, one
 * chunk at a time, instead of re-running the tool: follow-up.ts charges that read, not the whole
 * output. A completion that names a ref the context offers reads the whole ref.
 */

/** Size of one `read_chunk` answer, in characters (lines are never split). */
const CHUNK_CHARS = 4000;

/** The refs the context offers: each hinted key the archive holds → the messages behind it. */
export function refsOffered(context: readonly ContextMessage[], archive: Pick<Archive, 'get' | 'lookup'>): Map<string, MessageEvent[]> {
  const refs = new Map<string, MessageEvent[]>();
  const looked = new Set<string>();
  for (const message of context) {
    for (const key of hintsOf(message)) {
      if (looked.has(key)) continue;
      looked.add(key);
      const stored = archive.lookup(key) ?? [];
      const single = archive.get(key);
      const messages = stored.length > 0 ? stored : single !== undefined ? [single] : [];
      if (messages.length > 0) refs.set(key, messages);
    }
  }
  return refs;
}

/** The retrieval hints of a message, found once per message object (contexts keep their messages). */
function hintsOf(message: ContextMessage): readonly string[] {
  let keys = hintsByMessage.get(message);
  if (keys === undefined) {
    keys = findRetrievalHints(message.text);
    hintsByMessage.set(message, keys);
  }
  return keys;
}

const hintsByMessage = runWeakMap<ContextMessage, readonly string[]>();

/** The ref through which message `id` is read back: the one holding fewest messages (the closest). */
export function refHolding(refs: ReadonlyMap<string, MessageEvent[]>, id: string): string | undefined {
  let best: { key: string; size: number } | undefined;
  for (const [key, messages] of refs) {
    if (!messages.some((m) => m.id === id)) continue;
    if (best === undefined || messages.length < best.size) best = { key, size: messages.length };
  }
  return best?.key;
}

/** `text` cut into chunks of about `CHUNK_CHARS`, at line boundaries. */
function chunksOf(text: string): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (current !== '' && current.length + line.length + 1 > CHUNK_CHARS) {
      chunks.push(current);
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  chunks.push(current);
  return chunks;
}

/** What `read_chunk(key)` returns for the chunks of `text` that hold `lines`. */
export function readChunks(key: string, text: string, lines: readonly string[]): string {
  const chunks = chunksOf(text);
  const wanted = chunks.map((chunk, i) => ({ chunk, i })).filter(({ chunk }) => lines.some((line) => chunk.includes(line)));
  const read = wanted.length > 0 ? wanted : chunks.slice(0, 1).map((chunk) => ({ chunk, i: 0 }));
  return read.map(({ chunk, i }) => `read_chunk ${key} [${i + 1}/${chunks.length}]:\n${chunk}`).join('\n\n');
}

/** The offered refs a completion names in its text or its tool-call arguments. */
export function refsNamedBy(completion: MessageEvent, refs: ReadonlyMap<string, MessageEvent[]>): string[] {
  if (refs.size === 0) return [];
  const said = saidBy(completion);
  return [...refs.keys()].filter((key) => key.startsWith('ref:') && said.includes(key));
}

/** Whether a completion may name a ref at all (`refsNamedBy` is empty otherwise, whatever is offered). */
export function mayNameRef(completion: MessageEvent): boolean {
  return saidBy(completion).includes('ref:');
}

/** What a completion says, its text and its tool-call arguments; once per completion (every strategy replays it). */
function saidBy(completion: MessageEvent): string {
  let said = saidMemo.get(completion);
  if (said === undefined) {
    said = [completion.text, ...(completion.toolCalls ?? []).map((call) => JSON.stringify(call.args))].join('\n');
    saidMemo.set(completion, said);
  }
  return said;
}

const saidMemo = runWeakMap<MessageEvent, string>();
