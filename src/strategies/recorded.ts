import { z } from 'zod';
import type { CompactionEvent, ContextMessage, TranscriptEvent } from '../transcript/types.js';
import type { Strategy } from './types.js';
import { applyToHistory, createHistory, type History } from './helpers/history.js';

const options = z.strictObject({});

/**
 * The message that stands for the history after a compaction the agent performed: its own
 * summary, as a user message (Claude Code sends it as the first user message after its system
 * prefix; Codex's `compacted` line carries the same kind of text). Its id is the compaction's, so
 * the engine can charge what the agent re-attached with it (tokens/hidden-tokens.ts).
 */
function recordedSummaryMessage(event: CompactionEvent & { summary: string }): ContextMessage {
  return {
    type: 'message',
    id: event.id,
    role: 'user',
    text: event.summary,
    synthetic: 'recorded-compaction',
    ...(event.at !== undefined ? { at: event.at } : {}),
  };
}

/**
 * What the agent re-attached with its summary (a file it had read, its todo list), as the user
 * messages it sent them in: context like any other, so retention and answers count them.
 */
function restoredMessages(event: CompactionEvent): ContextMessage[] {
  return (event.restored ?? []).map((text, i) => ({
    type: 'message',
    id: `${event.id}/restored-${i + 1}`,
    role: 'user',
    text,
    synthetic: 'recorded-restored',
    ...(event.at !== undefined ? { at: event.at } : {}),
  }));
}

/**
 * Applies an event as the recorded agent did: messages join the history; at a compaction with a
 * summary, the history becomes the system messages followed by the summary and what the agent
 * re-attached with it. Returns true when the history changed.
 */
export function applyRecorded(history: History, event: TranscriptEvent): boolean {
  if (event.type !== 'compaction' || event.summary === undefined) return applyToHistory(history, event);
  const system = history.messages.filter((m) => m.role === 'system');
  history.messages = [...system, recordedSummaryMessage({ ...event, summary: event.summary }), ...restoredMessages(event)];
  return true;
}

/**
 * What the agent really sent: the whole history, until the agent's own compaction replaces it with
 * the agent's summary. The reference fidelity and comparisons are measured against.
 */
export const recorded: Strategy<z.infer<typeof options>, History> = {
  name: 'recorded',
  description:
    "Replays exactly what the agent sent, following the log's own compactions (the recorded summary, and what the agent re-attached with it, replace the history).",
  options,
  init: () => createHistory(),
  observe(event, state, env) {
    const before = event.type === 'compaction' && event.summary !== undefined ? env.countMessages(state.messages) : 0;
    if (!applyRecorded(state, event) || event.type !== 'compaction') return;
    env.emit({
      action: 'compact',
      reason: 'recorded compaction',
      mode: 'recorded',
      tokensBefore: before,
      tokensAfter: env.countMessages(state.messages),
      detail: event.id,
    });
  },
  prepare: (state) => [...state.messages],
};
