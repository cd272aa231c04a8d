import { runWeakMap } from '../../memo.js';
import type { ContextMessage } from '../../transcript/types.js';

/**
 * The evictions surgical-eviction made, kept apart from the raw history: the history stays as
 * observed (so undo, drop-group and pipelines work on real ids) and the book says what is sent
 * in place of which raw messages.
 *
 * Pairing design. A task's assistant turns become ONE assistant tombstone, yet those turns made
 * tool calls, and a tool result must always follow the call it answers (OpenAI rejects a `tool`
 * message without a preceding `tool_calls` entry; Gemini a `functionResponse` without its
 * `functionCall`). So the tombstone keeps every call of the turns it replaces (ids, names, args:
 * the args are the agent's actions, short, and worth keeping) and the block it heads holds, right
 * after it, every result of those calls — the results tagged with the task as tombstones, any
 * others as they were. A block is therefore self-contained: the calls, then all their results.
 * Around that rule:
 * - a result in the task whose call is NOT in the block (a call made before the task started) is
 *   tombstoned where it stands, after its call, never moved;
 * - a turn whose call has no result in the history yet ends the block: it and what follows stay
 *   raw, so no call is sent without its answer;
 * - a block that overlaps an earlier one (nested tasks) absorbs it whole, so each raw message
 *   belongs to at most one block.
 */
interface EvictionBlock {
  taskId: string;
  /** Ids of the raw messages the block stands for. */
  members: Set<string>;
  /** What is sent, at the place of the first member present: the tombstone, then the results. */
  messages: ContextMessage[];
}

export interface EvictionBook {
  blocks: EvictionBlock[];
  /** Tool results tombstoned where they stand, by raw id (their call is outside any block). */
  inPlace: Map<string, ContextMessage>;
}

export function createBook(): EvictionBook {
  return { blocks: [], inPlace: new Map() };
}

/** Each book's blocks by member id, built once (a book is never changed: evictions commit a new one). */
const blockIndexes = runWeakMap<EvictionBook, Map<string, EvictionBlock>>();

function indexBlocks(book: EvictionBook): Map<string, EvictionBlock> {
  let byId = blockIndexes.get(book);
  if (byId === undefined) {
    byId = new Map<string, EvictionBlock>();
    for (const block of book.blocks) for (const id of block.members) byId.set(id, block);
    blockIndexes.set(book, byId);
  }
  return byId;
}

/** One application of a book to a list of messages, kept to be extended when the list grows. */
interface EvictionPass {
  /** The messages applied so far (a copy: histories grow in place). */
  input: ContextMessage[];
  out: ContextMessage[];
  emitted: Set<EvictionBlock>;
}

/**
 * The last passes of each book: a history grows by a message or two between two steps. Strategies
 * see their own history, not the step's diff (which is of the context sent, after them), so the
 * pass is matched on the messages themselves.
 */
const passesOf = runWeakMap<EvictionBook, EvictionPass[]>();
const PASSES_KEPT = 2;

/**
 * The messages as sent: each block at the place of its first member present, in-place tombstones
 * swapped in. What a message becomes depends on it and the messages before it only, so a list
 * that extends one applied before under the same book is applied from where that one ended.
 */
export function applyEvictions(messages: readonly ContextMessage[], book: EvictionBook): ContextMessage[] {
  const blockOf = indexBlocks(book);
  let passes = passesOf.get(book);
  if (passes === undefined) passesOf.set(book, (passes = []));
  let pass = passes.find((p) => p.input.length <= messages.length && p.input.every((m, i) => m === messages[i]));
  if (pass === undefined) {
    pass = { input: [], out: [], emitted: new Set() };
    passes.unshift(pass);
    if (passes.length > PASSES_KEPT) passes.pop();
  }
  const { input, out, emitted } = pass;
  for (let i = input.length; i < messages.length; i++) {
    const m = messages[i] as ContextMessage;
    input.push(m);
    const block = blockOf.get(m.id);
    if (block === undefined) {
      out.push(book.inPlace.get(m.id) ?? m);
    } else if (!emitted.has(block)) {
      emitted.add(block);
      out.push(...block.messages);
    }
  }
  return out.slice();
}

/** What a completed task contributes to its eviction. */
export interface TaskRange {
  id: string;
  /** Raw ids of the assistant and tool messages observed while the task was in progress. */
  members: ReadonlySet<string>;
  /** Raw tool-result id → the task it was tagged with. */
  tags: ReadonlyMap<string, string>;
}

/** Writes the tombstones' text (the strategy owns the wording). */
export interface TombstoneWriter {
  assistant(turns: readonly ContextMessage[]): { text: string; thinking?: string };
  tool(result: ContextMessage): string;
}

export interface EvictionPlan {
  book: EvictionBook;
  /** Raw messages replaced by tombstones, in history order, for the archive. */
  archived: ContextMessage[];
  turns: number;
  results: number;
}

type Entry = { kind: 'block'; block: EvictionBlock } | { kind: 'raw'; message: ContextMessage };

/** The task's members in history order; a block among them appears once, whole. */
function viewOf(history: readonly ContextMessage[], members: ReadonlySet<string>, blockOf: Map<string, EvictionBlock>): Entry[] {
  const seen = new Set<EvictionBlock>();
  const entries: Entry[] = [];
  for (const m of history) {
    if (!members.has(m.id)) continue;
    const block = blockOf.get(m.id);
    if (block !== undefined) {
      if (!seen.has(block)) entries.push({ kind: 'block', block });
      seen.add(block);
    } else if (m.role === 'assistant' || m.role === 'tool') {
      entries.push({ kind: 'raw', message: m });
    }
  }
  return entries;
}

/** Index of the first raw turn with a call that has no result in the history yet (the block ends there). */
function pendingCallAt(entries: readonly Entry[], history: readonly ContextMessage[]): number {
  const answered = new Set(history.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
  const at = entries.findIndex((e) => e.kind === 'raw' && (e.message.toolCalls ?? []).some((c) => !answered.has(c.id)));
  return at === -1 ? entries.length : at;
}

/** The assistant turns the block replaces: raw turns of the range and the heads of absorbed blocks. */
function collectTurns(kept: readonly Entry[]): { turns: ContextMessage[]; rawTurns: ContextMessage[] } {
  const turns: ContextMessage[] = [];
  const rawTurns: ContextMessage[] = [];
  for (const e of kept) {
    if (e.kind === 'block') {
      turns.push(...e.block.messages.filter((m) => m.role === 'assistant'));
    } else if (e.message.role === 'assistant') {
      turns.push(e.message);
      rawTurns.push(e.message);
    }
  }
  return { turns, rawTurns };
}

/** The block being built: what it stands for, the results that follow its tombstone, what is archived. */
interface Draft {
  members: Set<string>;
  results: ContextMessage[];
  inPlace: Map<string, ContextMessage>;
  archivedResults: ContextMessage[];
}

/**
 * Places every tool result of the range: with its call in the block (a tombstone when tagged with
 * the task, else as it was), or, when its call is outside the block, tombstoned where it stands.
 */
function placeResults(
  entries: readonly Entry[],
  cut: number,
  callIds: ReadonlySet<string>,
  book: EvictionBook,
  task: TaskRange,
  write: TombstoneWriter,
  draft: Draft,
): void {
  entries.forEach((e, index) => {
    if (e.kind === 'block') {
      if (index >= cut) return;
      for (const m of e.block.messages.filter((r) => r.role === 'tool')) {
        // A raw result of this task an earlier block carried along (interleaved tasks) is due now.
        const due = m.synthetic === undefined && task.tags.get(m.id) === task.id;
        if (due) draft.archivedResults.push(m);
        draft.results.push(due ? toolTombstone(m, write) : m);
      }
      e.block.members.forEach((id) => draft.members.add(id));
      return;
    }
    const m = e.message;
    const inBlock = m.toolCallId !== undefined && callIds.has(m.toolCallId);
    // Past the end of the block only the results of its calls follow it in.
    if (m.role !== 'tool' || (index >= cut && !inBlock)) return;
    const tagged = task.tags.get(m.id) === task.id && !book.inPlace.has(m.id);
    const sent = tagged ? toolTombstone(m, write) : (book.inPlace.get(m.id) ?? m);
    if (tagged) draft.archivedResults.push(m);
    if (inBlock) {
      draft.results.push(sent);
      draft.members.add(m.id);
      draft.inPlace.delete(m.id);
    } else if (tagged) {
      draft.inPlace.set(m.id, sent);
    }
  });
}

/**
 * Plans the eviction of a completed task (see the pairing design above); undefined when there is
 * nothing raw left to evict. Pure: the caller commits the returned book.
 */
export function planEviction(history: readonly ContextMessage[], book: EvictionBook, task: TaskRange, write: TombstoneWriter): EvictionPlan | undefined {
  const entries = viewOf(history, task.members, indexBlocks(book));
  const cut = pendingCallAt(entries, history);
  const kept = entries.slice(0, cut);
  const { turns, rawTurns } = collectTurns(kept);
  const callIds = new Set(turns.flatMap((t) => (t.toolCalls ?? []).map((c) => c.id)));
  const draft: Draft = { members: new Set(rawTurns.map((t) => t.id)), results: [], inPlace: new Map(book.inPlace), archivedResults: [] };
  placeResults(entries, cut, callIds, book, task, write, draft);
  if (rawTurns.length + draft.archivedResults.length === 0) return undefined;
  const absorbed = new Set(kept.flatMap((e) => (e.kind === 'block' ? [e.block] : [])));
  const blocks = book.blocks.filter((b) => !absorbed.has(b));
  if (turns.length > 0) {
    // Named after the first raw message it stands for, so ids stay unique and readable.
    const first = history.find((m) => draft.members.has(m.id))?.id ?? task.id;
    const head = assistantTombstone(`evicted:${task.id}:${first}`, turns, draft.members, write);
    blocks.push({ taskId: task.id, members: draft.members, messages: [head, ...draft.results] });
  }
  const archivedIds = new Set([...rawTurns, ...draft.archivedResults].map((m) => m.id));
  return {
    book: { blocks, inPlace: draft.inPlace },
    archived: history.filter((m) => archivedIds.has(m.id)),
    turns: rawTurns.length,
    results: draft.archivedResults.length,
  };
}

/**
 * One assistant turn for all the turns of the range: the calls of every turn, the thought flag
 * when any turn thought, and the last thought signature found in the range (Gemini requires the
 * function-call turns of the current turn to stay signed).
 */
function assistantTombstone(id: string, turns: readonly ContextMessage[], members: ReadonlySet<string>, write: TombstoneWriter): ContextMessage {
  const calls = turns.flatMap((t) => t.toolCalls ?? []);
  const signature = [...turns].reverse().find((t) => t.thoughtSignature !== undefined)?.thoughtSignature;
  const last = turns[turns.length - 1];
  // A text-protocol agent's calls went out as text: the tombstone's must too, or the request would
  // carry calls whose results (sent as user text) no longer answer them. The last turn may be a
  // plain reply without calls, so any turn that called through text decides.
  const asText = turns.some((t) => t.sentAsText === true && (t.toolCalls ?? []).length > 0) || last?.sentAsText === true;
  const { text, thinking } = write.assistant(turns);
  return {
    type: 'message',
    id,
    role: 'assistant',
    text,
    ...(thinking !== undefined ? { thinking } : {}),
    ...(calls.length > 0 ? { toolCalls: calls } : {}),
    ...(signature !== undefined ? { thoughtSignature: signature } : {}),
    ...(last?.dialect !== undefined ? { dialect: last.dialect } : {}),
    ...(asText ? { sentAsText: true as const } : {}),
    synthetic: 'tombstone',
    replaces: [...members],
  };
}

function toolTombstone(result: ContextMessage, write: TombstoneWriter): ContextMessage {
  return {
    type: 'message',
    id: `evicted:${result.id}`,
    role: 'tool',
    text: write.tool(result),
    ...(result.toolCallId !== undefined ? { toolCallId: result.toolCallId } : {}),
    ...(result.toolName !== undefined ? { toolName: result.toolName } : {}),
    ...(result.dialect !== undefined ? { dialect: result.dialect } : {}),
    ...(result.sentAsText === true ? { sentAsText: true as const } : {}),
    synthetic: 'tombstone',
    replaces: [result.id],
  };
}
