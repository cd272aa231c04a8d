import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Failure } from '../contracts/provider.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, leadingSystem, type History } from './helpers/history.js';
import { alignCut, pinNewestUser } from './helpers/message-units.js';
import { requestSummary } from './helpers/summary-call.js';
import { findRetrievalHints, retrievalHint } from './helpers/hints.js';
import type { MessageEvent } from '../transcript/types.js';

const options = z.strictObject({
  keepRecent: z.number().int().min(1).default(10).describe('messages at the end of the history that are never cleared or summarized'),
  target: z
    .number()
    .int()
    .positive()
    .default(8000)
    .describe('after clearing old tool results, summarize when the context is still above this many tokens (or above the window, when that is smaller)'),
  lightweightFirst: z.boolean().default(true).describe('clear old tool results before summarizing; false summarizes straight away'),
  clearMinChars: z.number().int().min(0).default(200).describe('old tool results longer than this many characters are cleared to a one-line stub'),
  summaryTokens: z.number().int().positive().default(2048).describe('output budget of the structured summary, in tokens (at most half of what it replaces)'),
  proactiveAt: z
    .number()
    .min(0)
    .max(1)
    .default(0)
    .describe('also compress before sending when the context reaches this fraction of the window (e.g. 0.85); 0 = only on errors'),
});

export type Options = z.infer<typeof options>;

export interface State extends History {
  options: Options;
  compactions: number;
  /** A `compact` control event (the user's `/compact`) arrived: compress at the next step. */
  compactRequested: boolean;
}

export const STRUCTURED_SUMMARY_PROMPT = [
  'Summarize the conversation above so that the work can continue from the summary alone. Use these headings:',
  'Task (the user requests and constraints); Done so far; Decisions (and why); Files and commands (exact paths, commands, identifiers);',
  'Errors and open problems; Next steps. Keep exact values verbatim.',
].join(' ');

const CLEARED = 'reactive-compress cleared';
const SUMMARY = 'reactive-compress summary';

/**
 * Compress on error: when a step fails on overflow, quota or rate limit, clear old tool results
 * (phase 1), then if still above the target summarize all but the last messages (phase 2), and
 * retry the step. Optionally compresses proactively at a fraction of the window.
 */
export const reactiveCompress: Strategy<Options, State> = {
  name: 'reactive-compress',
  description:
    'On an overflow, quota or rate-limit failure, clears tool results older than the last 10 messages to one-line stubs, then if still above 8,000 tokens keeps a structured summary plus the last 10 messages, and retries the step.',
  options,
  tunable: { keepRecent: { min: 4, max: 20, step: 2 } },
  init: (opts) => ({ ...createHistory(), options: opts, compactions: 0, compactRequested: false }),
  observe(event, state) {
    applyToHistory(state, event);
    if (event.type === 'control' && event.action === 'compact') state.compactRequested = true;
  },
  async prepare(state, env) {
    if (state.compactRequested) {
      state.compactRequested = false;
      // The user asked for it: both phases, whatever the size.
      await compress(state, env, 'manual /compact', 'manual', true);
    }
    const { proactiveAt } = state.options;
    if (proactiveAt > 0) {
      const tokens = env.countMessages(state.messages);
      const limit = Math.floor(proactiveAt * env.window);
      if (tokens >= limit) await compress(state, env, `context of ${tokens} tokens reached ${limit} (${proactiveAt} of the window)`, 'proactive');
    }
    return [...state.messages];
  },
  async recover(failure, state, env) {
    if (!isCompressible(failure)) return 'give-up';
    const changed = await compress(state, env, `${failure.kind}: ${failure.message}`, failure.kind);
    // Nothing left to compress: the retry policy decides (it waits on a rate limit, stops on overflow).
    return changed ? 'retry' : 'give-up';
  },
  thresholds: (opts, window) => (opts.proactiveAt > 0 ? [{ label: 'proactive compression', tokens: Math.floor(opts.proactiveAt * window) }] : []),
};

/**
 * Overflow and quota are the failures the design names. A rate limit is compressed too: the
 * provider words a TPM refusal as an exceeded quota (Gemini RESOURCE_EXHAUSTED), and a smaller
 * request needs less of the minute's tokens, so the retry may be admitted without waiting.
 */
function isCompressible(failure: Failure): boolean {
  return failure.kind === 'overflow' || failure.kind === 'quota' || failure.kind === 'rate-limit';
}

/** Phase 1, then phase 2 if needed; emits one `compact` when the history shrank. */
async function compress(state: State, env: StrategyEnv, reason: string, mode: string, manual = false): Promise<boolean> {
  const original = state.messages;
  const before = env.countMessages(original);
  env.emit({ action: 'trigger', reason, mode, tokensBefore: before, tokensAfter: before });
  const phases: string[] = [];
  if (state.options.lightweightFirst && clearOldToolResults(state, env, mode) > 0) phases.push('phase 1');
  // A target above the window would let an overflow retry without summarizing: it is capped there.
  const target = Math.min(state.options.target, env.window);
  if ((manual || env.countMessages(state.messages) > target) && (await summarizeOlder(state, env, mode))) phases.push('phase 2');
  const after = env.countMessages(state.messages);
  if (phases.length === 0 || after >= before) {
    state.messages = original;
    env.emit({ action: 'note', reason: 'nothing left to compress', mode, tokensBefore: before, tokensAfter: before });
    return false;
  }
  state.compactions += 1;
  env.emit({ action: 'compact', reason: phases.join(' + '), mode, tokensBefore: before, tokensAfter: after });
  return true;
}

/** The index from which messages are kept verbatim (the boundary never separates a call from its results). */
function keepFrom(state: State): number {
  return alignCut(state.messages, state.messages.length - state.options.keepRecent);
}

/** Phase 1: old tool results become a one-line stub with their original size; returns how many. */
function clearOldToolResults(state: State, env: StrategyEnv, mode: string): number {
  const cut = keepFrom(state);
  const before = env.countMessages(state.messages);
  let cleared = 0;
  state.messages = state.messages.map((m, i) => {
    if (i >= cut || m.role !== 'tool' || m.synthetic !== undefined || m.text.length <= state.options.clearMinChars) return m;
    cleared += 1;
    const size = `${m.text.length} characters, ${env.count(m.text)} tokens`;
    return { ...m, text: `[tool result cleared (${size}) ${retrievalHint(m.id)}]`, synthetic: CLEARED, replaces: [m.id] };
  });
  if (cleared > 0) {
    const after = env.countMessages(state.messages);
    env.emit({ action: 'truncate', reason: `phase 1: cleared ${cleared} old tool results`, mode, tokensBefore: before, tokensAfter: after });
  }
  return cleared;
}

/**
 * Phase 2: the messages before the kept tail become one structured summary (or, when the summary
 * call fails, a stub pointing to their archive). The newest user message is always kept.
 */
async function summarizeOlder(state: State, env: StrategyEnv, mode: string): Promise<boolean> {
  const { messages } = state;
  const system = leadingSystem(messages);
  const cut = Math.max(keepFrom(state), system.length);
  const older = messages.slice(system.length, cut);
  const kept = pinNewestUser(messages, cut);
  // The summary may be as long as its budget: at most half of what it replaces (the newest user
  // message stays, so it does not count), so that it shrinks.
  const replaced = older.filter((m) => !kept.includes(m));
  const budget = Math.min(state.options.summaryTokens, Math.floor(env.countMessages(replaced) / 2));
  if (replaced.length === 0 || budget < 1) return false;
  const key = `reactive-compress/${env.sessionId}/${state.compactions + 1}`;
  // The summary is written from what the messages said, not from phase 1's stubs of them.
  const summary = await requestSummary(env, {
    instruction: STRUCTURED_SUMMARY_PROMPT,
    messages: [...system, ...older.map((m) => restoreCleared(m, env)), ...messages.slice(older.length + system.length, cut)],
    maxOutputTokens: budget,
    purpose: 'summary',
    reason: 'phase 2: structured summary',
    mode,
    shrinkOnOverflow: true,
  });
  const body = summary.ok
    ? `Summary of ${older.length} earlier messages:\n${summary.text}`
    : `${older.length} earlier messages were dropped (no summary: ${summary.reason.split(':')[0] ?? 'failed'}).`;
  const message: ContextMessage = {
    type: 'message',
    id: `reactive-summary-${state.compactions + 1}`,
    role: 'user',
    text: `${body}\n${retrievalHint(key)}`,
    synthetic: SUMMARY,
    replaces: older.map((m) => m.id),
  };
  const next = [...system, message, ...kept];
  // A summary longer than what it replaces is no compression: phase 1's result stands.
  if (env.countMessages(next) >= env.countMessages(messages)) return false;
  // The hint leads to the original messages, never to another stub or summary.
  const originals = older.flatMap((m) => originalsOf(m, env));
  // Each original once, the first time it comes (a set: the archive grows with every compaction).
  const seen = new Set<string>();
  const distinct = originals.filter((m) => {
    if (seen.has(m.id)) return false;
    seen.add(m.id);
    return true;
  });
  env.archive.put(key, distinct);
  state.messages = next;
  return true;
}

/** A phase-1 stub back as the tool result it cleared (from the archive); any other message as it is. */
function restoreCleared(m: ContextMessage, env: StrategyEnv): ContextMessage {
  if (m.synthetic !== CLEARED) return m;
  const original = m.replaces?.[0] === undefined ? undefined : env.archive.get(m.replaces[0]);
  return original ?? m;
}

/** The recorded messages behind a message of the history: a stub's original, an earlier summary's archived messages. */
function originalsOf(m: ContextMessage, env: StrategyEnv): MessageEvent[] {
  if (m.synthetic === SUMMARY) {
    const archived = findRetrievalHints(m.text).flatMap((key) => env.archive.lookup(key) ?? []);
    return archived.length > 0 ? archived : [m];
  }
  return [restoreCleared(m, env)];
}
