import { basename, extname } from 'node:path';
import { z } from 'zod';
import type { RecordedUsage, Transcript } from '../types.js';
import type { Writable } from '../draft.js';
import type { ImportOptions, Importer } from './types.js';
import { createTranscriptBuilder, type TranscriptBuilder } from './shared/builder.js';
import { isRecord, parseHeadObjects, parseJsonObject, readHead, readJsonLines } from './shared/lines.js';
import { joinHead, readJsonDocument } from './shared/json-document.js';
import { partListText } from './shared/gemini-parts.js';
import { normalizeTime, parseShape } from './shared/validate.js';
import { withDerivedTasks } from '../tasks/derive.js';

const count = z.number().int().min(0).nullish();

const messageSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string(),
  timestamp: z.string().nullish(),
  content: z.unknown(),
  thoughts: z.array(z.looseObject({ subject: z.string().nullish(), description: z.string().nullish() })).nullish(),
  tokens: z.looseObject({ input: count, output: count, cached: count, thoughts: count, tool: count }).nullish(),
  model: z.string().nullish(),
  toolCalls: z
    .array(
      z.looseObject({
        id: z.string().min(1),
        name: z.string().min(1),
        args: z.record(z.string(), z.unknown()).nullish(),
        result: z.unknown(),
        timestamp: z.string().nullish(),
      }),
    )
    .nullish(),
});

type CliMessage = z.infer<typeof messageSchema>;

/** What a recording says once replayed: its metadata and its messages in order. */
interface Recording {
  sessionId?: string;
  messages: CliMessage[];
}

export const geminiCli: Importer = {
  name: 'gemini-cli',
  description: 'Gemini CLI chat recording (~/.gemini/tmp/<project>/chats/session-*.jsonl, or the older single-JSON .json)',
  detect(firstLines) {
    const isMetadata = (o: Record<string, unknown>): boolean => typeof o.sessionId === 'string' && typeof o.projectHash === 'string';
    if (parseHeadObjects(firstLines).some((o) => isMetadata(o) || isRecord(o.$set))) return true;
    const head = joinHead(firstLines);
    return head.startsWith('{') && /"sessionId"\s*:/.test(head) && /"projectHash"\s*:/.test(head);
  },
  async import(file: string, options: ImportOptions): Promise<Transcript> {
    const builder = createTranscriptBuilder({ file, format: 'gemini-cli', dialect: 'gemini', lenient: options.lenient });
    const recording = (await isSingleDocument(file)) ? await readSingleDocument(file, builder) : await replayRecording(file, builder);
    let model: string | undefined;
    for (const message of recording.messages) {
      const used = addMessage(builder, message);
      model ??= used;
    }
    return withDerivedTasks(builder.build({ id: recording.sessionId ?? basename(file, extname(file)), model }));
  },
};

/** The older format is one JSON document (`{sessionId, messages: [...]}`), usually pretty-printed. */
async function isSingleDocument(file: string): Promise<boolean> {
  const head = await readHead(file);
  const first = head[0]?.trim() ?? '';
  if (first === '{') return true;
  // A one-line document holds the messages; a recording's first line may too (`messages: []`), but is never alone.
  const parsed = parseJsonObject(first);
  return head.length === 1 && typeof parsed !== 'string' && Array.isArray(parsed.messages);
}

/** Read whole: a single JSON document can only be parsed whole. */
async function readSingleDocument(file: string, builder: TranscriptBuilder): Promise<Recording> {
  const document = await readJsonDocument(file, 'messages', builder);
  const messages: CliMessage[] = [];
  document.entries.forEach(({ line, value }, i) => {
    builder.attempt(() => messages.push(parseShape(messageSchema, value, { file, line, field: `messages.${i}` })));
  });
  const sessionId = isRecord(document.root) && typeof document.root.sessionId === 'string' ? document.root.sessionId : undefined;
  return { ...(sessionId !== undefined ? { sessionId } : {}), messages };
}

/**
 * Replays the append-only recording as Gemini CLI does when it resumes one: a message record
 * replaces an earlier copy of the same id (in its first place), `$rewindTo` drops that message and
 * everything after it, and a `$set` with `messages` replaces the whole list.
 */
async function replayRecording(file: string, builder: TranscriptBuilder): Promise<Recording> {
  const byId = new Map<string, CliMessage>();
  let replaced: CliMessage[] | undefined;
  let sessionId: string | undefined;
  for await (const { line, value } of readJsonLines(file, builder)) {
    builder.attempt(() => {
      if (typeof value.$rewindTo === 'string') rewind(byId, value.$rewindTo);
      else if (typeof value.id === 'string') byId.set(value.id, parseShape(messageSchema, value, { file, line }));
      else if (isRecord(value.$set)) replaced = setMessages(value.$set, { file, line, field: '$set.messages' }) ?? replaced;
      else if (typeof value.sessionId === 'string') {
        sessionId ??= value.sessionId;
        replaced = setMessages(value, { file, line, field: 'messages' }) ?? replaced;
      } else builder.countUnknown('record without id');
    });
  }
  return { ...(sessionId !== undefined ? { sessionId } : {}), messages: replaced ?? [...byId.values()] };
}

function rewind(byId: Map<string, CliMessage>, id: string): void {
  if (!byId.has(id)) {
    byId.clear();
    return;
  }
  let found = false;
  for (const key of [...byId.keys()]) {
    found ||= key === id;
    if (found) byId.delete(key);
  }
}

/** Metadata that carries a non-empty `messages` list replaces the conversation with it. */
function setMessages(metadata: Record<string, unknown>, where: { file: string; line: number; field: string }): CliMessage[] | undefined {
  const messages = metadata.messages;
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  return messages.map((message, i) => parseShape(messageSchema, message, { ...where, field: `${where.field}.${i}` }));
}

/** Adds one recorded message (with its tool results); returns the model of an assistant message. */
function addMessage(builder: TranscriptBuilder, message: CliMessage): string | undefined {
  const at = normalizeTime(message.timestamp);
  if (message.type === 'user') {
    builder.addMessage({ id: message.id, role: 'user', text: partListText(message.content), at });
    return undefined;
  }
  if (message.type !== 'gemini') {
    // info, error and warning lines are the CLI's notices to the user, never sent to the model.
    builder.countUnknown(message.type);
    return undefined;
  }
  const model = message.model ?? undefined;
  const thinking = thoughtsText(message.thoughts);
  const usage = convertTokens(message.tokens);
  const assistant = builder.addMessage({ id: message.id, role: 'assistant', text: partListText(message.content), thinking, at, model, usage });
  // Gemini 3 re-sends a call's reasoning (through its thought signature, not the summary the log
  // keeps) as input on every later call of the same turn and drops it at the next user message —
  // the recorded input falls by the turn's `thoughts` when a new turn starts. Its size is `thoughts`.
  if (usage?.reasoning !== undefined && usage.reasoning > 0) assistant.reasoningTokens = usage.reasoning;
  const calls = message.toolCalls ?? [];
  for (const call of calls) builder.addToolCall(assistant, { callId: call.id, name: call.name, args: call.args ?? {} });
  for (const call of calls) {
    if (call.result == null) continue;
    builder.addToolResult({
      id: `${message.id}/${call.id}`,
      callId: call.id,
      name: call.name,
      text: partListText(call.result),
      at: normalizeTime(call.timestamp) ?? at,
    });
  }
  return model;
}

function thoughtsText(thoughts: CliMessage['thoughts']): string | undefined {
  const texts = (thoughts ?? []).map((t) => [t.subject, t.description].filter((s) => s != null && s !== '').join('\n')).filter((t) => t !== '');
  return texts.length === 0 ? undefined : texts.join('\n\n');
}

/**
 * Gemini's prompt count already includes the cached tokens (`cached` is a part of `input`), as the
 * canonical `input` does. `tool` counts the prompt of tool use (grounding results), billed as
 * input beside the prompt, so it is added to it; `thoughts` is the reasoning output.
 */
function convertTokens(tokens: CliMessage['tokens']): RecordedUsage | undefined {
  if (tokens == null) return undefined;
  const usage: Writable<RecordedUsage> = { input: (tokens.input ?? 0) + (tokens.tool ?? 0), output: tokens.output ?? 0 };
  if (tokens.cached != null) usage.cachedInput = tokens.cached;
  if (tokens.thoughts != null) usage.reasoning = tokens.thoughts;
  return usage;
}
