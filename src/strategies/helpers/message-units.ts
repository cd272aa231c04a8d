import type { ContextMessage } from '../../transcript/types.js';

/**
 * Cutting a history without separating a tool call from its results. Strategies that keep "the
 * last N messages" or drop "the oldest item" go through these, so the pairing invariant is kept in
 * one place.
 */

/** Ids of the tool calls that `messages` make. */
function callIdsOf(messages: readonly ContextMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) for (const call of m.toolCalls ?? []) ids.add(call.id);
  return ids;
}

/**
 * Moves a cut index back until no tool result at or after it answers a call before it, so that
 * `messages.slice(cut)` holds every call whose result it holds.
 */
export function alignCut(messages: readonly ContextMessage[], index: number): number {
  let cut = Math.max(0, Math.min(index, messages.length));
  for (;;) {
    const kept = messages.slice(cut);
    const present = callIdsOf(kept);
    const missing = new Set(kept.filter((m) => m.role === 'tool' && m.toolCallId !== undefined && !present.has(m.toolCallId)).map((m) => m.toolCallId));
    if (missing.size === 0) return cut;
    let earliest = cut;
    for (let i = cut - 1; i >= 0; i--) {
      if ((messages[i]?.toolCalls ?? []).some((call) => missing.has(call.id))) earliest = i;
    }
    // A result whose call is nowhere before the cut cannot be paired by moving back: stop here.
    if (earliest === cut) return cut;
    cut = earliest;
  }
}

/** Drops tool results whose call is not in `messages` (they would be orphans in a request). */
function dropOrphanResults(messages: readonly ContextMessage[]): ContextMessage[] {
  const calls = callIdsOf(messages);
  return messages.filter((m) => m.role !== 'tool' || m.toolCallId === undefined || calls.has(m.toolCallId));
}

/**
 * The history without its oldest item: the first message, and with it the results of the calls
 * it made (a call and its results are one item).
 */
export function dropOldestItem(messages: readonly ContextMessage[]): ContextMessage[] {
  return dropOrphanResults(messages.slice(1));
}

/**
 * The messages `keep` selects, and with each kept call its results and with each kept result its
 * call (from `messages`, where they pair): a filter never sends a call without its results, nor a
 * result without its call. `messages` must pair up itself; a whole round kept stays contiguous.
 */
export function keepWholeRounds(messages: readonly ContextMessage[], keep: (message: ContextMessage, index: number) => boolean): ContextMessage[] {
  const kept = messages.map(keep);
  const roundOf = new Map<string, number>();
  for (const [i, m] of messages.entries()) for (const call of m.toolCalls ?? []) roundOf.set(call.id, i);
  const restore = new Set<number>();
  for (const [i, m] of messages.entries()) {
    const call = m.role === 'tool' && m.toolCallId !== undefined ? roundOf.get(m.toolCallId) : undefined;
    if (call !== undefined && kept[i] !== kept[call]) restore.add(call);
  }
  for (const i of restore) kept[i] = true;
  const open = new Set<string>();
  for (const [i, m] of messages.entries()) if (kept[i] === true) for (const call of m.toolCalls ?? []) open.add(call.id);
  return messages.filter((m, i) => kept[i] === true || (m.role === 'tool' && m.toolCallId !== undefined && open.has(m.toolCallId)));
}

/** Index of the newest real (not synthesised) user message, or -1. */
export function newestUserIndex(messages: readonly ContextMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user' && m.synthetic === undefined) return i;
  }
  return -1;
}

/** `messages.slice(cut)`, preceded by the newest user message when it lies before the cut. */
export function pinNewestUser(messages: readonly ContextMessage[], cut: number): ContextMessage[] {
  const tail = messages.slice(cut);
  const user = newestUserIndex(messages);
  const pinned = user >= 0 && user < cut ? messages[user] : undefined;
  return pinned === undefined ? tail : [pinned, ...tail];
}

/** The message as one block of plain text, for summary requests that must not carry tool parts. */
export function renderAsText(message: ContextMessage): string {
  const lines: string[] = [];
  const label = message.role === 'tool' ? `tool result${message.toolName !== undefined ? ` (${message.toolName})` : ''}` : message.role;
  if (message.thinking !== undefined && message.thinking !== '') lines.push(`${label} (thinking): ${message.thinking}`);
  if (message.text !== '') lines.push(`${label}: ${message.text}`);
  for (const call of message.toolCalls ?? []) lines.push(`${label} calls ${call.name} ${JSON.stringify(call.args)}`);
  return lines.join('\n');
}
