import type { ToolCall } from '../transcript/types.js';
import type { MessageDraft } from '../transcript/draft.js';
import type { RenderShape } from '../wire/render-shape.js';
import type { ParsedRequest } from './types.js';

interface RawPart {
  text?: unknown;
  thought?: unknown;
  thoughtSignature?: unknown;
  functionCall?: { id?: unknown; name?: unknown; args?: unknown };
  functionResponse?: { id?: unknown; name?: unknown; response?: unknown };
}

interface RolePart {
  role: 'user' | 'model';
  part: RawPart;
}

/**
 * Reads a `generateContent` body back into canonical messages: what the real model would see.
 * Returns undefined when the body is not a Gemini request. Without a shape, message boundaries
 * inside merged turns are guessed (a model message is thought, text, then calls).
 */
export function parseGeminiRequest(body: unknown, shape?: RenderShape): ParsedRequest | undefined {
  if (!isRecord(body) || !Array.isArray(body.contents)) return undefined;
  const messages: MessageDraft[] = [];
  const parsed: ParsedRequest = { messages };
  const systemTexts = readParts(body.systemInstruction).map((part) => textOf(part));
  if (shape?.instruction === true && systemTexts.length > 0) parsed.instruction = systemTexts.shift();
  for (const text of systemTexts) messages.push({ type: 'message', id: '', role: 'system', text });
  const flat = flattenContents(body.contents);
  for (const group of groupParts(flat, shape?.partsPerMessage)) messages.push(toMessage(group));
  messages.forEach((message, index) => (message.id = `sim-${index}`));
  const generation = body.generationConfig;
  const max = isRecord(generation) ? generation.maxOutputTokens : undefined;
  if (typeof max === 'number') parsed.maxOutputTokens = max;
  const thinking = isRecord(generation) ? generation.thinkingConfig : undefined;
  const budget = isRecord(thinking) ? thinking.thinkingBudget : undefined;
  if (typeof budget === 'number' && budget >= 0) parsed.thinkingBudget = budget;
  return parsed;
}

/** Where a model turn of the current turn lost its thought signature, as the real API reports it. */
export interface UnsignedCall {
  name: string;
  /** 1-based index of the content in `contents`. */
  position: number;
}

/**
 * Gemini validates the thought signatures of the current turn: every model content since the last
 * user text must carry a signature on its first function-call part. Older turns are not checked.
 */
export function findUnsignedCall(body: unknown): UnsignedCall | undefined {
  if (!isRecord(body) || !Array.isArray(body.contents)) return undefined;
  const contents = body.contents as unknown[];
  let turnStart = 0;
  contents.forEach((content, index) => {
    const parts = readParts(content);
    if (roleOf(content) === 'user' && parts.some((part) => part.functionResponse === undefined)) turnStart = index + 1;
  });
  for (let index = turnStart; index < contents.length; index++) {
    const content = contents[index];
    if (roleOf(content) !== 'model') continue;
    const firstCall = readParts(content).find((part) => part.functionCall !== undefined);
    if (firstCall !== undefined && typeof firstCall.thoughtSignature !== 'string') {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a name from the request body, a string when valid
      return { name: String(firstCall.functionCall?.name ?? ''), position: index + 1 };
    }
  }
  return undefined;
}

function flattenContents(contents: unknown[]): RolePart[] {
  const flat: RolePart[] = [];
  for (const content of contents) {
    const role = roleOf(content);
    for (const part of readParts(content)) flat.push({ role, part });
  }
  return flat;
}

/** Cuts the flat part list into messages: by the shape when it fits, else by the part order. */
function groupParts(flat: RolePart[], partsPerMessage: number[] | undefined): RolePart[][] {
  if (partsPerMessage?.reduce((a, b) => a + b, 0) === flat.length) {
    const groups: RolePart[][] = [];
    let offset = 0;
    for (const size of partsPerMessage) {
      groups.push(flat.slice(offset, offset + size));
      offset += size;
    }
    if (groups.every((group) => group.length > 0 && group.every((item) => item.role === group[0]?.role))) return groups;
  }
  return guessGroups(flat);
}

function guessGroups(flat: RolePart[]): RolePart[][] {
  const groups: RolePart[][] = [];
  let previousRank = Number.POSITIVE_INFINITY;
  for (const item of flat) {
    const current = groups[groups.length - 1];
    const rank = rankOf(item.part);
    const last = current?.[current.length - 1];
    const continues = current !== undefined && last?.role === 'model' && item.role === 'model' && (rank > previousRank || (rank === 2 && previousRank === 2));
    if (continues) current.push(item);
    else groups.push([item]);
    previousRank = rank;
  }
  return groups;
}

/** The order of parts inside one rendered model message: thought, text, function calls. */
function rankOf(part: RawPart): number {
  if (part.functionCall !== undefined) return 2;
  return part.thought === true ? 0 : 1;
}

function toMessage(group: RolePart[]): MessageDraft {
  const first = group[0]?.part ?? {};
  if (group[0]?.role === 'user') {
    const response = first.functionResponse;
    if (response === undefined) return { type: 'message', id: '', role: 'user', text: textOf(first) };
    const tool: MessageDraft = { type: 'message', id: '', role: 'tool', text: responseText(response.response) };
    if (typeof response.id === 'string') tool.toolCallId = response.id;
    if (typeof response.name === 'string') tool.toolName = response.name;
    return tool;
  }
  return toAssistant(group.map((item) => item.part));
}

function toAssistant(parts: RawPart[]): MessageDraft {
  let text = '';
  let thinking: string | undefined;
  const toolCalls: ToolCall[] = [];
  let thoughtSignature: string | undefined;
  for (const part of parts) {
    if (thoughtSignature === undefined && typeof part.thoughtSignature === 'string') thoughtSignature = part.thoughtSignature;
    const call = part.functionCall;
    if (call !== undefined) {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a name from the request body, a string when valid
      const name = String(call.name ?? '');
      const id = typeof call.id === 'string' ? call.id : `${name}-${toolCalls.length}`;
      toolCalls.push({ id, name, args: isRecord(call.args) ? call.args : {} });
    } else if (part.thought === true) {
      thinking = (thinking ?? '') + textOf(part);
    } else {
      text += textOf(part);
    }
  }
  const message: MessageDraft = { type: 'message', id: '', role: 'assistant', text };
  if (thinking !== undefined) message.thinking = thinking;
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  if (thoughtSignature !== undefined) message.thoughtSignature = thoughtSignature;
  return message;
}

function responseText(response: unknown): string {
  if (isRecord(response) && typeof response.output === 'string') return response.output;
  return JSON.stringify(response ?? {});
}

function readParts(content: unknown): RawPart[] {
  if (!isRecord(content) || !Array.isArray(content.parts)) return [];
  return (content.parts as unknown[]).filter(isRecord) as RawPart[];
}

function roleOf(content: unknown): 'user' | 'model' {
  return isRecord(content) && content.role === 'model' ? 'model' : 'user';
}

function textOf(part: RawPart): string {
  return typeof part.text === 'string' ? part.text : '';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
