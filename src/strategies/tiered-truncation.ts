import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, type History } from './helpers/history.js';
import { retrievalHint } from './helpers/hints.js';
import { deriveOnce } from './helpers/derived.js';

const options = z.strictObject({
  recentResults: z.number().int().min(0).default(5).describe('how many of the most recent tool results of the active group keep up to recentChars'),
  recentChars: z.number().int().min(1).default(5000).describe('characters kept of each of the most recent tool results of the active group'),
  olderChars: z.number().int().min(1).default(1000).describe('characters kept of the older tool results of the active group'),
  finishedChars: z.number().int().min(1).default(300).describe('characters kept of each tool result of a finished group'),
  lineSlack: z.number().min(0).max(1).default(0.2).describe('cut at the last line break within this fraction of the limit below it, else at the limit'),
});

export type Options = z.infer<typeof options>;

export interface State extends History {
  options: Options;
  /** The cuts of the last step (`id:limit` list), to emit an action only when they change. */
  lastCuts: string;
}

interface Cut {
  id: string;
  limit: number;
  removed: number;
}

/**
 * Cuts `text` to at most `limit` characters, at a line break when one lies within `slack` of the
 * limit; undefined when the text fits.
 */
export function cutText(text: string, limit: number, slack: number): { kept: string; removed: number } | undefined {
  if (text.length <= limit) return undefined;
  const floor = limit - Math.floor(limit * slack);
  const lineEnd = text.lastIndexOf('\n', limit);
  const end = lineEnd > 0 && lineEnd >= floor ? lineEnd : limit;
  return { kept: text.slice(0, end), removed: text.length - end };
}

/** Index of the user message that opens the active group (the newest), 0 when there is none. */
function activeGroupStart(messages: readonly ContextMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user' && messages[i]?.synthetic === undefined) return i;
  return 0;
}

/**
 * Applies the tiers, newest result first (recency counts from the end): in the active group the
 * most recent results keep `recentChars` and older ones `olderChars`, results of finished groups
 * `finishedChars`. A result whose cut would not be shorter (the marker outweighs it) stays whole.
 */
function truncateToolResults(messages: readonly ContextMessage[], opts: Options): { context: ContextMessage[]; cuts: Cut[] } {
  const active = activeGroupStart(messages);
  const edit = (limit: number): string => `tier:${limit}:${opts.lineSlack}`;
  const edits = new Map([opts.finishedChars, opts.recentChars, opts.olderChars].map((limit) => [limit, edit(limit)]));
  const context = messages.slice();
  const cuts: Cut[] = [];
  let recent = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ContextMessage;
    // Strategy-made messages (tombstones, previews) carry their own hints and are left alone.
    if (m.role !== 'tool' || m.synthetic !== undefined) continue;
    let limit = opts.finishedChars;
    if (i >= active) limit = recent++ < opts.recentResults ? opts.recentChars : opts.olderChars;
    // A result stays in its tier for many steps: cut once per tier, the same copy every step.
    const cut = deriveOnce(m, edits.get(limit) as string, () => {
      const kept = cutText(m.text, limit, opts.lineSlack);
      if (kept === undefined) return undefined;
      const text = `${kept.kept}\n[… ${kept.removed} of ${m.text.length} characters cut] ${retrievalHint(m.id)}`;
      return text.length >= m.text.length ? undefined : { message: { ...m, text, replaces: [m.id] }, removed: kept.removed };
    });
    if (cut === undefined) continue;
    cuts.push({ id: m.id, limit, removed: cut.removed });
    context[i] = cut.message;
  }
  return { context, cuts: cuts.reverse() };
}

function applyTiers(messages: readonly ContextMessage[], state: State, env: StrategyEnv): ContextMessage[] {
  const { context, cuts } = truncateToolResults(messages, state.options);
  const key = cuts.map((c) => `${c.id}:${c.limit}`).join(' ');
  if (key !== state.lastCuts && cuts.length > 0) {
    const removed = cuts.reduce((n, c) => n + c.removed, 0);
    const limits = [...new Set(cuts.map((c) => c.limit))].sort((a, b) => b - a);
    const tiers = limits.map((limit) => `${cuts.filter((c) => c.limit === limit).length} to ${limit}`).join(', ');
    env.emit({
      action: 'truncate',
      reason: 'tool results over their tier limit',
      tokensBefore: env.countMessages(messages),
      tokensAfter: env.countMessages(context),
      detail: `${cuts.length} tool results cut (${tiers} characters), ${removed} characters removed`,
    });
  }
  state.lastCuts = key;
  return context;
}

/**
 * Tiered truncation of tool results. In the active group (the one opened by the newest user
 * message) the most recent results keep up to 5000 characters and older ones 1000; results of
 * finished groups keep 300. Each cut result ends with a retrieval hint naming its archived
 * message id. Computed afresh at each step from the full history, so a result moves down a tier
 * as the session goes on and nothing is cut twice.
 */
export const tieredTruncation: Strategy<Options, State> = {
  name: 'tiered-truncation',
  description:
    'Cuts tool results by tier: in the active group the 5 most recent keep 5000 characters and older ones 1000; finished groups keep 300; each cut ends with a retrieval hint to the archived message.',
  options,
  init: (opts) => ({ ...createHistory(), options: opts, lastCuts: '' }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  prepare: (state, env) => applyTiers(state.messages, state, env),
  transform: (context, state, env) => applyTiers(context, state, env),
};
