import { runOwned } from '../../memo.js';
import type { ContextMessage } from '../../transcript/types.js';

/**
 * The agent's scratchpad: notes it asked to keep, which survive every eviction and every window
 * cut. The agent writes a note as a line of its visible text that starts with `NOTE:` (thinking
 * is not read: it is the model's private reasoning, not something it chose to keep).
 */
const NOTE_LINE = /^\s*NOTE:\s*(.+?)\s*$/;

/** The notes of an assistant text, in order (`NOTE: ...` lines, without the prefix). */
export function extractNotes(text: string): string[] {
  const notes: string[] = [];
  for (const line of text.split('\n')) {
    const match = NOTE_LINE.exec(line);
    if (match?.[1] !== undefined && match[1] !== '') notes.push(match[1]);
  }
  return notes;
}

/**
 * Adds notes to a scratchpad: a note already there moves to the end (it was restated, so it is
 * current); the oldest notes go when there are more than `max`.
 */
export function addNotes(pad: readonly string[], notes: readonly string[], max: number): string[] {
  let next = [...pad];
  for (const note of notes) next = [...next.filter((n) => n !== note), note];
  return next.slice(Math.max(0, next.length - max));
}

/**
 * A synthetic system message holding a block of text, or undefined when there is nothing to hold.
 * While its text stays the same it is the same object from step to step (as helpers/derived.ts
 * keeps edits): a new copy at every step, right after the system prompt, broke the run of
 * messages every per-message memo downstream shares with the step before.
 */
export function syntheticSystem(id: string, kind: string, heading: string, lines: readonly string[]): ContextMessage | undefined {
  if (lines.length === 0) return undefined;
  const text = [heading, ...lines].join('\n');
  const key = `${kind}\u0000${id}`;
  const blocks = lastBlocks();
  const last = blocks?.get(key);
  if (last?.text === text) return last;
  const message: ContextMessage = { type: 'message', id, role: 'system', text, synthetic: kind };
  blocks?.set(key, message);
  return message;
}

/** The last block made of each kind and id (a handful: scratchpads and state blocks). */
const lastBlocks = runOwned(() => new Map<string, ContextMessage>());

/** The scratchpad as a synthetic system message, or undefined when it is empty. */
export function scratchpadMessage(id: string, notes: readonly string[]): ContextMessage | undefined {
  return syntheticSystem(
    id,
    'scratchpad',
    '### ACTIVE CONTEXT (scratchpad: notes kept across evictions)',
    notes.map((n) => `- ${n}`),
  );
}

/**
 * Inserts messages right after the leading system prompt(s). They are system messages, so a
 * later pipeline stage that keeps the leading system messages (a rolling window) keeps them too.
 * A message of the same id already there (from an earlier step of the same strategy) is replaced.
 */
export function injectAfterSystem(messages: readonly ContextMessage[], injected: readonly (ContextMessage | undefined)[]): ContextMessage[] {
  const add = injected.filter((m): m is ContextMessage => m !== undefined);
  if (add.length === 0) return [...messages];
  const ids = new Set(add.map((m) => m.id));
  const rest = messages.filter((m) => !ids.has(m.id));
  let at = 0;
  while (at < rest.length && rest[at]?.role === 'system') at += 1;
  return [...rest.slice(0, at), ...add, ...rest.slice(at)];
}
