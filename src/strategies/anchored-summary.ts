import { z } from 'zod';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory } from './helpers/history.js';
import { absorbTurns, createTurnSummary, headEnd, turnIndex, turnStarts, view, type TurnSummaryState } from './turn-summary.js';

const options = z.strictObject({
  trigger: z.number().gt(0).max(1).default(0.7).describe('compress when the context reaches this fraction of the window'),
  retain: z.number().gt(0).lt(1).default(0.3).describe('after compressing, the newest turns within this fraction of the window stay verbatim'),
  summaryTokens: z.number().int().positive().default(2048).describe('output budget of the merged summary (at most half of what it replaces)'),
});

export type Options = z.infer<typeof options>;

export interface State extends TurnSummaryState {
  options: Options;
}

const TAG = 'anchored summary';

/** The anchored sections: the summary is rewritten section by section, never regenerated from scratch. */
const ANCHORED_PROMPT = [
  'You keep a persistent, structured summary of an agent session with exactly these sections:',
  '## Session intent — what the user wants and the constraints.',
  '## Files and changes — every file read or changed, with what changed (exact paths).',
  '## Decisions — what was decided and why.',
  '## Errors — errors met, exact messages, and how each was resolved.',
  '## Next steps — what remains, in order.',
  'Merge the new span into the previous summary: keep every section, add what the span adds,',
  'update what it changes, and drop nothing that still holds. Keep exact values verbatim.',
].join('\n');

/** How many turns to absorb so that the turns left fit within `budget` tokens (at least one more than now). */
function absorbUpTo(state: State, env: StrategyEnv, budget: number): number {
  const { messages } = state;
  const starts = turnStarts(messages, headEnd(messages));
  let k = starts.length;
  // Walk back from the newest turn while the retained tail fits the budget.
  while (k > state.absorbed && env.countMessages(messages.slice(turnIndex(starts, k - 1, messages.length))) <= budget) k--;
  // Keep the newest turn even if it alone is over the budget.
  return Math.min(Math.max(k, state.absorbed + 1), starts.length - 1);
}

/**
 * Factory's anchored iterative summarization: when the context nears the window, only the span
 * that leaves the context is summarized and merged into a persistent, sectioned summary (intent,
 * files and changes, decisions, errors, next steps); the newest turns stay verbatim.
 */
export const anchoredSummary: Strategy<Options, State> = {
  name: 'anchored-summary',
  description:
    "Factory's anchored iterative summary: at 0.7 of the window only the span that leaves the context is summarized and merged into persistent sections (intent, files and changes, decisions, errors, next steps); the newest turns within 0.3 of the window stay verbatim.",
  options,
  init: (opts) => ({ ...createTurnSummary(), options: opts }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  async prepare(state, env) {
    const current = view(state, TAG);
    const tokens = env.countMessages(current);
    if (tokens < state.options.trigger * env.window) return current;
    const upTo = absorbUpTo(state, env, Math.floor(state.options.retain * env.window));
    if (upTo <= state.absorbed) return current;
    env.emit({
      action: 'trigger',
      reason: `context of ${tokens} tokens reached ${state.options.trigger} of the window`,
      tokensBefore: tokens,
      tokensAfter: tokens,
    });
    await absorbTurns(state, upTo, { instruction: ANCHORED_PROMPT, summaryTokens: state.options.summaryTokens, tag: TAG }, env);
    return view(state, TAG);
  },
  thresholds: (opts, window) => [{ label: 'anchored summary', tokens: Math.floor(opts.trigger * window) }],
};
