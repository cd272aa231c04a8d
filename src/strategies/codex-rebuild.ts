import { z } from 'zod';
import type { ContextMessage, MessageEvent } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, type History } from './helpers/history.js';
import { requestSummary } from './helpers/summary-call.js';
import { truncateHeadTail, truncateMiddleToTokens } from './helpers/text-cuts.js';
import { retrievalHint } from './helpers/hints.js';

const options = z.strictObject({
  trigger: z.number().gt(0).max(1).default(0.9).describe('compact when the context reaches this fraction of the window'),
  triggerTokens: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('also compact when the context reaches this many tokens (whichever limit comes first); 0 = only the fraction'),
  recentUserTokens: z
    .number()
    .int()
    .positive()
    .default(20_000)
    .describe('budget of the recent user messages kept verbatim after a rebuild, newest first; the first that does not fit is truncated to the remainder'),
  summaryTokens: z
    .number()
    .int()
    .positive()
    .default(4096)
    .describe('output budget of the handoff summary, in tokens (at most a quarter of the window, so that the rebuilt history leaves room to work)'),
  toolOutputBytes: z
    .number()
    .int()
    .min(0)
    .default(10_240)
    .describe(
      "tool output above this many bytes enters the history as its head and tail around a marker line (Codex's ingestion truncation); 0 = no byte limit",
    ),
  toolOutputLines: z
    .number()
    .int()
    .min(0)
    .default(256)
    .describe('tool output above this many lines is cut the same way (head and tail, half each); 0 = no line limit'),
});

export type Options = z.infer<typeof options>;

export interface State extends History {
  options: Options;
  /** The initial context (everything before the first assistant turn), captured at the first rebuild. */
  initial: ContextMessage[] | undefined;
  rebuilds: number;
  /** A `compact` control event (the user's `/compact`) arrived: rebuild at the next step. */
  compactRequested: boolean;
}

/** The handoff prompt: what the next model needs to carry on without the history. */
export const HANDOFF_PROMPT = [
  'You are handing this task over to another model that will not see the conversation above.',
  'Write a handoff summary it can continue from, with these sections:',
  '1. Goal: what the user asked for, in their terms.',
  '2. Progress and decisions: what has been done, what was decided and why.',
  '3. Constraints: requirements, preferences and things that must not be done.',
  '4. Next steps: what remains, in order, and what is still failing.',
  '5. Critical data: exact file paths, commands, identifiers, numbers and error messages needed to continue.',
  'Be concise; keep exact values verbatim.',
].join('\n');

/** The fixed prefix of the rebuilt summary message: the next model must know it did not write it. */
export const SUMMARY_PREFIX =
  'Another language model worked on this task before you and produced the handoff summary below. ' +
  'Build on the work it describes instead of redoing it; the tools it used are still available to you.';

const SUMMARY_TAG = 'codex-rebuild summary';

/**
 * Codex-style compaction: at the trigger, a handoff summary is requested and the history is
 * rebuilt as initial context + recent user messages (a token budget, newest first) + the summary.
 */
export const codexRebuild: Strategy<Options, State> = {
  name: 'codex-rebuild',
  description:
    'Cuts tool output to its head and tail within 10 KiB / 256 lines as it enters the history (Codex), and at 90% of the window (or an absolute limit, or a manual /compact) asks the model for a handoff summary and rebuilds the history as the initial context, the most recent user messages within 20,000 tokens, and the summary.',
  options,
  tunable: { trigger: { min: 0.5, max: 0.95, step: 0.05 } },
  init: (opts) => ({ ...createHistory(), options: opts, initial: undefined, rebuilds: 0, compactRequested: false }),
  observe(event, state, env) {
    if (event.type === 'message' && event.role === 'tool') {
      state.messages.push(ingestToolOutput(event, state.options, env));
      return;
    }
    applyToHistory(state, event);
    if (event.type === 'control' && event.action === 'compact') state.compactRequested = true;
  },
  async prepare(state, env) {
    const tokens = env.countMessages(state.messages);
    const manual = state.compactRequested;
    state.compactRequested = false;
    const { limit, mode: byTrigger } = triggerOf(state.options, env.window);
    if (tokens < limit && !manual) return [...state.messages];
    const mode = manual ? 'manual' : byTrigger;
    const reason = manual ? 'manual /compact' : `context of ${tokens} tokens reached the trigger of ${limit}`;
    env.emit({ action: 'trigger', reason, mode, tokensBefore: tokens, tokensAfter: tokens });
    await rebuild(state, env, tokens, mode);
    return [...state.messages];
  },
  thresholds: (opts, window) => [{ label: 'codex trigger', tokens: triggerOf(opts, window).limit }],
};

/**
 * Codex truncates a tool's output before it enters the history (head and tail within 10 KiB and
 * 256 lines); the model never sees the rest, so neither does this history. The whole output stays
 * in the engine's archive under the message id.
 */
function ingestToolOutput(message: MessageEvent, opts: Options, env: StrategyEnv): ContextMessage {
  const text = truncateHeadTail(message.text, opts.toolOutputBytes, opts.toolOutputLines);
  if (text === message.text) return message;
  const cut: ContextMessage = { ...message, text, replaces: [message.id] };
  env.emit({
    action: 'truncate',
    reason: `tool output over ${opts.toolOutputBytes} bytes or ${opts.toolOutputLines} lines`,
    mode: 'ingestion',
    tokensBefore: env.count(message.text),
    tokensAfter: env.count(text),
    detail: message.id,
  });
  return cut;
}

/** The effective trigger: the fraction of the window, or the absolute limit when that is lower. */
function triggerOf(opts: Options, window: number): { limit: number; mode: 'fraction' | 'tokens' } {
  const byFraction = Math.floor(opts.trigger * window);
  if (opts.triggerTokens > 0 && opts.triggerTokens < byFraction) return { limit: opts.triggerTokens, mode: 'tokens' };
  return { limit: byFraction, mode: 'fraction' };
}

async function rebuild(state: State, env: StrategyEnv, before: number, mode: string): Promise<void> {
  const summary = await requestSummary(env, {
    instruction: HANDOFF_PROMPT,
    messages: [...state.messages],
    maxOutputTokens: Math.min(state.options.summaryTokens, Math.floor(env.window / 4)),
    purpose: 'summary',
    reason: 'handoff summary',
    mode,
    shrinkOnOverflow: true,
  });
  // Without a summary there is nothing to rebuild from; the history stays as it is this step.
  if (!summary.ok) return;
  const initial = state.initial ?? initialContext(state.messages);
  const taken = new Set(initial.map((m) => m.id));
  const users = selectUserMessages(
    state.messages.filter((m) => !taken.has(m.id)),
    state.options.recentUserTokens,
    env,
  );
  const rebuilt = [...initial, ...users, summaryMessage(summary.text, state.rebuilds + 1)];
  const after = env.countMessages(rebuilt);
  if (after >= before) {
    env.emit({
      action: 'note',
      reason: 'rebuilt history is not smaller; kept the history',
      mode,
      tokensBefore: before,
      tokensAfter: before,
      detail: `rebuilt: ${after} tokens`,
    });
    return;
  }
  state.initial = initial;
  state.messages = rebuilt;
  state.rebuilds += 1;
  env.emit({
    action: 'compact',
    reason: 'history rebuilt from the handoff summary',
    mode,
    tokensBefore: before,
    tokensAfter: after,
    detail: `kept ${initial.length} initial and ${users.length} user messages`,
  });
}

/** The initial context: the system prompt and the first instructions, everything before the first assistant turn. */
function initialContext(messages: readonly ContextMessage[]): ContextMessage[] {
  const first = messages.findIndex((m) => m.role === 'assistant');
  return messages.slice(0, first < 0 ? messages.length : first);
}

/**
 * The most recent real user messages within `budget` tokens, newest first; the first that does not
 * fit is truncated to the remainder (with a hint to its archived whole). Returned in chronological
 * order. Summaries are synthetic, so they are never selected.
 */
function selectUserMessages(messages: readonly ContextMessage[], budget: number, env: Pick<StrategyEnv, 'count'>): ContextMessage[] {
  const selected: ContextMessage[] = [];
  let remaining = budget;
  for (let i = messages.length - 1; i >= 0 && remaining > 0; i--) {
    const m = messages[i] as ContextMessage;
    if (m.role !== 'user' || m.synthetic !== undefined) continue;
    const tokens = env.count(m.text);
    if (tokens <= remaining) {
      selected.push(m);
      remaining -= tokens;
      continue;
    }
    selected.push(truncateUserMessage(m, remaining, env));
    break;
  }
  return selected.reverse();
}

function truncateUserMessage(m: ContextMessage, budget: number, env: Pick<StrategyEnv, 'count'>): ContextMessage {
  const hint = `\n${retrievalHint(m.id)}`;
  // Tokens of a concatenation are not always the sum of its parts: shrink until the whole fits.
  for (let room = budget - env.count(hint); room > 0; room--) {
    const text = truncateMiddleToTokens(m.text, room, env.count) + hint;
    if (env.count(text) <= budget) return { ...m, text, replaces: [m.id] };
  }
  return { ...m, text: truncateMiddleToTokens(m.text, budget, env.count), replaces: [m.id] };
}

function summaryMessage(summary: string, n: number): ContextMessage {
  return { type: 'message', id: `codex-summary-${n}`, role: 'user', text: `${SUMMARY_PREFIX}\n\n${summary}`, synthetic: SUMMARY_TAG };
}
