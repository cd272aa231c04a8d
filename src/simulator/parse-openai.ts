import { runWeakMap } from '../memo.js';
import type { ContextMessage, ToolCall } from '../transcript/types.js';
import type { MessageDraft } from '../transcript/draft.js';
import type { RenderShape } from '../wire/render-shape.js';
import type { CanonicalCall, ParsedRequest } from './types.js';
import { asSent } from '../transcript/sent-as-text.js';
import { isRecord } from './parse-gemini.js';
import { parseArguments } from '../wire/render-openai.js';
import { EFFORT_BUDGETS, isEffort } from '../contracts/thinking.js';

/**
 * Reads a chat-completions body back into canonical messages: what the real model would see
 * (no thinking: chat completions cannot carry it). Returns undefined when it is not such a body.
 */
export function parseOpenAIRequest(body: unknown, shape?: RenderShape): ParsedRequest | undefined {
  if (!isRecord(body) || !Array.isArray(body.messages)) return undefined;
  const raw = (body.messages as unknown[]).filter(isRecord);
  const parsed: ParsedRequest = { messages: [] };
  const first = raw[0];
  if (shape?.instruction === true && first !== undefined && isSystem(first.role)) {
    parsed.instruction = contentText(first.content);
    raw.shift();
  }
  parsed.messages = raw.map((message, index) => toMessage(message, `sim-${index}`));
  const max = body.max_completion_tokens ?? body.max_tokens;
  if (typeof max === 'number') parsed.maxOutputTokens = max;
  const effort = body.reasoning_effort;
  if (isEffort(effort)) parsed.thinkingBudget = EFFORT_BUDGETS[effort];
  return parsed;
}

/**
 * What `parseOpenAIRequest` reads from the body `renderOpenAIRequest` makes of `canonical`, built
 * without the JSON round trip: the messages as sent (asSent), no thinking, ids by position, tool
 * call arguments as their JSON round trip. The in-process transport uses it for OpenAI calls; a
 * test holds it equal to parsing the rendered body. With `messages: false`, the request's settings
 * alone (its messages left empty), for an answer that does not read them.
 */
export function parsedFromCanonical(canonical: CanonicalCall, options: { messages?: boolean } = {}): ParsedRequest {
  const parsed: ParsedRequest = { messages: options.messages === false ? [] : canonical.messages.map(parsedAt) };
  if (canonical.instruction !== undefined && canonical.instruction !== '') parsed.instruction = canonical.instruction;
  if (canonical.maxOutputTokens !== undefined) parsed.maxOutputTokens = canonical.maxOutputTokens;
  if (canonical.reasoningEffort !== undefined) parsed.thinkingBudget = EFFORT_BUDGETS[canonical.reasoningEffort];
  return parsed;
}

/**
 * The parsed copy of each canonical message, per position (its id is `sim-<position>`): a request
 * re-sends the messages of the one before, so each copy is built once and is the same object in
 * every request, and the summarizer's per-message memos hit on it. A message that moves (a rolling
 * window shifts it at every step) keeps its latest few positions.
 */
const parsedCopies = runWeakMap<ContextMessage, Map<number, ContextMessage>>();
const POSITIONS_KEPT = 4;

function parsedAt(message: ContextMessage, index: number): ContextMessage {
  let copies = parsedCopies.get(message);
  const known = copies?.get(index);
  if (known !== undefined) return known;
  const parsed = asParsed(asSent(message), `sim-${index}`);
  if (copies === undefined) parsedCopies.set(message, (copies = new Map<number, ContextMessage>()));
  else if (copies.size >= POSITIONS_KEPT) copies.delete(copies.keys().next().value as number);
  copies.set(index, parsed);
  return parsed;
}

function asParsed(message: ContextMessage, id: string): ContextMessage {
  const { role, text } = message;
  if (role === 'system' || role === 'user') return { type: 'message', id, role, text };
  if (role === 'tool') return { type: 'message', id, role: 'tool', text, toolCallId: message.toolCallId ?? '' };
  const parsed: MessageDraft = { type: 'message', id, role: 'assistant', text };
  const calls = message.toolCalls ?? [];
  if (calls.length > 0) parsed.toolCalls = parsedCalls(calls);
  return parsed;
}

/** The round-tripped calls of each calls array, built once (calls are never changed once built). */
const roundTripped = runWeakMap<readonly ToolCall[], ToolCall[]>();

function parsedCalls(calls: readonly ToolCall[]): ToolCall[] {
  let parsed = roundTripped.get(calls);
  if (parsed === undefined) {
    parsed = calls.map((call) =>
      call.freeform === true && typeof call.args.input === 'string'
        ? { id: call.id, name: call.name, args: { input: call.args.input }, freeform: true as const }
        : { id: call.id, name: call.name, args: parseArguments(JSON.stringify(call.args)) },
    );
    roundTripped.set(calls, parsed);
  }
  return parsed;
}

function toMessage(raw: Record<string, unknown>, id: string): ContextMessage {
  const text = contentText(raw.content);
  const role = raw.role;
  if (isSystem(role)) return { type: 'message', id, role: 'system', text };
  if (role === 'tool') {
    const tool: MessageDraft = { type: 'message', id, role: 'tool', text };
    if (typeof raw.tool_call_id === 'string') tool.toolCallId = raw.tool_call_id;
    return tool;
  }
  if (role !== 'assistant') return { type: 'message', id, role: 'user', text };
  const message: MessageDraft = { type: 'message', id, role: 'assistant', text };
  const calls = Array.isArray(raw.tool_calls) ? (raw.tool_calls as unknown[]).filter(isRecord) : [];
  if (calls.length > 0) message.toolCalls = calls.map(toToolCall);
  return message;
}

function toToolCall(raw: Record<string, unknown>): ToolCall {
  const id = typeof raw.id === 'string' ? raw.id : '';
  // A custom (freeform) tool call carries its raw input, not JSON arguments.
  if (raw.type === 'custom' && isRecord(raw.custom)) {
    const { name, input } = raw.custom;
    return { id, name: typeof name === 'string' ? name : '', args: { input: typeof input === 'string' ? input : '' }, freeform: true };
  }
  const fn = isRecord(raw.function) ? raw.function : {};
  return {
    id,
    name: typeof fn.name === 'string' ? fn.name : '',
    args: parseArguments(fn.arguments),
  };
}

/** Content is a string, null beside tool calls, or an array of typed parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function isSystem(role: unknown): boolean {
  return role === 'system' || role === 'developer';
}
