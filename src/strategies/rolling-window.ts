import { z } from 'zod';
import type { ContextMessage, Dialect, TranscriptEvent } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, groupStarts, leadingSystem, type History } from './helpers/history.js';
import { isolateToolCalls } from './helpers/isolation.js';
import { budgetTokens, fitBudget } from './helpers/round-budget.js';

const options = z.strictObject({
  groups: z.number().int().min(0).default(4).describe('how many of the most recent conversation groups to keep; 0 keeps the whole history'),
  maxShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe(
      'token budget of what the window keeps, as a share of the window left after the hidden prefix; over it the oldest tool-use rounds go (a call with its results); 0 = no budget',
    ),
});

export type Options = z.infer<typeof options>;

/** What a rolling window remembers between steps (state-anchor builds on it too). */
export interface WindowState {
  /** Groups to keep (0: all). */
  groups: number;
  /** How many groups were dropped at the last step (to emit an event only on change). */
  dropped: number;
  /** Share of the window (hidden prefix aside) the kept history may use; 0: no budget. */
  maxShare: number;
  /** What the budget left out at the last step (`fitBudget`'s key; to emit an event only on change). */
  budgetCut: string;
  /** The dialect of the last `switch-dialect` event; tool-call isolation applies from then on. */
  dialect?: Dialect;
  /** Ids isolated at the last step (to emit an event only on change). */
  isolated: string;
}

export interface State extends History, WindowState {
  options: Options;
}

export function createWindowState(groups: number, maxShare = 0): WindowState {
  return { groups, dropped: 0, maxShare, budgetCut: '', isolated: '' };
}

/** Applies an event to a windowed history: the history's own control events, plus `switch-dialect`. */
export function observeWindow(event: TranscriptEvent, state: History & WindowState): void {
  applyToHistory(state, event);
  if (event.type === 'control' && event.action === 'switch-dialect' && event.dialect !== undefined) state.dialect = event.dialect;
}

/**
 * Isolation, the window, then the budget: tool calls of another provider family are left out after
 * a dialect switch (isolation.ts), only the system prompt and the last N groups are kept, and of
 * those the oldest rounds go while they exceed the budget. Emits `isolate` and `drop` when what
 * they leave out changes.
 */
export function applyRollingWindow(messages: readonly ContextMessage[], state: WindowState, env: StrategyEnv): ContextMessage[] {
  return applyBudget(applyWindow(applyIsolation(messages, state, env), state, env), state, env);
}

/**
 * Sessions of few user turns (Claude Code: one turn, a hundred tool rounds) fit any group count,
 * so groups alone would never cut them; the budget, a share of the window, cuts them the same way
 * in a 56k and a 1M window.
 */
function applyBudget(messages: ContextMessage[], state: WindowState, env: StrategyEnv): ContextMessage[] {
  if (state.maxShare === 0) return messages;
  const limit = budgetTokens(state.maxShare, env);
  const system = leadingSystem(messages);
  const cut = fitBudget(system, messages.slice(system.length), limit, env);
  if (cut.key !== state.budgetCut && cut.dropped > 0) {
    env.emit({
      action: 'drop',
      reason: `token budget ${state.maxShare} × (window − hidden prefix) = ${limit} tokens`,
      tokensBefore: env.countMessages(messages),
      tokensAfter: env.countMessages(cut.context),
      detail: `dropped the ${cut.dropped} oldest messages in whole tool-use rounds`,
    });
  }
  state.budgetCut = cut.key;
  return cut.context;
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
 * so a tool call and its result are never separated by the cut. Of what the groups keep, the oldest
 * tool-use rounds go while it exceeds `maxShare` of the window (hidden prefix aside). After a `switch-dialect` event,
 * tool calls and results recorded in another provider family are left out (text is kept).
 */
export const rollingWindow: Strategy<Options, State> = {
  name: 'rolling-window',
  description:
    'Keeps the system prompt and the last N conversation groups (a group starts at each user message); N = 0 keeps everything. Over maxShare (default 0.5) of the window left after the hidden prefix, the oldest tool-use rounds go, a call with its results. After a switch-dialect event, tool calls and results of another provider format are left out.',
  options,
  tunable: { groups: { min: 1, max: 10, step: 1 } },
  init: (opts) => ({ ...createHistory(), ...createWindowState(opts.groups, opts.maxShare), options: opts }),
  observe(event, state) {
    observeWindow(event, state);
  },
  prepare: (state, env) => applyRollingWindow(state.messages, state, env),
  transform: (context, state, env) => applyRollingWindow(context, state, env),
};
