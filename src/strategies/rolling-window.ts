import { z } from 'zod';
import type { ContextMessage, Dialect, TranscriptEvent } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, groupStarts, leadingSystem, type History } from './helpers/history.js';
import { isolateToolCalls } from './helpers/isolation.js';

const options = z.strictObject({
  groups: z.number().int().min(0).default(4).describe('how many of the most recent conversation groups to keep; 0 keeps the whole history'),
});

export type Options = z.infer<typeof options>;

/** What a rolling window remembers between steps (state-anchor builds on it too). */
export interface WindowState {
  /** Groups to keep (0: all). */
  groups: number;
  /** How many groups were dropped at the last step (to emit an event only on change). */
  dropped: number;
  /** The dialect of the last `switch-dialect` event; tool-call isolation applies from then on. */
  dialect?: Dialect;
  /** Ids isolated at the last step (to emit an event only on change). */
  isolated: string;
}

export interface State extends History, WindowState {
  options: Options;
}

export function createWindowState(groups: number): WindowState {
  return { groups, dropped: 0, isolated: '' };
}

/** Applies an event to a windowed history: the history's own control events, plus `switch-dialect`. */
export function observeWindow(event: TranscriptEvent, state: History & WindowState): void {
  applyToHistory(state, event);
  if (event.type === 'control' && event.action === 'switch-dialect' && event.dialect !== undefined) state.dialect = event.dialect;
}

/**
 * Isolation, then the window: tool calls of another provider family are left out after a dialect
 * switch (isolation.ts), then only the system prompt and the last N groups are kept. Emits
 * `isolate` and `drop` when what they leave out changes.
 */
export function applyRollingWindow(messages: readonly ContextMessage[], state: WindowState, env: StrategyEnv): ContextMessage[] {
  return applyWindow(applyIsolation(messages, state, env), state, env);
}

function applyIsolation(messages: readonly ContextMessage[], state: WindowState, env: StrategyEnv): ContextMessage[] {
  if (state.dialect === undefined) return [...messages];
  const { context, affected } = isolateToolCalls(messages, state.dialect);
  const key = affected.join(' ');
  if (key !== state.isolated && affected.length > 0) {
    env.emit({
      action: 'isolate',
      reason: `tool calls of another provider format after the switch to ${state.dialect}`,
      tokensBefore: env.countMessages(messages),
      tokensAfter: env.countMessages(context),
      detail: `${affected.length} tool messages left out or stripped of their calls`,
    });
  }
  state.isolated = key;
  return context;
}

function applyWindow(messages: readonly ContextMessage[], state: WindowState, env: StrategyEnv): ContextMessage[] {
  const starts = groupStarts(messages);
  const n = state.groups;
  if (n === 0 || starts.length <= n) {
    state.dropped = 0;
    return [...messages];
  }
  const cut = starts[starts.length - n] as number;
  const context = [...leadingSystem(messages), ...messages.slice(cut)];
  const dropped = starts.length - n;
  if (dropped !== state.dropped) {
    env.emit({
      action: 'drop',
      reason: `window of ${n} groups`,
      tokensBefore: env.countMessages(messages),
      tokensAfter: env.countMessages(context),
      detail: `dropped ${dropped} oldest groups`,
    });
  }
  state.dropped = dropped;
  return context;
}

/**
 * Keeps the system prompt and the last N conversation groups. A group starts at a user message,
 * so a tool call and its result are never separated by the cut. After a `switch-dialect` event,
 * tool calls and results recorded in another provider family are left out (text is kept).
 */
export const rollingWindow: Strategy<Options, State> = {
  name: 'rolling-window',
  description:
    'Keeps the system prompt and the last N conversation groups (a group starts at each user message); N = 0 keeps everything. After a switch-dialect event, tool calls and results of another provider format are left out.',
  options,
  init: (opts) => ({ ...createHistory(), ...createWindowState(opts.groups), options: opts }),
  observe(event, state) {
    observeWindow(event, state);
  },
  prepare: (state, env) => applyRollingWindow(state.messages, state, env),
  transform: (context, state, env) => applyRollingWindow(context, state, env),
};
