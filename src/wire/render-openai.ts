import { runWeakMap } from '../memo.js';
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import type { ContextMessage, ToolCall } from '../transcript/types.js';
import type { RenderShape } from './render-shape.js';
import { asSent } from '../transcript/sent-as-text.js';

export interface OpenAIRendering {
  messages: ChatCompletionMessageParam[];
  shape: RenderShape;
}

/** The request fields beside `messages`, in the order the body carries them. */
export interface OpenAIRequestFields {
  model: string;
  maxCompletionTokens?: number;
  reasoningEffort?: string;
}

/**
 * The chat-completions request body as JSON text: exactly `JSON.stringify` of
 * `{ model, messages, max_completion_tokens?, reasoning_effort? }` with `messages` as
 * `renderOpenAIRequest` renders them, but each message encoded once per run (messages are never
 * changed once built, and every step and strategy re-sends most of them). Serializing the whole
 * body at every step made a replay quadratic in the session's length.
 */
export function encodeOpenAIBody(messages: readonly ContextMessage[], fields: OpenAIRequestFields, instruction?: string): string {
  // Built with `+`, not `join`: V8 keeps the concatenation as a tree of the memoized pieces until
  // something reads it, so a body the in-process simulator never reads is never copied.
  let list = instruction !== undefined && instruction !== '' ? JSON.stringify({ role: 'system', content: instruction }) : '';
  for (const message of messages) list = list === '' ? encodedMessage(message) : list + ',' + encodedMessage(message);
  let body = '{"model":' + JSON.stringify(fields.model) + ',"messages":[' + list + ']';
  if (fields.maxCompletionTokens !== undefined) body += ',"max_completion_tokens":' + JSON.stringify(fields.maxCompletionTokens);
  if (fields.reasoningEffort !== undefined) body += ',"reasoning_effort":' + JSON.stringify(fields.reasoningEffort);
  return body + '}';
}

const encodedMessages = runWeakMap<ContextMessage, string>();

function encodedMessage(message: ContextMessage): string {
  let encoded = encodedMessages.get(message);
  if (encoded === undefined) {
    encoded = JSON.stringify(renderMessage(asSent(message)));
    encodedMessages.set(message, encoded);
  }
  return encoded;
}

/**
 * Renders canonical messages as chat-completions `messages`, one for one, the request instruction
 * first as a system message. Thinking is not sent: chat completions cannot carry it back.
 */
export function renderOpenAIRequest(messages: readonly ContextMessage[], instruction?: string): OpenAIRendering {
  const rendered: ChatCompletionMessageParam[] = [];
  const hasInstruction = instruction !== undefined && instruction !== '';
  if (hasInstruction) rendered.push({ role: 'system', content: instruction });
  for (const message of messages) rendered.push(renderMessage(asSent(message)));
  return { messages: rendered, shape: { instruction: hasInstruction } };
}

function renderMessage(message: ContextMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.text };
    case 'user':
      return { role: 'user', content: message.text };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.text };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.text };
      return {
        role: 'assistant',
        // The API wants null, not "", beside tool calls when there is no text.
        content: message.text === '' ? null : message.text,
        tool_calls: calls.map(renderToolCall),
      };
    }
  }
}

/** A freeform tool's call carries its raw input (a custom tool call); any other, JSON arguments. */
function renderToolCall(call: ToolCall): ChatCompletionMessageToolCall {
  const input = call.args.input;
  if (call.freeform === true && typeof input === 'string') return { id: call.id, type: 'custom', custom: { name: call.name, input } };
  return { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } };
}

/** Tool-call arguments are a JSON string; one that is not JSON is kept whole under `arguments`. */
export function parseArguments(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string' || raw === '') return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { arguments: parsed };
  } catch {
    return { arguments: raw };
  }
}
