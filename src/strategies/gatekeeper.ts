import { z } from 'zod';
import type { ContextMessage, MessageEvent } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, groupStarts, leadingSystem, type History } from './helpers/history.js';
import { alignCut, renderAsText } from './helpers/message-units.js';
import { summarizeMapReduce } from './helpers/map-reduce.js';
import { previewText } from './helpers/text-cuts.js';
import { findRetrievalHints, retrievalHint } from './helpers/hints.js';

const options = z.strictObject({
  payloadChars: z
    .number()
    .int()
    .positive()
    .default(2000)
    .describe('tool results longer than this many characters go to the scratchpad; the context keeps a preview and the ref'),
  previewChars: z.number().int().positive().default(600).describe('size of the head / middle / tail preview of an offloaded payload, in characters'),
  singleMessage: z.number().gt(0).max(1).default(0.75).describe('a single message above this fraction of the window is compressed on its own'),
  buffer: z.number().gt(0).max(1).default(0.6).describe('when the history passes this fraction of the window, the older part is summarized map-reduce style'),
  keepUserTurns: z.number().int().min(1).default(2).describe('the last N user messages and everything after them are never compressed'),
  chunkTokens: z.number().int().positive().default(3000).describe('size of a map-reduce chunk, in tokens'),
  mapTokens: z.number().int().positive().default(400).describe('output budget of each chunk summary, in tokens'),
  reduceTokens: z.number().int().positive().default(1200).describe('output budget of the reduce call that merges the chunk summaries into one, in tokens'),
});

export type Options = z.infer<typeof options>;

export interface State extends History {
  options: Options;
  summaries: number;
  /** A `compact` control event (the user's `/compact`) arrived: map-reduce the older part at the next step. */
  compactRequested: boolean;
}

/** Markers of the messages this strategy synthesised (never compressed again). */
const OFFLOADED = 'gatekeeper offload';
const COMPRESSED = 'gatekeeper compressed';
const SUMMARY = 'gatekeeper summary';

export const REDUCE_PROMPT =
  'These are summaries of consecutive parts of one agent session. Merge them into one summary of short factual lines, ' +
  'in order, without repeating a fact: keep every exact file path, command, identifier, number and error. No preamble.';

export const MAP_PROMPT =
  'Summarize this part of an agent session as short factual lines: what was asked, done and decided, ' +
  'with exact file paths, commands, identifiers, numbers and errors. No preamble.';

/**
 * Pass-by-reference and map-reduce: large tool payloads go to a scratchpad (`ref:<id>`) with a
 * preview in the context, a single oversized message is compressed on its own, and past a buffer
 * the older history is summarized chunk by chunk after being archived under a ref.
 */
export const gatekeeper: Strategy<Options, State> = {
  name: 'gatekeeper',
  description:
    'Offloads tool payloads over 2,000 characters to a scratchpad ref with a head/middle/tail preview, compresses any single message over 75% of the window, and past 60% of the window (or at a manual /compact) map-reduces the history older than the last 2 user messages (chunk summaries merged by a reduce call) into a summary naming the archived history.',
  options,
  tunable: { buffer: { min: 0.3, max: 0.9, step: 0.1 }, keepUserTurns: { min: 1, max: 4, step: 1 } },
  init: (opts) => ({ ...createHistory(), options: opts, summaries: 0, compactRequested: false }),
  observe(event, state, env) {
    if (event.type === 'message' && event.role === 'tool' && event.text.length > state.options.payloadChars) {
      state.messages.push(offload(event, state.options, env));
      return;
    }
    applyToHistory(state, event);
    if (event.type === 'control' && event.action === 'compact') state.compactRequested = true;
  },
  async prepare(state, env) {
    await compressOversized(state, env);
    const tokens = env.countMessages(state.messages);
    const buffer = Math.floor(state.options.buffer * env.window);
    const manual = state.compactRequested;
    state.compactRequested = false;
    if (tokens > buffer || manual) await compressOlder(state, env, tokens, manual ? 'manual /compact' : `history of ${tokens} tokens > buffer of ${buffer}`);
    return [...state.messages];
  },
  thresholds: (opts, window) => [
    { label: 'map-reduce buffer', tokens: Math.floor(opts.buffer * window) },
    { label: 'single message', tokens: Math.floor(opts.singleMessage * window) },
  ],
};

/** Stores a tool payload under `ref:<id>` and returns the preview that replaces it in the context. */
function offload(message: MessageEvent, opts: Options, env: StrategyEnv): ContextMessage {
  const key = env.archive.put(`ref:${message.id}`, [message]);
  const text = [
    `Tool output stored by reference (${message.text.length} characters). Preview (head / middle / tail):`,
    previewText(message.text, opts.previewChars),
    retrievalHint(key),
  ].join('\n');
  const preview: ContextMessage = { ...message, text, synthetic: OFFLOADED, replaces: [message.id] };
  env.emit({
    action: 'offload',
    reason: `tool payload of ${message.text.length} characters > ${opts.payloadChars}`,
    mode: 'pass-by-reference',
    tokensBefore: env.countMessages([message]),
    tokensAfter: env.countMessages([preview]),
    detail: key,
  });
  return preview;
}

/** The system prompt and the last N user messages: never compressed. */
function protectedIds(messages: readonly ContextMessage[], keepUserTurns: number): Set<string> {
  const ids = new Set(leadingSystem(messages).map((m) => m.id));
  for (const start of groupStarts(messages).slice(-keepUserTurns)) ids.add((messages[start] as ContextMessage).id);
  return ids;
}

/** Compresses each message above the single-message limit on its own (map-reduce, so it may exceed the window). */
async function compressOversized(state: State, env: StrategyEnv): Promise<void> {
  const limit = Math.floor(state.options.singleMessage * env.window);
  const keep = protectedIds(state.messages, state.options.keepUserTurns);
  for (const [i, m] of state.messages.entries()) {
    if (keep.has(m.id) || m.synthetic !== undefined) continue;
    // The message's own size: a request-level count would add the replay's hidden prefix.
    const before = env.countMessages([m]) - (env.hiddenPrefix ?? 0);
    if (before <= limit) continue;
    const key = `ref:${m.id}`;
    const reduced = await summarizeMapReduce(env, { ...mapRequest(state.options, 'single-message'), text: renderAsText(m) });
    const text = `Message compressed on its own (${before} tokens), map-reduce over ${reduced.chunks} chunks:\n${reduced.text}\n${retrievalHint(key)}`;
    // Tool calls, the call id and the thought signature stay: pairing and Gemini's checks hold.
    const { thinking: _dropped, ...rest } = m;
    const compressed: ContextMessage = { ...rest, text, synthetic: COMPRESSED, replaces: [m.id] };
    const after = env.countMessages([compressed]);
    if (after >= before) continue;
    env.archive.put(key, [m]);
    state.messages[i] = compressed;
    env.emit({
      action: 'compact',
      reason: `message ${m.id} of ${before} tokens > ${limit}`,
      mode: 'single-message',
      tokensBefore: before,
      tokensAfter: after,
      detail: key,
    });
  }
}

function mapRequest(opts: Options, mode: string) {
  return {
    instruction: MAP_PROMPT,
    chunkTokens: opts.chunkTokens,
    mapTokens: opts.mapTokens,
    reason: 'map-reduce',
    mode,
    reduce: { instruction: REDUCE_PROMPT, reduceTokens: opts.reduceTokens },
  };
}

/**
 * Map-reduce of the older part (between the system prompt and the last N user messages). The full
 * history is archived first and the summary names it; earlier summaries are kept as they are, and
 * outputs already replaced by a ref are only listed by their ref, not summarized again.
 */
async function compressOlder(state: State, env: StrategyEnv, before: number, why: string): Promise<void> {
  const { messages } = state;
  const system = leadingSystem(messages);
  const starts = groupStarts(messages);
  const first = starts[Math.max(0, starts.length - state.options.keepUserTurns)] ?? messages.length;
  const cut = Math.max(alignCut(messages, first), system.length);
  const older = messages.slice(system.length, cut);
  const earlier = older.filter((m) => m.synthetic === SUMMARY);
  const compressible = older.filter((m) => m.synthetic === undefined);
  // Chunk summaries may be as long as their budget: below one budget, summarizing could only cost tokens.
  if (compressible.length === 0 || env.countMessages(compressible) <= state.options.mapTokens) return;
  const mode = 'map-reduce';
  env.emit({ action: 'trigger', reason: why, mode, tokensBefore: before, tokensAfter: before });
  const n = state.summaries + 1;
  const historyKey = `ref:history-${n}`;
  const reduced = await summarizeMapReduce(env, { ...mapRequest(state.options, mode), text: compressible.map(renderAsText).join('\n') });
  const refs = older.filter((m) => m.synthetic === OFFLOADED || m.synthetic === COMPRESSED).flatMap((m) => findRetrievalHints(m.text));
  const summarized = older.length - earlier.length;
  const summary = summaryMessage(n, summarized, historyKey, reduced.text, refs);
  const next = [...system, ...earlier, summary, ...messages.slice(cut)];
  const after = env.countMessages(next);
  if (after >= before) {
    env.emit({
      action: 'note',
      reason: 'summary would not shrink the history; kept it',
      mode,
      tokensBefore: before,
      tokensAfter: before,
      detail: `summarized: ${after} tokens`,
    });
    return;
  }
  // The safety contract: the full history is archived under the ref the summary names before it is replaced.
  env.archive.put(historyKey, [...messages]);
  state.messages = next;
  state.summaries = n;
  const failed = reduced.failed > 0 ? `; ${reduced.failed} chunk summaries failed (their head kept)` : '';
  env.emit({
    action: 'compact',
    reason: `summarized ${summarized} older messages in ${reduced.chunks} chunks${failed}`,
    mode,
    tokensBefore: before,
    tokensAfter: after,
    detail: historyKey,
  });
}

function summaryMessage(n: number, count: number, historyKey: string, text: string, refs: readonly string[]): ContextMessage {
  const lines = [`Summary of ${count} earlier messages; the full history before it is archived: ${retrievalHint(historyKey)}`, text];
  if (refs.length > 0) lines.push(`Outputs stored by reference: ${refs.map(retrievalHint).join(' ')}`);
  return { type: 'message', id: `gatekeeper-summary-${n}`, role: 'user', text: lines.join('\n'), synthetic: SUMMARY };
}
