import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, leadingSystem, type History } from './helpers/history.js';
import { requestSummary } from './helpers/summary-call.js';
import { truncateMiddleToTokens } from './helpers/text-cuts.js';
import { deriveOnce, scopeOf } from './helpers/derived.js';

const options = z.strictObject({
  threshold: z.number().gt(0).max(1).default(0.5).describe('compress when the history reaches this fraction of the window'),
  preserveFraction: z.number().gt(0).lt(1).default(0.3).describe('the newest share of the history (in characters) kept verbatim, from a user message on'),
  toolOutputBudget: z
    .number()
    .int()
    .min(0)
    .default(50_000)
    .describe('tokens of older tool outputs kept whole, newest first; older ones beyond it become a head/tail preview'),
  previewTokens: z.number().int().positive().default(500).describe('size of a head/tail preview of a truncated tool output'),
  summaryTokens: z.number().int().positive().default(8192).describe('output budget of the state snapshot (at most a quarter of the window)'),
});

export type Options = z.infer<typeof options>;

export interface State extends History {
  options: Options;
  snapshots: number;
  /** After a rejected summary Gemini CLI stops summarizing and only truncates tool outputs. */
  failed: boolean;
  truncated: number;
}

const SNAPSHOT_PROMPT = [
  'Distil the conversation into a state snapshot the agent will continue from; it replaces the history.',
  'If the history holds an earlier state snapshot, merge it: keep what still holds, update what changed.',
  'Answer with one <state_snapshot> element holding: <overall_goal>, <key_knowledge> (facts, conventions,',
  'exact commands and values), <file_system_state> (files read, created, changed), <recent_actions>,',
  '<current_plan> (numbered steps marked done, in progress or to do).',
].join('\n');

/**
 * Gemini CLI's chat compression: at half the window the oldest ~70 % of the history (split at a
 * user message) is summarized into a state snapshot; bulky old tool outputs are cut first.
 */
export const geminiCliCompress: Strategy<Options, State> = {
  name: 'gemini-cli-compress',
  description:
    "Gemini CLI's chat compression: at 0.5 of the window the newest ~30 % of the history is kept from a user message on; older tool outputs beyond a 50,000-token budget become head/tail previews and the rest is summarized into a state snapshot merging the previous one; a snapshot that is not smaller is rejected and from then on only tool outputs are truncated.",
  options,
  init: (opts) => ({ ...createHistory(), options: opts, snapshots: 0, failed: false, truncated: 0 }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  async prepare(state, env) {
    const before = env.countMessages(state.messages);
    if (before < state.options.threshold * env.window) return [...state.messages];
    const head = leadingSystem(state.messages);
    const body = state.messages.slice(head.length);
    const split = splitPoint(body, state.options.preserveFraction);
    if (split <= 0) return [...state.messages];
    const older = truncateOldOutputs(body.slice(0, split), state.options, env);
    const kept = body.slice(split);
    if (state.failed) return truncatedOnly(state, [...head, ...older, ...kept], before, env);
    env.emit({
      action: 'trigger',
      reason: `history of ${before} tokens reached ${state.options.threshold} of the window`,
      tokensBefore: before,
      tokensAfter: before,
    });
    const summary = await requestSummary(env, {
      instruction: SNAPSHOT_PROMPT,
      messages: [...head, ...older],
      maxOutputTokens: Math.min(state.options.summaryTokens, Math.floor(env.window / 4)),
      purpose: 'summary',
      reason: 'state snapshot',
      shrinkOnOverflow: true,
    });
    const n = state.snapshots + 1;
    const snapshot: ContextMessage = {
      type: 'message',
      id: `gemini-snapshot-${n}`,
      role: 'user',
      text: summary.ok ? summary.text : '',
      synthetic: 'gemini-cli-compress snapshot',
    };
    const rebuilt = [...head, snapshot, ...kept];
    const after = env.countMessages(rebuilt);
    if (!summary.ok || after >= before) {
      state.failed = true;
      env.emit({
        action: 'note',
        reason: 'compression rejected: the snapshot is not smaller; from now on only truncate',
        tokensBefore: before,
        tokensAfter: before,
        detail: summary.ok ? `would be ${after} tokens` : summary.reason,
      });
      return truncatedOnly(state, [...head, ...older, ...kept], before, env);
    }
    state.messages = rebuilt;
    state.snapshots = n;
    env.emit({
      action: 'compact',
      reason: 'history older than the newest 30 % replaced by a state snapshot',
      tokensBefore: before,
      tokensAfter: after,
      detail: `kept ${kept.length} messages`,
    });
    return [...rebuilt];
  },
  thresholds: (opts, window) => [{ label: 'gemini compress', tokens: Math.floor(opts.threshold * window) }],
};

/**
 * The first real user message past (1 − preserve) of the characters; failing that, the last one
 * (0 when only the first message is a user message: nothing older to compress).
 */
export function splitPoint(body: readonly ContextMessage[], preserve: number): number {
  const total = body.reduce((n, m) => n + m.text.length, 0);
  let chars = 0;
  let last = 0;
  for (let i = 0; i < body.length; i++) {
    const m = body[i] as ContextMessage;
    if (m.role === 'user' && m.synthetic === undefined && i > 0) {
      if (chars >= (1 - preserve) * total) return i;
      last = i;
    }
    chars += m.text.length;
  }
  return last;
}

/** Keeps the newest older tool outputs whole within the budget; the ones before become previews. */
function truncateOldOutputs(messages: readonly ContextMessage[], opts: Options, env: StrategyEnv): ContextMessage[] {
  let spent = 0;
  const out = [...messages];
  for (let i = out.length - 1; i >= 0; i--) {
    const m = out[i] as ContextMessage;
    if (m.role !== 'tool') continue;
    const tokens = env.count(m.text);
    if (spent + tokens <= opts.toolOutputBudget) {
      spent += tokens;
      continue;
    }
    spent = opts.toolOutputBudget;
    if (tokens > opts.previewTokens) {
      const preview = (): ContextMessage => ({ ...m, text: truncateMiddleToTokens(m.text, opts.previewTokens, env.count), replaces: [m.id] });
      out[i] = deriveOnce(m, `preview:${opts.previewTokens}${scopeOf(env.count)}`, preview);
    }
  }
  return out;
}

function truncatedOnly(state: State, context: ContextMessage[], before: number, env: StrategyEnv): ContextMessage[] {
  const cut = context.filter((m) => m.replaces !== undefined && m.role === 'tool').length;
  if (cut !== state.truncated && cut > 0)
    env.emit({
      action: 'truncate',
      reason: 'old tool outputs beyond the budget previewed',
      tokensBefore: before,
      tokensAfter: env.countMessages(context),
      detail: `${cut} outputs cut`,
    });
  state.truncated = cut;
  return context;
}
