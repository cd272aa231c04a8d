import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, type History } from './helpers/history.js';
import { linesOf } from './helpers/tool-clearing.js';
import { deriveOnce } from './helpers/derived.js';

const options = z.strictObject({
  triggerTokens: z.number().int().min(0).default(100_000).describe('clear once the request passes this many input tokens (the API default)'),
  keepToolUses: z.number().int().min(0).default(3).describe('how many of the newest tool uses keep their results'),
  clearAtLeast: z.number().int().min(0).default(0).describe('clear only when at least this many tokens would be freed (0: any amount)'),
  excludeTools: z.array(z.string()).default([]).describe('tools whose uses and results are never cleared'),
  clearToolInputs: z.boolean().default(false).describe('also clear the inputs (arguments) of the cleared tool calls'),
  clearThinking: z.boolean().default(true).describe('the thinking edit: keep the thinking of the last assistant turn only'),
  keepThinkingTurns: z.number().int().min(1).default(1).describe('how many of the newest assistant turns keep their thinking'),
});

export type Options = z.infer<typeof options>;

export interface State extends History {
  options: Options;
  cleared: number;
  thinkingCleared: number;
}

export const CLEARED = '[tool result cleared by context editing]';

/**
 * The two server-side edits of Anthropic's API (clear tool uses, clear thinking). The API is
 * stateless: each request carries the whole history and the edits are applied to it, so the
 * trigger compares the whole history with the threshold at every step, not what was sent last.
 */
export const anthropicContextEditing: Strategy<Options, State> = {
  name: 'anthropic-context-editing',
  description:
    "Anthropic's API context editing: past 100,000 input tokens the oldest tool results are cleared, keeping the last 3 tool uses (optionally only when at least clearAtLeast tokens are freed, never for excludeTools, optionally clearing the call inputs too); the thinking edit keeps only the last assistant turn's thinking.",
  options,
  init: (opts) => ({ ...createHistory(), options: opts, cleared: 0, thinkingCleared: 0 }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  prepare(state, env) {
    return clearThinking(clearToolUses(state.messages, state, env), state, env);
  },
  thresholds: (opts) => (opts.triggerTokens > 0 ? [{ label: 'context editing trigger', tokens: opts.triggerTokens }] : []),
};

function clearToolUses(messages: readonly ContextMessage[], state: State, env: StrategyEnv): ContextMessage[] {
  const opts = state.options;
  const before = env.countMessages(messages);
  if (before < opts.triggerTokens) {
    state.cleared = 0;
    return [...messages];
  }
  const calls = messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : [])).filter((c) => !opts.excludeTools.includes(c.name));
  const kept = new Set(calls.slice(Math.max(0, calls.length - opts.keepToolUses)).map((c) => c.id));
  const clear = new Set(calls.filter((c) => !kept.has(c.id)).map((c) => c.id));
  const context = messages.map((m): ContextMessage => {
    if (m.role === 'tool' && m.toolCallId !== undefined && clear.has(m.toolCallId) && m.text.length > CLEARED.length) {
      return deriveOnce(m, 'context-editing:cleared', () => ({ ...m, text: `${CLEARED} (${linesOf(m)} lines)`, replaces: [m.id] }));
    }
    if (opts.clearToolInputs && m.role === 'assistant' && (m.toolCalls ?? []).some((c) => clear.has(c.id))) {
      const ids = (m.toolCalls ?? []).filter((c) => clear.has(c.id)).map((c) => c.id);
      return deriveOnce(m, `context-editing:inputs:${JSON.stringify(ids)}`, () => ({
        ...m,
        toolCalls: (m.toolCalls ?? []).map((c) => (clear.has(c.id) ? { ...c, args: {} } : c)),
      }));
    }
    return m;
  });
  const after = env.countMessages(context);
  // Below clear_at_least the API leaves the request alone: clearing would break the prompt cache for too little.
  if (before - after < Math.max(1, opts.clearAtLeast)) {
    state.cleared = 0;
    return [...messages];
  }
  const cleared = context.filter((m, i) => m !== messages[i]).length;
  if (cleared !== state.cleared) {
    env.emit({
      action: 'truncate',
      reason: `input of ${before} tokens passed ${opts.triggerTokens}: cleared tool uses older than the last ${opts.keepToolUses}`,
      tokensBefore: before,
      tokensAfter: after,
      detail: `${cleared} messages edited`,
    });
  }
  state.cleared = cleared;
  return context;
}

function clearThinking(messages: ContextMessage[], state: State, env: StrategyEnv): ContextMessage[] {
  if (!state.options.clearThinking) return messages;
  const turns = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  const keep = new Set(turns.slice(Math.max(0, turns.length - state.options.keepThinkingTurns)));
  let n = 0;
  const context = messages.map((m, i) => {
    if (m.role !== 'assistant' || keep.has(i) || m.thinking === undefined || m.thinking === '') return m;
    n += 1;
    return deriveOnce(m, 'no-thinking', () => {
      const { thinking: _dropped, ...rest } = m;
      return rest;
    });
  });
  if (n !== state.thinkingCleared && n > 0) {
    env.emit({
      action: 'cap-thinking',
      reason: `thinking kept for the last ${state.options.keepThinkingTurns} assistant turn(s)`,
      tokensBefore: env.countMessages(messages),
      tokensAfter: env.countMessages(context),
      detail: `thinking cleared from ${n} turns`,
    });
  }
  state.thinkingCleared = n;
  return context;
}
