import type { ContextMessage, Dialect, MessageEvent, TranscriptEvent } from '../transcript/types.js';
import type { ProviderName } from '../contracts/provider.js';
import type { Tokenizer } from './types.js';
import { carryValues, diffFrom, type ContextDiff } from '../transcript/context-diff.js';

/**
 * What a replayed log's requests carried that the log does not hold (DESIGN.md §3), resolved once
 * per transcript: the agent's hidden prefix (system prompt, tool schemas), and what the agent
 * re-attached after each of its own compactions (Claude Code re-reads recent files), by
 * compaction id. In the tokenizer's (calibrated) units.
 */
export interface HiddenPrefix {
  tokens: number;
  /** `auto`: estimated from recorded usage; `given`: the scenario's number; `none`: 0. */
  source: 'auto' | 'given' | 'none';
  /** Steps the estimate rests on (auto only). */
  estimatedOn?: number;
  /** Tokens re-attached after a recorded compaction that no logged text accounts for, by compaction id (auto only). */
  restored?: Record<string, number>;
  /**
   * Of the texts an importer rebuilt as re-attached after a compaction (`CompactionEvent.restored`,
   * most recent file first), how many fit what the recorded usage shows came back, by compaction
   * id (auto only; replay/hidden-prefix.ts `fitRestored`).
   */
  restoredKept?: Record<string, number>;
  /** Tokens the agent sent with a logged message but did not log, by message id (auto only; replay/unlogged.ts). */
  unlogged?: Record<string, number>;
  /**
   * Where the agent rebuilt its context from its log (replay/unlogged.ts `RESET_MIN_TOKENS`): by
   * the id of the last message added before the first call after it, the hidden prefix measured
   * anew there (auto only). From that message on, the messages before it carry nothing unlogged
   * and the texts an importer rebuilt for them (`unloggedChars`) are not sent.
   */
  rebuilt?: Record<string, number>;
}

/** Each event id (message or compaction) of a log, by its place in it: what a rebuild from the log comes after. */
export function eventOrder(events: readonly TranscriptEvent[]): Map<string, number> {
  const order = new Map<string, number>();
  events.forEach((event, i) => {
    if ((event.type === 'message' || event.type === 'compaction') && !order.has(event.id)) order.set(event.id, i);
  });
  return order;
}

/** The tokens of the end of a message's text that an importer rebuilt as sent but not logged (`unloggedChars`). */
export function unloggedTailTokens(message: MessageEvent, tokenizer: Tokenizer): number {
  const n = message.unloggedChars ?? 0;
  return n > 0 ? tokenizer.count(message.text.slice(-Math.min(n, message.text.length))) : 0;
}

/** The latest rebuild from the log a context comes after (its newest logged message is at or after the rebuild's), if any. */
function activeRebuild(
  context: readonly ContextMessage[],
  hidden: HiddenPrefix,
  order: ReadonlyMap<string, number> | undefined,
): { at: number; tokens: number } | undefined {
  if (hidden.rebuilt === undefined || order === undefined) return undefined;
  let newest = -1;
  for (const m of context) newest = Math.max(newest, order.get(m.id) ?? -1);
  let active: { at: number; tokens: number } | undefined;
  for (const [id, tokens] of Object.entries(hidden.rebuilt)) {
    const at = order.get(id);
    if (at !== undefined && at <= newest && (active === undefined || at > active.at)) active = { at, tokens };
  }
  return active;
}

export const NO_HIDDEN_PREFIX: HiddenPrefix = { tokens: 0, source: 'none' };

/** The hidden tokens of one request, kept apart so that steps.csv can show them. */
export interface HiddenTokens {
  /** The hidden prefix, plus what a compaction summary in the context brought back with it and what the log left out of the messages in the context. */
  prefix: number;
  /** Reasoning or thinking of the current turn that the API re-sends as input. */
  reasoning: number;
  /**
   * Of `prefix`, what rides with a message rather than leading the request, by message id: what a
   * compaction summary brought back, and what the agent sent with a message but did not log. The
   * cache model keeps these with their message, so they are read from cache once that message is.
   */
  withMessages?: Record<string, number>;
}

/**
 * Reasoning the provider charges as input on this request: that of the assistant messages after
 * the last user message (the current turn). OpenAI's Responses API sends a turn's reasoning items
 * back until the next user message; Anthropic keeps the thinking of the current assistant turn
 * while tool results come back and strips earlier turns'. A size recorded by the importer
 * (`reasoningTokens`) wins — Gemini 3 re-sends its reasoning the same way (the Gemini CLI records
 * its size as `thoughts`); otherwise Anthropic thinking text is counted. Gemini thought text without
 * a recorded size is counted by the tokenizer itself and is not repeated here.
 */
export function carriedReasoningTokens(context: readonly ContextMessage[], tokenizer: Tokenizer, format: ProviderName, dialect: Dialect): number {
  let n = 0;
  for (let i = context.length - 1; i >= 0; i--) {
    const m = context[i] as ContextMessage;
    if (m.role === 'user') break;
    if (m.role !== 'assistant') continue;
    if (m.reasoningTokens !== undefined) n += m.reasoningTokens;
    else if (m.thinking !== undefined && dialect === 'anthropic' && format !== 'gemini') n += tokenizer.count(m.thinking);
  }
  return n;
}

/** The hidden tokens a request sending `context` carries. */
export function hiddenTokensOf(
  context: readonly ContextMessage[],
  hidden: HiddenPrefix,
  tokenizer: Tokenizer,
  format: ProviderName,
  dialect: Dialect,
  order?: ReadonlyMap<string, number>,
): HiddenTokens {
  const rebuild = activeRebuild(context, hidden, order);
  let prefix = rebuild?.tokens ?? hidden.tokens;
  const withMessages: Record<string, number> = {};
  // Before a rebuild: nothing unlogged rides along, and what the importer rebuilt is not sent.
  const beforeRebuild = (m: ContextMessage): boolean => rebuild !== undefined && (order?.get(m.id) ?? Infinity) < rebuild.at;
  if (rebuild !== undefined) for (const m of context) if (beforeRebuild(m)) prefix -= unloggedTailTokens(m, tokenizer);
  const carry = (id: string, tokens: number | undefined): void => {
    if (tokens === undefined || tokens === 0) return;
    prefix += tokens;
    withMessages[id] = (withMessages[id] ?? 0) + tokens;
  };
  if (hidden.restored !== undefined) {
    for (const m of context) if (m.synthetic === 'recorded-compaction' && !beforeRebuild(m)) carry(m.id, hidden.restored[m.id]);
  }
  if (hidden.unlogged !== undefined) {
    for (const m of context) if (!beforeRebuild(m)) carry(m.id, hidden.unlogged[m.id]);
  }
  const reasoning = carriedReasoningTokens(context, tokenizer, format, dialect);
  return Object.keys(withMessages).length > 0 ? { prefix, reasoning, withMessages } : { prefix, reasoning };
}

/**
 * `hiddenTokensOf` of the contexts a session sends, step after step, kept along the step's
 * `ContextDiff`: what each message carries (the tokens a compaction summary brought back, what the
 * log left out of it) is looked up for the messages a step adds only. The re-sent reasoning is read
 * from the end of the context, back to its last user message, at every step.
 */
export interface HiddenCount {
  /** The hidden tokens of a request sending `diff.after` (from the last update's context). */
  update(diff: ContextDiff): HiddenTokens;
}

/** What one message carries: its id and each amount (the `carry` calls of `hiddenTokensOf` that add). */
interface Carried {
  id: string;
  amounts: readonly number[];
}

const CARRIES_NOTHING: Carried = { id: '', amounts: [] };

export function createHiddenCount(
  hidden: HiddenPrefix,
  tokenizer: Tokenizer,
  format: ProviderName,
  dialect: Dialect,
  order?: ReadonlyMap<string, number>,
): HiddenCount {
  // A rebuild from the log changes what every earlier message carries: counted whole at each step (rare logs).
  if (hidden.rebuilt !== undefined && order !== undefined) return { update: (diff) => hiddenTokensOf(diff.after, hidden, tokenizer, format, dialect, order) };
  const { restored, unlogged } = hidden;
  let held: readonly ContextMessage[] = [];
  let carried: Carried[] = [];
  /** Per id, the tokens its messages carry and how many amounts make them up. */
  const byId = new Map<string, { tokens: number; amounts: number }>();
  let total = 0;
  const carriedBy = (m: ContextMessage): Carried => {
    const amounts: number[] = [];
    const restoredTokens = m.synthetic === 'recorded-compaction' ? restored?.[m.id] : undefined;
    if (restoredTokens !== undefined && restoredTokens !== 0) amounts.push(restoredTokens);
    const unloggedTokens = unlogged?.[m.id];
    if (unloggedTokens !== undefined && unloggedTokens !== 0) amounts.push(unloggedTokens);
    if (amounts.length === 0) return CARRIES_NOTHING;
    const entry = byId.get(m.id) ?? { tokens: 0, amounts: 0 };
    for (const tokens of amounts) {
      total += tokens;
      entry.tokens += tokens;
      entry.amounts += 1;
    }
    byId.set(m.id, entry);
    return { id: m.id, amounts };
  };
  const drop = ({ id, amounts }: Carried): void => {
    if (amounts.length === 0) return;
    const entry = byId.get(id) as { tokens: number; amounts: number };
    for (const tokens of amounts) {
      total -= tokens;
      entry.tokens -= tokens;
      entry.amounts -= 1;
    }
    if (entry.amounts === 0) byId.delete(id);
  };
  return {
    update(diff) {
      const reasoning = carriedReasoningTokens(diff.after, tokenizer, format, dialect);
      if (restored === undefined && unlogged === undefined) return { prefix: hidden.tokens, reasoning };
      const from = diffFrom(held, diff);
      carried = carryValues(carried, from, carriedBy, drop);
      held = from.after;
      const prefix = hidden.tokens + total;
      if (byId.size === 0) return { prefix, reasoning };
      const withMessages: Record<string, number> = {};
      for (const [id, entry] of byId) withMessages[id] = entry.tokens;
      return { prefix, reasoning, withMessages };
    },
  };
}
