import { runWeakMap, createListMemo, type ListMemo } from '../memo.js';
import { createHash, hash as digestOf } from 'node:crypto';
import type { ProviderName } from '../contracts/provider.js';
import type { ContextMessage } from '../transcript/types.js';
import { carryValues, diffFrom, type ContextDiff } from '../transcript/context-diff.js';
import type { Tokenizer } from '../tokens/types.js';
import type { CachePart } from './model.js';

/** What `applyCache` needs of a request: its parts and where an explicit cache puts breakpoints. */
export interface CacheRequest {
  parts: CachePart[];
  breakpoints: number[];
}

const fingerprints = runWeakMap<ContextMessage, string>();

/** Of a request's prompt, what the log does not hold (tokens/hidden-tokens.ts). */
export interface HiddenSplit {
  /** The agent's hidden prefix (system prompt, tool schemas): leads the request. */
  prefix: number;
  /** The current turn's reasoning the API re-sends: at the end of the request. */
  reasoning: number;
  /** Of `prefix`, what rides with a message (by id): cached with that message, not ahead of the request. */
  withMessages?: Readonly<Record<string, number>>;
}

/**
 * Splits a request into cache parts, one per message, so that its parts add up to the
 * `promptTokens` the provider counted. The hidden prefix leads the request as one part, keyed on
 * its size (the same bytes at every step until a compaction changes what it re-attaches); the
 * re-sent reasoning and any framing the messages' counts miss trail it. Without a split, all of
 * the difference is taken as a leading hidden prefix. Breakpoints follow Claude Code: after the
 * leading system part(s) and after the last message.
 *
 * `servedBy` is the model that serves the request: a provider keeps one cache per model, so
 * after a switch (Claude Code falling back from Opus to Sonnet, Gemini CLI between models) the
 * first request of the new model reads nothing. It leads the request as a part of no tokens.
 *
 * `ownParts`: the messages' parts (`messagePart` of each), when the caller has them (the step
 * loop carries them along the step's diff: `createStepParts`); else each is made here.
 */
export function cacheRequest(
  messages: readonly ContextMessage[],
  promptTokens: number,
  tokenizer: Tokenizer,
  format: ProviderName,
  hidden?: HiddenSplit,
  servedBy?: string,
  ownParts?: readonly CachePart[],
): CacheRequest {
  const carried = hidden?.withMessages ?? {};
  const parts = ownParts === undefined ? messages.map((m) => messagePart(m, tokenizer, format)) : ownParts.slice();
  let carriedTotal = 0;
  if (Object.keys(carried).length > 0) {
    for (const [i, m] of messages.entries()) {
      const extra = carried[m.id];
      if (extra === undefined) continue;
      parts[i] = { key: (parts[i] as CachePart).key, tokens: (parts[i] as CachePart).tokens + extra };
      carriedTotal += extra;
    }
  }
  if (hidden !== undefined && hidden.reasoning > 0) attachReasoning(parts, messages, hidden.reasoning);
  const counted = parts.reduce((n, p) => n + p.tokens, 0);
  const leading = hidden === undefined ? undefined : hidden.prefix - carriedTotal;
  const prefix = Math.max(0, Math.min(leading ?? promptTokens - counted, promptTokens - counted));
  const tail = promptTokens - counted - prefix;
  const lead = prefix > 0 ? 1 : 0;
  if (prefix > 0) parts.unshift({ key: `hidden-prefix:${prefix}`, tokens: prefix });
  if (tail > 0) parts.push({ key: `tail:${parts.length}:${tail}`, tokens: tail });
  else trimTail(parts, -tail);
  let system = lead;
  while (system < parts.length - 1 && messages[system - lead]?.role === 'system') system += 1;
  // After the last message as well as at the very end: a trailing part changes every step.
  const lastMessage = lead + messages.length - 1;
  const breakpoints = parts.length === 0 ? [] : [...new Set([Math.max(0, system - 1), Math.max(0, Math.min(lastMessage, parts.length - 1)), parts.length - 1])];
  if (servedBy === undefined) return { parts, breakpoints };
  return { parts: [{ key: `model:${servedBy}`, tokens: 0 }, ...parts], breakpoints: breakpoints.map((index) => index + 1) };
}

/**
 * The re-sent reasoning of the current turn goes where the API sends it: with the assistant
 * message that produced it (a Responses API reasoning item sits before its call), not after the
 * last message. So it is read from cache with that message while the turn lasts, and the prefix
 * breaks there when the next user message drops it (the part's key changes with it). Only sizes the log recorded
 * (`reasoningTokens`) are placed; whatever else of `reasoning` there is stays at the end.
 */
function attachReasoning(parts: CachePart[], messages: readonly ContextMessage[], reasoning: number): void {
  let left = reasoning;
  for (let i = messages.length - 1; i >= 0 && left > 0; i--) {
    const m = messages[i] as ContextMessage;
    if (m.role === 'user') break;
    if (m.role !== 'assistant' || m.reasoningTokens === undefined) continue;
    const tokens = Math.min(m.reasoningTokens, left);
    const part = parts[i] as CachePart;
    // Other bytes than the message without it: when the next user message drops the reasoning,
    // the prefix breaks here (a key, not only a size, must differ: the chain hashes keys alone).
    parts[i] = { key: `${part.key}+reasoning:${tokens}`, tokens: part.tokens + tokens };
    left -= tokens;
  }
}

/**
 * The cache parts of a strategy's own call (a summary, a rebuild, a reduce pass), in the order the
 * providers render it (render-openai.ts, render-gemini.ts): the call's instruction first, keyed on
 * its text, then the messages, then any framing their counts miss. So a call shares its prefix
 * with the strategy's earlier calls of the same instruction and a history they both start with,
 * never with the agent's requests, which lead with the agent's own system prompt. The breakpoint
 * after the last message is the one the agent's requests carry.
 */
export function strategyCallRequest(
  instruction: string | undefined,
  messages: readonly ContextMessage[],
  promptTokens: number,
  tokenizer: Tokenizer,
  format: ProviderName,
  servedBy?: string,
): CacheRequest {
  const lead: CachePart[] = [];
  if (servedBy !== undefined) lead.push({ key: `model:${servedBy}`, tokens: 0 });
  if (instruction !== undefined && instruction !== '') {
    lead.push({ key: `instruction:${digestOf('sha1', instruction, 'hex')}`, tokens: tokenizer.count(instruction) });
  }
  const parts = [...lead, ...callParts(messages, tokenizer, format)];
  const counted = parts.reduce((n, p) => n + p.tokens, 0);
  const lastMessage = parts.length - 1;
  if (promptTokens > counted) parts.push({ key: `tail:${parts.length}:${promptTokens - counted}`, tokens: promptTokens - counted });
  else trimTail(parts, counted - promptTokens);
  const breakpoints = parts.length === 0 ? [] : [...new Set([Math.max(0, lastMessage), parts.length - 1])];
  return { parts, breakpoints };
}

/** A message's part of a request: its fingerprint and its count. */
export function messagePart(message: ContextMessage, tokenizer: Tokenizer, format: ProviderName): CachePart {
  return { key: fingerprint(message), tokens: tokenizer.countMessage(message, format) };
}

/** The parts of the messages of the contexts a session sends, step after step, kept along the step's diff. */
export interface StepParts {
  /** `messagePart` of each message of `diff.after`, in order (read it before the next update; never change it). */
  update(diff: ContextDiff): readonly CachePart[];
}

export function createStepParts(tokenizer: Tokenizer, format: ProviderName): StepParts {
  let parts: CachePart[] = [];
  let held: readonly ContextMessage[] = [];
  const partOf = (message: ContextMessage) => messagePart(message, tokenizer, format);
  return {
    update(diff) {
      const from = diffFrom(held, diff);
      parts = carryValues(parts, from, partOf);
      held = from.after;
      return parts;
    },
  };
}

/**
 * Each tokenizer's memo of the parts of a strategy's own calls, per format. A strategy's calls
 * (summaries, rebuilds) are not the step's requests, so no step diff describes them; their
 * messages are mostly those of the strategy's call before, which the list memo finds.
 */
const partMemos = runWeakMap<Tokenizer, Record<ProviderName, ListMemo<ContextMessage, CachePart>>>();

function callParts(messages: readonly ContextMessage[], tokenizer: Tokenizer, format: ProviderName): CachePart[] {
  let memos = partMemos.get(tokenizer);
  if (memos === undefined) partMemos.set(tokenizer, (memos = { openai: createListMemo(), gemini: createListMemo() }));
  return memos[format].map(messages, (m) => messagePart(m, tokenizer, format));
}

/**
 * Identity of a message as sent: role, id, text, thinking, signature and tool calls. Each field is
 * hashed as its length and its UTF-16 code units (lossless, and unambiguous where fields meet),
 * not as one JSON text of the message: a new message object (an edit, a summary) cost a copy of
 * its whole text.
 */
function fingerprint(message: ContextMessage): string {
  const known = fingerprints.get(message);
  if (known !== undefined) return known;
  const hash = createHash('sha1');
  const fields = [
    message.role,
    message.id,
    message.text,
    message.thinking,
    message.thoughtSignature,
    message.toolCalls === undefined ? undefined : JSON.stringify(message.toolCalls),
    message.toolCallId,
  ];
  for (const field of fields) {
    if (field === undefined) hash.update('-');
    else hash.update(`${field.length}:`).update(field, 'utf16le');
  }
  const digest = hash.digest('hex');
  fingerprints.set(message, digest);
  return digest;
}

/** Takes `excess` tokens off the last parts (replaced, not changed: message parts are shared between requests). */
function trimTail(parts: CachePart[], excess: number): void {
  for (let i = parts.length - 1; i >= 0 && excess > 0; i--) {
    const part = parts[i] as CachePart;
    const cut = Math.min(part.tokens, excess);
    parts[i] = { key: part.key, tokens: part.tokens - cut };
    excess -= cut;
  }
}
