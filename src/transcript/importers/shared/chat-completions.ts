import { z } from 'zod';
import type { RecordedUsage } from '../../types.js';
import type { TranscriptBuilder } from './builder.js';
import { isRecord } from './lines.js';

const argumentsSchema = z.union([z.string(), z.record(z.string(), z.unknown())]).nullish();

const chatToolCallSchema = z.looseObject({
  id: z.string().min(1),
  function: z.looseObject({ name: z.string().min(1), arguments: argumentsSchema }),
});

const chatContentSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).nullish();

/** The fields of an OpenAI chat-completions message that the importers read. */
export const chatMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: chatContentSchema,
  tool_calls: z.array(chatToolCallSchema).nullish(),
  /** The legacy single call, before `tool_calls`. */
  function_call: z.looseObject({ name: z.string().min(1), arguments: argumentsSchema }).nullish(),
  tool_call_id: z.string().min(1).nullish(),
  /** SWE-agent's spelling: the calls an observation answers. */
  tool_call_ids: z.array(z.string().min(1)).nullish(),
  name: z.string().nullish(),
  /** Reasoning text some OpenAI-compatible servers return beside the content. */
  reasoning_content: z.string().nullish(),
});

export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** What the source knows about a message beyond the chat fields. */
export interface ChatMessageMeta {
  id: string;
  at?: string;
  model?: string;
  usage?: RecordedUsage;
}

/** Adds one chat-completions message as canonical events (a tool message per call it answers). */
export function addChatMessage(builder: TranscriptBuilder, message: ChatMessage, meta: ChatMessageMeta): void {
  const text = chatContentText(message.content);
  const { id, at } = meta;
  if (message.role === 'system' || message.role === 'developer') {
    builder.addMessage({ id, role: 'system', text, at });
  } else if (message.role === 'user') {
    builder.addMessage({ id, role: 'user', text, at });
  } else if (message.role === 'assistant') {
    const thinking = message.reasoning_content ?? undefined;
    const added = builder.addMessage({ id, role: 'assistant', text, thinking, at, model: meta.model, usage: meta.usage });
    for (const call of message.tool_calls ?? []) {
      builder.addToolCall(added, { callId: call.id, name: call.function.name, args: parseArguments(call.function.arguments) });
    }
    if (message.function_call) {
      const call = message.function_call;
      builder.addToolCall(added, { callId: `${id}/function_call`, name: call.name, args: parseArguments(call.arguments) });
    }
  } else {
    addChatToolResults(builder, message, text, meta);
  }
}

function addChatToolResults(builder: TranscriptBuilder, message: ChatMessage, text: string, meta: ChatMessageMeta): void {
  const name = message.name ?? undefined;
  const callIds = message.tool_call_ids ?? (message.tool_call_id ? [message.tool_call_id] : []);
  if (callIds.length === 0) {
    // The legacy `function` role answers by name.
    builder.addToolResult({ id: meta.id, name, text, at: meta.at });
    return;
  }
  // Every call needs its own result for the history to be valid; one observation may answer several.
  callIds.forEach((callId, k) => {
    builder.addToolResult({ id: k === 0 ? meta.id : `${meta.id}/${k}`, callId, name, text, at: meta.at });
  });
}

/** The text of a chat content: the string, or the text parts joined; other parts as `[type]`. */
export function chatContentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (content == null) return '';
  return content.map((part) => (typeof part.text === 'string' ? part.text : `[${part.type}]`)).join('\n');
}

/**
 * Tool-call arguments as an object. Models do emit broken argument JSON, and freeform tools take a
 * plain string; the call still happened, so such arguments are kept whole under `input`.
 */
export function parseArguments(raw: unknown): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return isRecord(value) ? value : { input: value };
  } catch {
    return { input: raw };
  }
}
