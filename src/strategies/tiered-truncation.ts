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
  /** The last pass: the next one reuses its leading finished results, and emits an action only when its cuts differ. */
  pass?: TierPass;
}

interface Cut {
  id: string;
  limit: number;
  removed: number;
}

/** What one pass over a context made of it. */
interface TierPass {
  /** The messages it was given (a copy: the history grows in place). */
  input: ContextMessage[];
  /** Where their active group starts. */
  active: number;
  context: ContextMessage[];
  cuts: Cut[];
  /** The position in `input` of each cut. */
  at: number[];
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
 *
 * A result that lies before the active group in this pass and in `last` is in the finished tier in
 * both: while the messages up to it are the same objects, its outcome is `last`'s, so a step
 * passes over the active group and what is new, not over the whole history again.
 */
function truncateToolResults(messages: readonly ContextMessage[], opts: Options, last: TierPass | undefined): TierPass {
  const active = activeGroupStart(messages);
  let reused = 0;
  if (last !== undefined) {
    const limit = Math.min(last.input.length, messages.length, last.active, active);
    while (reused < limit && last.input[reused] === messages[reused]) reused += 1;
  }
  const edit = (limit: number): string => `tier:${limit}:${opts.lineSlack}`;
  const edits = new Map([opts.finishedChars, opts.recentChars, opts.olderChars].map((limit) => [limit, edit(limit)]));
  const context = last === undefined ? messages.slice() : [...last.context.slice(0, reused), ...messages.slice(reused)];
  const newCuts: Cut[] = [];
  const newAt: number[] = [];
  let recent = 0;
  for (let i = messages.length - 1; i >= reused; i--) {
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
    newCuts.push({ id: m.id, limit, removed: cut.removed });
    newAt.push(i);
    context[i] = cut.message;
  }
  let kept = 0;
  if (last !== undefined) while (kept < last.at.length && (last.at[kept] as number) < reused) kept += 1;
  const cuts = last === undefined ? newCuts.reverse() : [...last.cuts.slice(0, kept), ...newCuts.reverse()];
  const at = last === undefined ? newAt.reverse() : [...last.at.slice(0, kept), ...newAt.reverse()];
  return { input: messages.slice(), active, context, cuts, at };
}

/** Whether two passes made the same cuts (the same results to the same limits). */
function sameCuts(a: readonly Cut[], b: readonly Cut[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Cut;
    const y = b[i] as Cut;
    if (x !== y && (x.id !== y.id || x.limit !== y.limit)) return false;
  }
  return true;
}

function applyTiers(messages: readonly ContextMessage[], state: State, env: StrategyEnv): ContextMessage[] {
  const pass = truncateToolResults(messages, state.options, state.pass);
  const { context, cuts } = pass;
  if (!sameCuts(cuts, state.pass?.cuts ?? []) && cuts.length > 0) {
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
  state.pass = pass;
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
  tunable: { recentResults: { min: 1, max: 10, step: 1 } },
  init: (opts) => ({ ...createHistory(), options: opts }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  prepare: (state, env) => applyTiers(state.messages, state, env),
  transform: (context, state, env) => applyTiers(context, state, env),
};
