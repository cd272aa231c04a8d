import type { MessageEvent, TaskEvent, TaskEventSource, Transcript, TranscriptEvent } from '../types.js';
import type { Writable } from '../draft.js';
import { planCalls, type PlanItem } from './plan-tools.js';

/** How long a derived task's result summary and title run (one line, cut with `…`). */
export const SUMMARY_CHARS = 400;
export const TITLE_CHARS = 100;

/**
 * Derives `task` events from what the agent recorded (README, "Tasks"). When the log holds plan
 * tool calls (Claude Code `TodoWrite`, Codex `update_plan`), each plan item is a task: it opens
 * (`in_progress`) and closes (`completed`) where a call changes its status, the events placed
 * after the call's tool result (or after the call when no result was recorded). Without plan
 * calls, every user request opens a task that the next user request completes. A completed task's
 * result summary is the last assistant text written while it was open. A transcript that already
 * has task events is returned as it is.
 */
export function deriveTasks(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  if (events.some((e) => e.type === 'task')) return [...events];
  const messages = events.filter((e): e is MessageEvent => e.type === 'message');
  const hasPlan = messages.some((m) => m.role === 'assistant' && planCalls(m).length > 0);
  return hasPlan ? fromPlanTools(events) : fromUserTurns(events);
}

/** A transcript with derived task events (the importers' hook). */
export function withDerivedTasks(transcript: Transcript): Transcript {
  return { ...transcript, events: deriveTasks(transcript.events) };
}

interface Tracked {
  id: string;
  title: string;
  status: string;
  /** Last assistant text since the task opened. */
  lastText?: string;
}

/** A text as one line of at most `max` characters, as a derived task's title and summary are written. */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function taskEvent(task: Tracked, status: 'in_progress' | 'completed', source: TaskEventSource, at: string | undefined): TaskEvent {
  const event: Writable<TaskEvent> = { type: 'task', id: task.id, status, title: task.title, source };
  if (status === 'completed' && task.lastText !== undefined) event.resultSummary = clip(task.lastText, SUMMARY_CHARS);
  if (at !== undefined) event.at = at;
  return event;
}

function noteText(tasks: Iterable<Tracked>, message: MessageEvent): void {
  if (message.role !== 'assistant' || message.text.trim() === '') return;
  for (const task of tasks) if (task.status === 'in_progress') task.lastText = message.text;
}

function fromPlanTools(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  const byTitle = new Map<string, Tracked>();
  /** Task events waiting for the tool result of the call that produced them, by call id. */
  const pending = new Map<string, TaskEvent[]>();
  const out: TranscriptEvent[] = [];
  for (const event of events) {
    out.push(event);
    if (event.type !== 'message') continue;
    noteText(byTitle.values(), event);
    if (event.role === 'tool' && event.toolCallId !== undefined && pending.has(event.toolCallId)) {
      out.push(...(pending.get(event.toolCallId) ?? []));
      pending.delete(event.toolCallId);
    }
    if (event.role !== 'assistant') continue;
    for (const { call, tool } of planCalls(event)) {
      const changes = transitions(tool.items(call.args), byTitle).map(({ task, status }) => taskEvent(task, status, tool.source, event.at));
      if (changes.length > 0) pending.set(call.id, [...(pending.get(call.id) ?? []), ...changes]);
    }
    // Calls whose result never arrives: their events go before the next message (flushed at the end).
  }
  for (const rest of pending.values()) out.push(...rest);
  return out;
}

/** Status changes of a plan list against the tracked items; updates them. */
function transitions(items: PlanItem[], byTitle: Map<string, Tracked>): { task: Tracked; status: 'in_progress' | 'completed' }[] {
  const changes: { task: Tracked; status: 'in_progress' | 'completed' }[] = [];
  for (const item of items) {
    let task = byTitle.get(item.title);
    if (task === undefined) {
      task = { id: `plan-${byTitle.size + 1}`, title: clip(item.title, TITLE_CHARS), status: 'pending' };
      byTitle.set(item.title, task);
    }
    if (item.status === task.status) continue;
    if (item.status === 'in_progress' || item.status === 'completed') changes.push({ task, status: item.status });
    task.status = item.status;
  }
  // Completions first, so that a task closing and the next opening at one call do not overlap.
  return changes.sort((a, b) => (a.status === b.status ? 0 : a.status === 'completed' ? -1 : 1));
}

function fromUserTurns(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  let open: Tracked | undefined;
  let n = 0;
  for (const event of events) {
    if (event.type === 'message' && event.role === 'user' && event.text.trim() !== '') {
      if (open !== undefined) out.push(taskEvent(open, 'completed', 'user-turns', event.at));
      n += 1;
      open = { id: `turn-${n}`, title: clip(event.text, TITLE_CHARS), status: 'in_progress' };
      out.push(event, taskEvent(open, 'in_progress', 'user-turns', event.at));
      continue;
    }
    out.push(event);
    if (event.type === 'message' && open !== undefined) noteText([open], event);
  }
  return out;
}
