import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, type History } from './helpers/history.js';
import { applyClearing } from './helpers/tool-clearing.js';

const options = z.strictObject({
  keepLast: z
    .number()
    .int()
    .min(0)
    .default(10)
    .describe('how many of the newest tool results (observations) keep their text; the Complexity Trap study used 10'),
  keepTools: z.array(z.string()).default([]).describe('tools whose results are never masked'),
  maskTools: z.array(z.string()).default([]).describe('tools whose results are masked even among the newest'),
});

export type Options = z.infer<typeof options>;

export interface State extends History {
  options: Options;
  masked: number;
}

/** SWE-agent's wording, in substance: the agent learns that output existed and how long it was. */
export const maskPlaceholder = (lines: number): string => `Old environment output: (${lines} lines omitted)`;

export function maskObservations(
  messages: readonly ContextMessage[],
  opts: Options,
  env: StrategyEnv,
  last: number,
): { context: ContextMessage[]; cleared: number } {
  return applyClearing(
    messages,
    { keepLast: opts.keepLast, keepTools: opts.keepTools, clearTools: opts.maskTools, placeholder: maskPlaceholder },
    env,
    last,
    `observations older than the last ${opts.keepLast} masked`,
  );
}

/**
 * SWE-agent's observation masking: every step, tool results older than the last N are replaced by
 * a one-line placeholder; the agent's reasoning and actions, and the task statement (a user
 * message, never a tool result), are all kept. No model call.
 */
export const observationMasking: Strategy<Options, State> = {
  name: 'observation-masking',
  description:
    "SWE-agent's observation masking (the Complexity Trap study's N = 10): tool results older than the last N are replaced by a one-line placeholder with the number of lines omitted; reasoning, actions and the task statement are kept; tools can be tagged to always keep or always mask.",
  options,
  tunable: { keepLast: { min: 2, max: 20, step: 2 } },
  init: (opts) => ({ ...createHistory(), options: opts, masked: 0 }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  prepare(state, env) {
    const { context, cleared } = maskObservations(state.messages, state.options, env, state.masked);
    state.masked = cleared;
    return context;
  },
  transform(context, state, env) {
    const out = maskObservations(context, state.options, env, state.masked);
    state.masked = out.cleared;
    return out.context;
  },
};
