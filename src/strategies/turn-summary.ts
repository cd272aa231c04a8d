import { runWeakMap, createPositionsMemo } from '../memo.js';
import type { ContextMessage } from '../transcript/types.js';
import type { StrategyEnv } from './types.js';
import { requestSummary } from './helpers/summary-call.js';
import { renderAsText } from './helpers/message-units.js';

/**
 * A rolling summary over turns, shared by llm-summary-every-n, hybrid and anchored-summary: the
 * head (everything before the first assistant message: system prompt and task statement) is
 * always sent, the turns after it are absorbed oldest first into one summary that each call
 * rewrites from the previous one plus the newly absorbed span, and the rest is sent verbatim.
 */

/** A turn: a message that is not a tool result, with the tool results that follow it. */
export function turnStarts(messages: readonly ContextMessage[], from: number): number[] {
  const starts = nonToolPositions(messages);
  let first = 0;
  while (first < starts.length && (starts[first] as number) < from) first += 1;
  return first === 0 ? starts : starts.slice(first);
}

/** Where the messages that are not tool results stand; the history grows by a message a step. */
const nonToolPositions = createPositionsMemo((m: ContextMessage) => m.role !== 'tool');

/** Index of the first assistant message (the head ends there), or the length. */
export function headEnd(messages: readonly ContextMessage[]): number {
  const i = messages.findIndex((m) => m.role === 'assistant');
  return i < 0 ? messages.length : i;
}

export interface TurnSummaryState {
  messages: ContextMessage[];
  summary: string | undefined;
  /** How many turns after the head the summary covers. */
  absorbed: number;
  summaries: number;
}

export const createTurnSummary = (): TurnSummaryState => ({ messages: [], summary: undefined, absorbed: 0, summaries: 0 });

export interface SummaryPlan {
  instruction: string;
  summaryTokens: number;
  /** A short name for the events and the summary message. */
  tag: string;
}

/** Message index where turn `k` starts (the length when there is none). */
export const turnIndex = (starts: readonly number[], k: number, length: number): number => starts[k] ?? length;

/**
 * Merges turns [absorbed, upTo) into the summary. The request carries the previous summary and the
 * span as plain text (no tool parts to pair). A failed call leaves the state as it was.
 */
export async function absorbTurns(state: TurnSummaryState, upTo: number, plan: SummaryPlan, env: StrategyEnv): Promise<boolean> {
  const head = headEnd(state.messages);
  const starts = turnStarts(state.messages, head);
  const span = state.messages.slice(turnIndex(starts, state.absorbed, state.messages.length), turnIndex(starts, upTo, state.messages.length));
  if (span.length === 0) return false;
  const before = env.countMessages(view(state));
  const previous = state.summary === undefined ? 'There is no previous summary yet.' : `Previous summary:\n${state.summary}`;
  const text = `${previous}\n\nNew conversation span to merge:\n${span.map(renderAsText).join('\n')}`;
  // Never ask for more than half of what is replaced, so the summary cannot grow the context.
  const spanTokens = env.countMessages(span) + (state.summary === undefined ? 0 : env.count(state.summary));
  const budget = Math.max(1, Math.min(plan.summaryTokens, Math.floor(spanTokens / 2)));
  const outcome = await requestSummary(env, {
    instruction: plan.instruction,
    messages: [{ type: 'message', id: `${plan.tag}-request`, role: 'user', text }],
    maxOutputTokens: budget,
    purpose: 'summary',
    reason: `${plan.tag}: ${upTo - state.absorbed} turns merged into the summary`,
  });
  if (!outcome.ok) return false;
  const old = { summary: state.summary, absorbed: state.absorbed };
  state.summary = outcome.text;
  state.absorbed = upTo;
  const after = env.countMessages(view(state));
  if (after >= before) {
    Object.assign(state, old);
    env.emit({ action: 'note', reason: `${plan.tag}: the summary was not smaller than the span; kept the span`, tokensBefore: before, tokensAfter: before });
    return false;
  }
  state.summaries += 1;
  env.emit({
    action: 'compact',
    reason: `${plan.tag}: ${span.length} messages replaced by the rolling summary`,
    tokensBefore: before,
    tokensAfter: after,
    detail: `summary ${state.summaries} covers ${upTo} turns`,
  });
  return true;
}

/** What is sent: the head, the summary, the newest user message if it was absorbed, the unabsorbed turns. */
export function view(state: TurnSummaryState, tag = 'rolling-summary'): ContextMessage[] {
  const { messages } = state;
  const head = headEnd(messages);
  const starts = turnStarts(messages, head);
  const cut = turnIndex(starts, state.absorbed, messages.length);
  if (state.summary === undefined || cut <= head) return [...messages];
  const summary = summaryMessage(state, state.summary, tag);
  let newestUser = -1;
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]?.role === 'user' && messages[i]?.synthetic === undefined) {
      newestUser = i;
      break;
    }
  const pinned = newestUser >= head && newestUser < cut ? [messages[newestUser] as ContextMessage] : [];
  return [...messages.slice(0, head), summary, ...pinned, ...messages.slice(cut)];
}

/** The summary as a message, one object while the summary stays the same (see helpers/derived.ts). */
function summaryMessage(state: TurnSummaryState, text: string, tag: string): ContextMessage {
  const id = `${tag}-${state.summaries}`;
  const known = summaryMessages.get(state);
  if (known?.id === id && known.summary === text) return known.message;
  const message: ContextMessage = { type: 'message', id, role: 'user', text: `Summary of the earlier conversation:\n${text}`, synthetic: tag };
  summaryMessages.set(state, { id, summary: text, message });
  return message;
}

const summaryMessages = runWeakMap<TurnSummaryState, { id: string; summary: string; message: ContextMessage }>();

/** Number of turns after the head. */
export const turnCount = (messages: readonly ContextMessage[]): number => turnStarts(messages, headEnd(messages)).length;
