import { z } from 'zod';
import type { ContextMessage, TaskEvent } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, type History } from './helpers/history.js';
import { applyEvictions, createBook, planEviction, type EvictionBook, type TombstoneWriter } from './helpers/eviction-book.js';
import { checkResultSummary, type SummaryVerdict } from './helpers/summary-check.js';
import { addNotes, extractNotes, injectAfterSystem, scratchpadMessage } from './helpers/scratchpad.js';
import { retrievalHint } from './helpers/hints.js';

/** The options schema (sigma.ts extends it). */
export const surgicalOptions = z.strictObject({
  minSummaryChars: z
    .number()
    .int()
    .min(0)
    .default(15)
    .describe('a result summary shorter than this fails the summary check (the verdict is written into the tombstone)'),
  keepFailed: z.boolean().default(true).describe('a failed task keeps its raw log (the agent needs the errors to retry); false evicts it like a completed one'),
  maxNotes: z
    .number()
    .int()
    .min(1)
    .default(20)
    .describe('notes kept in the active_context scratchpad (assistant text lines that start with NOTE:); the oldest go first'),
});

export type Options = z.infer<typeof surgicalOptions>;

export interface OpenTask {
  id: string;
  /** Raw ids of the assistant and tool messages observed while the task was in progress. */
  members: Set<string>;
}

export interface State extends History {
  options: Options;
  sessionId: string;
  /** Tasks in progress, in the order they started; tool results are tagged with the newest. */
  open: OpenTask[];
  /** Raw tool-result id → the task in progress when it arrived. */
  tags: Map<string, string>;
  book: EvictionBook;
  /** The `active_context` scratchpad. */
  notes: string[];
}

const SCRATCHPAD_ID = 'surgical-eviction:active_context';

/**
 * Task-based eviction. While a task is in progress its tool results are tagged with it; when it
 * completes, its tool results become tombstones carrying the result summary and the archive key
 * of the raw log, and its assistant turns (thinking and text) become one tombstone that keeps the
 * thought flag, the calls and the last thought signature (eviction-book.ts explains the pairing).
 * The range of a task is every assistant and tool message observed between its `in_progress`
 * and its `completed` events. A scratchpad of NOTE: lines survives every eviction.
 */
export const surgicalEviction: Strategy<Options, State> = {
  name: 'surgical-eviction',
  description:
    'Task-based eviction: when a task completes, its tool results and assistant turns are replaced by tombstones carrying the validated result summary and the archive key of the raw log; failed tasks keep their logs; a NOTE: scratchpad survives.',
  options: surgicalOptions,
  init: (opts, context) => ({ ...createHistory(), options: opts, sessionId: context.sessionId, open: [], tags: new Map(), book: createBook(), notes: [] }),
  observe(event, state, env) {
    if (event.type === 'task') {
      observeTask(event, state, env);
      return;
    }
    applyToHistory(state, event);
    if (event.type !== 'message' || (event.role !== 'assistant' && event.role !== 'tool')) return;
    for (const task of state.open) task.members.add(event.id);
    const current = state.open[state.open.length - 1];
    if (event.role === 'tool' && current !== undefined) state.tags.set(event.id, current.id);
    if (event.role === 'assistant') state.notes = addNotes(state.notes, extractNotes(event.text), state.options.maxNotes);
  },
  prepare: (state) => sendable(state.messages, state),
  transform: (context, state) => sendable(context, state),
};

export function sendable(messages: readonly ContextMessage[], state: State): ContextMessage[] {
  return injectAfterSystem(applyEvictions(messages, state.book), [scratchpadMessage(SCRATCHPAD_ID, state.notes)]);
}

function observeTask(event: TaskEvent, state: State, env: StrategyEnv): void {
  const finished = closeTask(event, state, env);
  if (finished !== undefined) evictTask(event, finished, state, env);
}

/** A task finished and ready to evict (sigma holds them until its trigger fires). */
export interface FinishedTask {
  event: TaskEvent;
  task: OpenTask;
}

/**
 * Records a task event: opens the task, or closes it and returns its range to evict (a failed
 * task under `keepFailed` is closed with a note and keeps its log).
 */
export function closeTask(event: TaskEvent, state: State, env: StrategyEnv): OpenTask | undefined {
  const index = state.open.findIndex((t) => t.id === event.id);
  if (event.status === 'in_progress') {
    if (index === -1) state.open.push({ id: event.id, members: new Set() });
    return undefined;
  }
  if (index === -1) return undefined;
  const [task] = state.open.splice(index, 1) as [OpenTask];
  if (event.status === 'failed' && state.options.keepFailed) {
    const tokens = env.countMessages(applyEvictions(state.messages, state.book));
    env.emit({
      action: 'note',
      reason: `task ${event.id} failed: raw log kept`,
      mode: 'failed',
      tokensBefore: tokens,
      tokensAfter: tokens,
      detail: `task ${event.id}`,
    });
    return undefined;
  }
  return task;
}

/** Evicts a finished task's range, archives its raw messages and emits an `evict` action. */
export function evictTask(event: TaskEvent, task: OpenTask, state: State, env: StrategyEnv): void {
  const verdict = checkResultSummary(event.resultSummary, event.criteria, state.options.minSummaryChars);
  const key = `${state.sessionId}/${event.id}`;
  const plan = planEviction(state.messages, state.book, { id: event.id, members: task.members, tags: state.tags }, tombstoneWriter(event, verdict, key));
  if (plan === undefined) return;
  const before = env.countMessages(applyEvictions(state.messages, state.book));
  const after = env.countMessages(applyEvictions(state.messages, plan.book));
  if (after >= before) {
    // Tiny ranges: the tombstones would cost more than the raw messages, so they stay.
    env.emit({
      action: 'note',
      reason: `task ${event.id} ${event.status}: eviction skipped, tombstones would not be smaller`,
      mode: event.status,
      tokensBefore: before,
      tokensAfter: before,
      detail: `task ${event.id}`,
    });
    return;
  }
  env.archive.put(key, plan.archived);
  state.book = plan.book;
  env.emit({
    action: 'evict',
    reason: `task ${event.id} ${event.status}`,
    mode: event.status,
    tokensBefore: before,
    tokensAfter: after,
    detail: `task ${event.id}: ${plan.turns} turns and ${plan.results} tool results replaced by tombstones; raw log archived under ${key}; ${verdict.line}`,
  });
}

function tombstoneWriter(event: TaskEvent, verdict: SummaryVerdict, key: string): TombstoneWriter {
  const summary = event.resultSummary?.trim() || '(no result summary recorded)';
  const hint = retrievalHint(key);
  return {
    assistant(turns) {
      const thought = turns.some((t) => (t.thinking ?? '') !== '');
      const title = event.title !== undefined ? ` ${event.title}` : '';
      return {
        text: [
          `[Task ${event.id} ${event.status}: ${turns.length} turns evicted]${title}`,
          `Result summary: ${summary}`,
          verdict.line,
          `Raw log: ${hint}`,
        ].join('\n'),
        ...(thought ? { thinking: `Thinking of task ${event.id} evicted with its turns; the raw log is archived.` } : {}),
      };
    },
    tool: (result) => `[Tool result evicted: ${result.toolName ?? 'tool'} output of task ${event.id} (${event.status}): ${summary}] ${hint}`,
  };
}
