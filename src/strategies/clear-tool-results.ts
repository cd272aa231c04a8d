import { z } from 'zod';
import type { Strategy } from './types.js';
import { applyToHistory, createHistory, type History } from './helpers/history.js';
import { applyClearing } from './helpers/tool-clearing.js';

const options = z.strictObject({
  trigger: z.number().min(0).max(1).default(0.5).describe('start clearing once the history reaches this fraction of the window (0: always)'),
  keepLast: z.number().int().min(0).default(5).describe('how many of the newest tool results keep their text'),
});

export type Options = z.infer<typeof options>;

export interface State extends History {
  options: Options;
  cleared: number;
}

export const clearedPlaceholder = (lines: number): string => `[Old tool result content cleared (${lines} lines)]`;

/**
 * Claude Code's cheap pass before a full compaction: old tool results are replaced by a placeholder,
 * with no model call, so the conversation and every decision stay and only bulky outputs go.
 */
export const clearToolResults: Strategy<Options, State> = {
  name: 'clear-tool-results',
  description:
    "Claude Code's tool-result clearing (no model call): once the history reaches a fraction of the window (0.5), tool results older than the last 5 are replaced by a placeholder; the conversation itself is kept.",
  options,
  init: (opts) => ({ ...createHistory(), options: opts, cleared: 0 }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  prepare(state, env) {
    const { trigger, keepLast } = state.options;
    if (env.countMessages(state.messages) < trigger * env.window) {
      state.cleared = 0;
      return [...state.messages];
    }
    const { context, cleared } = applyClearing(
      state.messages,
      { keepLast, placeholder: clearedPlaceholder },
      env,
      state.cleared,
      `tool results older than the last ${keepLast} cleared`,
    );
    state.cleared = cleared;
    return context;
  },
  thresholds: (opts, window) => (opts.trigger > 0 ? [{ label: 'clear tool results', tokens: Math.floor(opts.trigger * window) }] : []),
};
