import type { ContextMessage, ControlEvent, TranscriptEvent } from '../../transcript/types.js';
import { createPositionsMemo } from '../../memo.js';

/**
 * The conversation as the agent sees it, kept by strategies that build on the plain history.
 * Control events a real tool offers are honoured here once for every strategy that uses it:
 * `undo` drops the last group, `drop-group` drops group k (groups start at each user message).
 */
export interface History {
  messages: ContextMessage[];
}

export function createHistory(): History {
  return { messages: [] };
}

/** Applies a transcript event to the history; returns true when it changed it. */
export function applyToHistory(history: History, event: TranscriptEvent): boolean {
  if (event.type === 'message') {
    history.messages.push(event);
    return true;
  }
  if (event.type === 'control') return applyControl(history, event);
  return false;
}

function applyControl(history: History, event: ControlEvent): boolean {
  if (event.action === 'undo') {
    const starts = groupStarts(history.messages);
    const last = starts[starts.length - 1];
    if (last === undefined) return false;
    history.messages.splice(last);
    return true;
  }
  if (event.action === 'drop-group' && event.group !== undefined) {
    const range = groupRange(history.messages, event.group);
    if (range === undefined) return false;
    history.messages.splice(range.start, range.end - range.start);
    return true;
  }
  return false;
}

/** Indexes of the user messages that open each group (group 0 opens at the first user message). */
export const groupStarts: (messages: readonly ContextMessage[]) => number[] = createPositionsMemo(
  (m: ContextMessage) => m.role === 'user' && m.synthetic === undefined,
);

/** The half-open message range of group k, or undefined when there is no such group. */
function groupRange(messages: readonly ContextMessage[], group: number): { start: number; end: number } | undefined {
  const starts = groupStarts(messages);
  const start = starts[group];
  if (start === undefined) return undefined;
  return { start, end: starts[group + 1] ?? messages.length };
}

/** Messages before the first user message that are system prompts: always sent. */
export function leadingSystem(messages: readonly ContextMessage[]): ContextMessage[] {
  const out: ContextMessage[] = [];
  for (const m of messages) {
    if (m.role !== 'system') break;
    out.push(m);
  }
  return out;
}
