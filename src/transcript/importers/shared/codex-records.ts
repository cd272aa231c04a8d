import { z } from 'zod';
import type { InputLocation } from '../../../errors.js';
import type { RecordedUsage } from '../../types.js';
import type { Writable } from '../../draft.js';
import { parseArguments } from './chat-completions.js';
import { parseShape } from './validate.js';

/** One Codex rollout line, checked and reduced to what the importer maps. */
export type CodexRecord =
  | { kind: 'meta'; id: string; instructions?: string }
  | { kind: 'model'; model?: string }
  | { kind: 'input'; role: 'user' | 'system'; text: string }
  | {
      kind: 'output';
      text?: string;
      thinking?: string;
      encryptedReasoning?: true;
      call?: { callId: string; name: string; args: Record<string, unknown>; freeform?: true };
    }
  | { kind: 'result'; callId: string; text: string }
  | { kind: 'usage'; usage: RecordedUsage; totalKey?: string; contextWindow?: number }
  | { kind: 'compacted'; summary?: string }
  | { kind: 'event'; type: string }
  | { kind: 'unknown'; type: string };

const typed = z.looseObject({ type: z.string() });
const textItems = z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).nullish();
const count = z.number().int().min(0).nullish();
const tokenUsage = z.looseObject({ input_tokens: count, cached_input_tokens: count, output_tokens: count, reasoning_output_tokens: count });

const schemas = {
  line: z.looseObject({ type: z.string(), payload: z.unknown() }),
  session_meta: z.looseObject({ id: z.string().min(1), instructions: z.string().nullish() }),
  turn_context: z.looseObject({ model: z.string().nullish() }),
  compacted: z.looseObject({ message: z.string().nullish() }),
  token_count: z.looseObject({
    info: z
      .looseObject({ last_token_usage: tokenUsage, total_token_usage: tokenUsage.nullish(), model_context_window: z.number().int().positive().nullish() })
      .nullish(),
  }),
  message: z.looseObject({ role: z.string(), content: textItems }),
  reasoning: z.looseObject({ summary: textItems, content: textItems, encrypted_content: z.string().nullish() }),
  function_call: z.looseObject({
    name: z.string().min(1),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
    call_id: z.string().min(1),
  }),
  custom_tool_call: z.looseObject({ name: z.string().min(1), input: z.string().nullish(), call_id: z.string().min(1) }),
  call_output: z.looseObject({ call_id: z.string().min(1), output: z.unknown() }),
};

/** Checks one rollout line and reduces it to a CodexRecord. @throws InputError naming the field. */
export function parseCodexLine(file: string, line: number, value: unknown): CodexRecord {
  const where: InputLocation = { file, line };
  const record = parseShape(schemas.line, value, where);
  const at = { file, line, field: 'payload' };
  switch (record.type) {
    case 'session_meta': {
      const meta = parseShape(schemas.session_meta, record.payload, at);
      return { kind: 'meta', id: meta.id, ...(meta.instructions ? { instructions: meta.instructions } : {}) };
    }
    case 'turn_context': {
      const model = parseShape(schemas.turn_context, record.payload, at).model;
      return { kind: 'model', ...(model ? { model } : {}) };
    }
    case 'compacted': {
      const summary = parseShape(schemas.compacted, record.payload, at).message;
      return { kind: 'compacted', ...(summary ? { summary } : {}) };
    }
    case 'event_msg':
      return parseEvent(record.payload, at);
    case 'response_item':
      return parseResponseItem(record.payload, at);
    default:
      return { kind: 'unknown', type: record.type };
  }
}

function parseEvent(payload: unknown, at: InputLocation): CodexRecord {
  const type = parseShape(typed, payload, at).type;
  if (type !== 'token_count') return { kind: 'event', type };
  const info = parseShape(schemas.token_count, payload, at).info;
  // Rate-limit-only reports carry no usage.
  if (info == null) return { kind: 'event', type };
  return {
    kind: 'usage',
    usage: convertUsage(info.last_token_usage),
    ...(info.total_token_usage != null ? { totalKey: JSON.stringify(info.total_token_usage) } : {}),
    ...(info.model_context_window != null ? { contextWindow: info.model_context_window } : {}),
  };
}

function parseResponseItem(payload: unknown, at: InputLocation): CodexRecord {
  const type = parseShape(typed, payload, at).type;
  switch (type) {
    case 'message': {
      const message = parseShape(schemas.message, payload, at);
      const text = joinText(message.content);
      if (message.role === 'assistant') return { kind: 'output', ...(text !== undefined ? { text } : {}) };
      return { kind: 'input', role: message.role === 'user' ? 'user' : 'system', text: text ?? '' };
    }
    case 'reasoning': {
      const reasoning = parseShape(schemas.reasoning, payload, at);
      const thinking = joinText([...(reasoning.summary ?? []), ...(reasoning.content ?? [])]);
      // Encrypted content is what the agent can send back within the turn; without it the
      // reasoning stays with the provider and is never input again.
      const encrypted = typeof reasoning.encrypted_content === 'string' && reasoning.encrypted_content !== '';
      return { kind: 'output', ...(thinking !== undefined ? { thinking } : {}), ...(encrypted ? { encryptedReasoning: true as const } : {}) };
    }
    case 'function_call': {
      const call = parseShape(schemas.function_call, payload, at);
      return { kind: 'output', call: { callId: call.call_id, name: call.name, args: parseArguments(call.arguments) } };
    }
    case 'custom_tool_call': {
      const call = parseShape(schemas.custom_tool_call, payload, at);
      // A freeform tool takes one string (a patch, a script): the model wrote it raw, not as JSON.
      return { kind: 'output', call: { callId: call.call_id, name: call.name, args: { input: call.input ?? '' }, freeform: true } };
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const result = parseShape(schemas.call_output, payload, at);
      return { kind: 'result', callId: result.call_id, text: asSentToModel(outputText(result.output)) };
    }
    default:
      return { kind: 'unknown', type: `response_item:${type}` };
  }
}

/** OpenAI's `input_tokens` already include the cached ones, as the canonical `input` does. */
function convertUsage(usage: z.infer<typeof tokenUsage>): RecordedUsage {
  const result: Writable<RecordedUsage> = { input: usage.input_tokens ?? 0, output: usage.output_tokens ?? 0 };
  if (usage.cached_input_tokens != null) result.cachedInput = usage.cached_input_tokens;
  if (usage.reasoning_output_tokens != null) result.reasoning = usage.reasoning_output_tokens;
  return result;
}

function joinText(items: z.infer<typeof textItems>): string | undefined {
  const texts = (items ?? []).flatMap((item) => (typeof item.text === 'string' && item.text !== '' ? [item.text] : []));
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** A call's output: a string, `{content}` (newer rollouts), or a list of content items. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output))
    return (
      joinText(
        z
          .array(z.looseObject({ type: z.string(), text: z.string().optional() }))
          .catch([])
          .parse(output),
      ) ?? ''
    );
  if (typeof output === 'object' && output !== null && typeof (output as { content?: unknown }).content === 'string') {
    return (output as { content: string }).content;
  }
  return output === undefined || output === null ? '' : JSON.stringify(output);
}

/** Codex's cap on a call output as the model gets it (codex-rs `MODEL_FORMAT_MAX_BYTES`, `MODEL_FORMAT_MAX_LINES`). */
const MODEL_MAX_BYTES = 10 * 1024;
const MODEL_MAX_LINES = 256;

/**
 * A call output as Codex put it in the model's history. The rollout keeps the output whole, but
 * Codex (0.5x) cuts every output again as it records it for the model: past 10 KiB or 256 lines,
 * the model gets `Total output lines: N`, the first 128 lines within 5 KiB, a marker, and the last
 * lines within what is left of the 10 KiB. A shell output is one JSON line (`{"output":…}`), so a
 * long one keeps its first 5 KiB only: counting the whole of it read these steps up to 2× high.
 */
function asSentToModel(text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  const lines = text.split('\n');
  if (bytes <= MODEL_MAX_BYTES && lines.length <= MODEL_MAX_LINES) return text;
  const segments = text.split(/(?<=\n)/);
  const headCount = Math.min(MODEL_MAX_LINES / 2, segments.length);
  const tailCount = Math.min(MODEL_MAX_LINES / 2, segments.length - headCount);
  const head = takeBytes(segments.slice(0, headCount).join(''), MODEL_MAX_BYTES / 2);
  const tailSegments = segments.slice(segments.length - tailCount);
  const tail = takeLastBytes(tailSegments.join(''), MODEL_MAX_BYTES - Buffer.byteLength(head, 'utf8'));
  const omitted = segments.length - headCount - tailCount;
  return `Total output lines: ${lines.length}\n\n${head}\n[... omitted ${omitted} of ${lines.length} lines ...]\n\n${tail}`;
}

/** The longest prefix of `text` within `max` UTF-8 bytes, cut at a character boundary. */
function takeBytes(text: string, max: number): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= max) return text;
  return new TextDecoder('utf-8', { fatal: false }).decode(buffer.subarray(0, max)).replace(/\uFFFD$/, '');
}

/** The longest suffix of `text` within `max` UTF-8 bytes, cut at a character boundary. */
function takeLastBytes(text: string, max: number): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= max) return text;
  return new TextDecoder('utf-8', { fatal: false }).decode(buffer.subarray(buffer.length - max)).replace(/^\uFFFD/, '');
}
