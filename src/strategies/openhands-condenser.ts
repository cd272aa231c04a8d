import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, type History } from './helpers/history.js';
import { alignCut, newestUserIndex, renderAsText } from './helpers/message-units.js';
import { requestSummary } from './helpers/summary-call.js';

const options = z.strictObject({
  variant: z
    .enum(['recent', 'amortized', 'llm-summarizing'])
    .default('llm-summarizing')
    .describe('which OpenHands condenser: keep first k + last n events, forget the middle when over the size, or summarize it'),
  keepFirst: z.number().int().min(0).optional().describe('events always kept at the start (default per variant: recent 1, amortized 1, llm-summarizing 4)'),
  maxSize: z.number().int().min(2).optional().describe('events allowed before condensing (default per variant: recent 10, amortized 100, llm-summarizing 120)'),
  summaryTokens: z.number().int().positive().default(2048).describe('llm-summarizing: output budget of the summary (at most half of what it replaces)'),
});

export type Options = z.infer<typeof options>;

/** OpenHands' defaults per condenser (its condenser configs; 4 / 120 is its default agent's summarizer). */
const VARIANT_DEFAULTS = {
  recent: { keepFirst: 1, maxSize: 10 },
  amortized: { keepFirst: 1, maxSize: 100 },
  'llm-summarizing': { keepFirst: 4, maxSize: 120 },
} as const;

export interface State extends History {
  options: Options;
  /** Messages before this index (after the head) are forgotten or summarized. */
  cut: number;
  summary: string | undefined;
  condensations: number;
}

const CONDENSER_PROMPT = [
  'You are maintaining the state of an agent solving a task. Merge the previous summary with the',
  "events below into a new summary that tracks: the user's goals and constraints, progress (done and",
  'left), code state (files, functions, exact values), tests and their results, changes made, and',
  'deviations or errors. Keep exact identifiers; be concise.',
].join('\n');

const settings = (o: Options): { keepFirst: number; maxSize: number } => ({
  keepFirst: o.keepFirst ?? VARIANT_DEFAULTS[o.variant].keepFirst,
  maxSize: o.maxSize ?? VARIANT_DEFAULTS[o.variant].maxSize,
});

/** The first k messages, extended over the tool results of a call among them. */
function headLength(messages: readonly ContextMessage[], k: number): number {
  let n = Math.min(k, messages.length);
  while (n < messages.length && messages[n]?.role === 'tool') n++;
  return n;
}

/**
 * OpenHands' condensers over the event list: `recent` keeps the first k and the last n events every
 * step; `amortized` waits until the view is over its maximum size, then forgets down to the head
 * and the newest half; `llm-summarizing` does the same but replaces the forgotten events by a
 * summary that also rewrites the previous one.
 */
export const openhandsCondenser: Strategy<Options, State> = {
  name: 'openhands-condenser',
  description:
    "OpenHands' condensers (variant): recent keeps the first 1 and last 10 events; amortized, over 100 events, keeps the head and the newest half; llm-summarizing (default), over 120 events, keeps the first 4, summarizes the middle (with the previous summary) and keeps the newest half.",
  options,
  init: (opts) => ({ ...createHistory(), options: opts, cut: 0, summary: undefined, condensations: 0 }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  async prepare(state, env) {
    const { keepFirst, maxSize } = settings(state.options);
    const head = headLength(state.messages, keepFirst);
    state.cut = Math.max(state.cut, head);
    if (state.options.variant === 'recent') forgetRecent(state, env, head, maxSize);
    else if (view(state, head).length > maxSize) await condense(state, env, head, maxSize);
    return view(state, head);
  },
};

/** recent: every step, only the head and the newest maxSize − head events. */
function forgetRecent(state: State, env: StrategyEnv, head: number, maxSize: number): void {
  const cut = Math.max(head, alignCut(state.messages, state.messages.length - Math.max(1, maxSize - head)));
  if (cut === state.cut) return;
  const before = view(state, head);
  state.cut = cut;
  const after = view(state, head);
  env.emit({
    action: 'drop',
    reason: `kept the first ${head} and the last ${maxSize - head} events`,
    mode: 'recent',
    tokensBefore: env.countMessages(before),
    tokensAfter: env.countMessages(after),
    detail: `${cut - head} events forgotten`,
  });
}

async function condense(state: State, env: StrategyEnv, head: number, maxSize: number): Promise<void> {
  const before = view(state, head);
  const summarizing = state.options.variant === 'llm-summarizing';
  // The condensed view holds maxSize / 2 events: the head, the summary (if any) and the newest.
  const tail = Math.max(1, Math.floor(maxSize / 2) - head - (summarizing ? 1 : 0));
  const cut = Math.max(state.cut, alignCut(state.messages, state.messages.length - tail));
  if (cut <= state.cut) return;
  const tokensBefore = env.countMessages(before);
  if (summarizing) {
    const span = state.messages.slice(state.cut, cut);
    const previous = state.summary === undefined ? 'No previous summary.' : `Previous summary:\n${state.summary}`;
    const spanTokens = env.countMessages(span) + (state.summary === undefined ? 0 : env.count(state.summary));
    const outcome = await requestSummary(env, {
      instruction: CONDENSER_PROMPT,
      messages: [
        { type: 'message', id: 'openhands-condense-request', role: 'user', text: `${previous}\n\nEvents to summarize:\n${span.map(renderAsText).join('\n')}` },
      ],
      maxOutputTokens: Math.max(1, Math.min(state.options.summaryTokens, Math.floor(spanTokens / 2))),
      purpose: 'summary',
      reason: 'openhands condensation summary',
      mode: state.options.variant,
    });
    if (!outcome.ok) return;
    state.summary = outcome.text;
  }
  state.cut = cut;
  state.condensations += 1;
  const after = view(state, head);
  env.emit({
    action: summarizing ? 'compact' : 'drop',
    reason: `view of ${before.length} events over ${maxSize}`,
    mode: state.options.variant,
    tokensBefore,
    tokensAfter: env.countMessages(after),
    detail: `${after.length} events kept`,
  });
}

function view(state: State, head: number): ContextMessage[] {
  const { messages } = state;
  const summary: ContextMessage[] =
    state.summary === undefined
      ? []
      : [
          {
            type: 'message',
            id: `openhands-summary-${state.condensations}`,
            role: 'user',
            text: `Summary of the forgotten events:\n${state.summary}`,
            synthetic: 'openhands-condenser summary',
          },
        ];
  const user = newestUserIndex(messages);
  const pinned = user >= head && user < state.cut ? [messages[user] as ContextMessage] : [];
  return [...messages.slice(0, head), ...summary, ...pinned, ...messages.slice(state.cut)];
}
