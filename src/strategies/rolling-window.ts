import { z } from 'zod';
import type { Strategy } from './types.js';
import { applyToHistory, createHistory, groupStarts, leadingSystem, type History } from './history.js';

const options = z.strictObject({
  groups: z.number().int().min(0).default(4).describe('how many of the most recent conversation groups to keep; 0 keeps the whole history'),
});

export type Options = z.infer<typeof options>;

export interface State extends History {
  options: Options;
  /** How many groups were dropped at the last prepare (to emit an event only on change). */
  dropped: number;
}

/**
 * Keeps the system prompt and the last N conversation groups. A group starts at a user message,
 * so a tool call and its result are never separated by the cut.
 */
export const rollingWindow: Strategy<Options, State> = {
  name: 'rolling-window',
  description: 'Keeps the system prompt and the last N conversation groups (a group starts at each user message); N = 0 keeps everything.',
  options,
  init: (opts) => ({ ...createHistory(), options: opts, dropped: 0 }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  prepare(state, env) {
    const { messages } = state;
    const starts = groupStarts(messages);
    const n = state.options.groups;
    if (n === 0 || starts.length <= n) return [...messages];
    const cut = starts[starts.length - n] as number;
    const system = leadingSystem(messages);
    const context = [...system, ...messages.slice(cut)];
    const dropped = starts.length - n;
    if (dropped !== state.dropped) {
      env.emit({
        action: 'drop',
        reason: `window of ${n} groups`,
        tokensBefore: env.countMessages(messages),
        tokensAfter: env.countMessages(context),
        detail: `dropped ${dropped} oldest groups`,
      });
      state.dropped = dropped;
    }
    return context;
  },
};
