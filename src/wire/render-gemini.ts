import type { Content, Part } from '@google/genai';
import type { ContextMessage } from '../transcript/types.js';
import type { RenderShape } from './render-shape.js';
import { asSent } from '../transcript/sent-as-text.js';

/** A canonical context in Gemini's own format, ready for `models.generateContent`. */
export interface GeminiRendering {
  contents: Content[];
  systemInstruction?: Content;
  shape: RenderShape;
}

/**
 * Renders canonical messages as Gemini `contents`: system text (after the request instruction) goes
 * to `systemInstruction`; assistants become `model` turns with their thought part, text and
 * function calls; tool results become `functionResponse` parts of a `user` turn. Adjacent turns of
 * one role are merged, because Gemini pairs a function-call turn with the single next user turn
 * that holds all of its responses.
 */
export function renderGeminiRequest(messages: readonly ContextMessage[], instruction?: string): GeminiRendering {
  const systemParts: Part[] = [];
  const hasInstruction = instruction !== undefined && instruction !== '';
  if (hasInstruction) systemParts.push({ text: instruction });
  const contents: Content[] = [];
  const partsPerMessage: number[] = [];
  const toolNames = collectToolNames(messages);
  for (const original of messages) {
    const message = asSent(original);
    if (message.role === 'system') {
      systemParts.push({ text: message.text });
      continue;
    }
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts = message.role === 'assistant' ? renderAssistantParts(message) : renderUserParts(message, toolNames);
    partsPerMessage.push(parts.length);
    appendMerged(contents, role, parts);
  }
  const rendering: GeminiRendering = { contents, shape: { instruction: hasInstruction, partsPerMessage } };
  if (systemParts.length > 0) rendering.systemInstruction = { role: 'user', parts: systemParts };
  return rendering;
}

function appendMerged(contents: Content[], role: 'user' | 'model', parts: Part[]): void {
  const last = contents[contents.length - 1];
  if (last?.role === role) {
    last.parts = [...(last.parts ?? []), ...parts];
  } else {
    contents.push({ role, parts });
  }
}

/** Thought part, text part, function calls; the signature rides on the first call, else on the thought. */
function renderAssistantParts(message: ContextMessage): Part[] {
  const parts: Part[] = [];
  const thought: Part | undefined = message.thinking !== undefined && message.thinking !== '' ? { text: message.thinking, thought: true } : undefined;
  if (thought !== undefined) parts.push(thought);
  const text: Part | undefined = message.text !== '' ? { text: message.text } : undefined;
  if (text !== undefined) parts.push(text);
  const calls: Part[] = (message.toolCalls ?? []).map((call) => ({
    functionCall: { id: call.id, name: call.name, args: call.args },
  }));
  parts.push(...calls);
  // A turn must have at least one part; an empty completion is sent as an empty text.
  if (parts.length === 0) parts.push({ text: '' });
  const signed = calls[0] ?? thought ?? parts[0];
  if (message.thoughtSignature !== undefined && signed !== undefined) signed.thoughtSignature = message.thoughtSignature;
  return parts;
}

function renderUserParts(message: ContextMessage, toolNames: Map<string, string>): Part[] {
  if (message.role !== 'tool') return [{ text: message.text }];
  const id = message.toolCallId;
  const name = message.toolName ?? (id !== undefined ? toolNames.get(id) : undefined) ?? 'tool';
  return [{ functionResponse: { ...(id !== undefined ? { id } : {}), name, response: { output: message.text } } }];
}

/** Tool results that lost their `toolName` take it from the call they answer (Gemini requires one). */
function collectToolNames(messages: readonly ContextMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) names.set(call.id, call.name);
  }
  return names;
}
