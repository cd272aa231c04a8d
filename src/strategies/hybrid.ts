import { z } from 'zod';
import type { Strategy } from './types.js';
import { applyToHistory } from './helpers/history.js';
import { createTurnSummary, type TurnSummaryState } from './turn-summary.js';
import { summarizeEveryN } from './llm-summary-every-n.js';
import { maskObservations } from './observation-masking.js';

const options = z.strictObject({
  keepObservations: z.number().int().min(0).default(10).describe('observation masking: how many of the newest tool results keep their text'),
  summarizeTurns: z.number().int().min(1).default(43).describe('N: how many of the oldest unsummarized turns are summarized at once'),
  keepTurns: z.number().int().min(0).default(10).describe('M: how many of the newest turns stay out of the summary'),
  summaryTokens: z.number().int().positive().default(2048).describe('output budget of each summary (at most half of what it replaces)'),
});

export type Options = z.infer<typeof options>;

export interface State extends TurnSummaryState {
  options: Options;
  masked: number;
}

/**
 * The Complexity Trap study's hybrid: observation masking at every step, and an LLM summary of
 * the oldest N = 43 turns once N + M are unsummarized (rarely, so the summary calls stay few).
 * The summary sees the observations unmasked; the context sent is masked.
 */
export const hybrid: Strategy<Options, State> = {
  name: 'hybrid',
  description:
    "The Complexity Trap study's hybrid: observation masking (last 10 tool results kept) at every step, plus a rolling LLM summary of the oldest 43 turns once 43 + 10 are unsummarized.",
  options,
  init: (opts) => ({ ...createTurnSummary(), options: opts, masked: 0 }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  async prepare(state, env) {
    const { summarizeTurns, keepTurns, summaryTokens, keepObservations } = state.options;
    const context = await summarizeEveryN(state, { summarizeTurns, keepTurns, summaryTokens }, env, 'hybrid summary');
    const out = maskObservations(context, { keepLast: keepObservations, keepTools: [], maskTools: [] }, env, state.masked);
    state.masked = out.cleared;
    return out.context;
  },
};
