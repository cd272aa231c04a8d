import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory } from './helpers/history.js';
import { absorbTurns, createTurnSummary, turnCount, view, type TurnSummaryState } from './turn-summary.js';

const options = z.strictObject({
  summarizeTurns: z.number().int().min(1).default(21).describe('N: how many of the oldest unsummarized turns are summarized at once'),
  keepTurns: z.number().int().min(0).default(10).describe('M: how many of the newest turns always stay verbatim'),
  summaryTokens: z.number().int().positive().default(2048).describe('output budget of each summary (at most half of what it replaces)'),
});

export type Options = z.infer<typeof options>;

export interface State extends TurnSummaryState {
  options: Options;
}

/** The summary prompt: a running record the agent continues from, rewritten with each new span. */
const EVERY_N_PROMPT = [
  'You maintain the running summary of a software agent working on a task.',
  'Rewrite the previous summary to include the new conversation span. Keep: the task and its',
  'constraints; what was tried and what it showed (exact file paths, commands, errors, numbers);',
  'what changed in which files; what remains to do. Drop what is no longer relevant. Be concise.',
].join('\n');

/** Summarizes every N turns once N + M exist; returns the context. Hybrid reuses it. */
export async function summarizeEveryN(state: TurnSummaryState, opts: Options, env: StrategyEnv, tag: string): Promise<ContextMessage[]> {
  const turns = turnCount(state.messages);
  // One summary per N turns: at most one call a step, as the agent would make it.
  if (turns - state.absorbed >= opts.summarizeTurns + opts.keepTurns) {
    env.emit({
      action: 'trigger',
      reason: `${turns - state.absorbed} unsummarized turns reached N + M = ${opts.summarizeTurns + opts.keepTurns}`,
      tokensBefore: env.countMessages(view(state, tag)),
      tokensAfter: env.countMessages(view(state, tag)),
    });
    await absorbTurns(state, state.absorbed + opts.summarizeTurns, { instruction: EVERY_N_PROMPT, summaryTokens: opts.summaryTokens, tag }, env);
  }
  return view(state, tag);
}

/**
 * The Complexity Trap study's LLM-summary baseline (after OpenHands): once N + M turns are not yet
 * summarized, the oldest N are merged into one rolling summary, conditioned on the previous one;
 * the last M turns, the system prompt and the task statement are always sent verbatim.
 */
export const llmSummaryEveryN: Strategy<Options, State> = {
  name: 'llm-summary-every-n',
  description:
    "The Complexity Trap study's LLM-summary baseline (after OpenHands): once N + M (21 + 10) turns are unsummarized, the oldest N are merged into one rolling summary conditioned on the previous one; the last M turns, the system prompt and the task statement stay verbatim.",
  options,
  tunable: { summarizeTurns: { min: 5, max: 30, step: 5 }, keepTurns: { min: 2, max: 20, step: 2 } },
  init: (opts) => ({ ...createTurnSummary(), options: opts }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  prepare: (state, env) => summarizeEveryN(state, state.options, env, 'every-n summary'),
};
