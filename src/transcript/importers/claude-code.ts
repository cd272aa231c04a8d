import { basename } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../errors.js';
import type { CompactionEvent, RecordedUsage, Transcript } from '../types.js';
import type { MessageDraft, Writable } from '../draft.js';
import type { ImportOptions, Importer } from './types.js';
import { mergeAdjacentUserMessages } from './shared/merge-user-turns.js';
import { createTranscriptBuilder, type TranscriptBuilder } from './shared/builder.js';
import { parseHeadObjects, readJsonLines, type JsonLine } from './shared/lines.js';
import { normalizeTime, parseShape } from './shared/validate.js';
import { withDerivedTasks } from '../tasks/derive.js';
import { BOUNDED_MAX_FILES, createFileState, noteToolCall, noteToolResult, restoreAfterCompaction, type FileState } from '../claude-restored.js';

const blockSchema = z.looseObject({ type: z.string() });
const contentSchema = z.union([z.string(), z.array(blockSchema)]);

const knownBlockSchemas = {
  text: z.looseObject({ type: z.literal('text'), text: z.string() }),
  thinking: z.looseObject({ type: z.literal('thinking'), thinking: z.string() }),
  tool_use: z.looseObject({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.record(z.string(), z.unknown()).nullish() }),
  tool_result: z.looseObject({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: contentSchema.nullish(),
    is_error: z.boolean().nullish(),
  }),
};

const usageSchema = z.looseObject({
  input_tokens: z.number().int().min(0).nullish(),
  cache_creation_input_tokens: z.number().int().min(0).nullish(),
  cache_read_input_tokens: z.number().int().min(0).nullish(),
  output_tokens: z.number().int().min(0).nullish(),
});

const lineSchema = z.looseObject({
  type: z.string(),
  uuid: z.string().min(1).optional(),
  parentUuid: z.string().nullish(),
  sessionId: z.string().min(1).optional(),
  timestamp: z.string().optional(),
  isSidechain: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  subtype: z.string().optional(),
  summary: z.string().optional(),
  compactMetadata: z.looseObject({ preTokens: z.number().int().min(0).optional() }).optional(),
  message: z.looseObject({ id: z.string().min(1).optional(), model: z.string().optional(), content: contentSchema, usage: usageSchema.nullish() }).optional(),
});

type ClaudeLine = z.infer<typeof lineSchema>;

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { kind: 'tool_result'; callId: string; text: string; isError: boolean }
  | { kind: 'other'; type: string };

/** One line, checked and flattened; `apply` trusts it. */
interface ParsedLine {
  line: number;
  record: ClaudeLine;
  blocks: Block[];
  at: string | undefined;
}

interface ClaudeState {
  sessionId?: string;
  title?: string;
  model?: string;
  /** Assistant messages by API `message.id`: Claude Code writes one line per content block. */
  byApiId: Map<string, MessageDraft>;
  seenUuids: Set<string>;
  /** The last compaction, until the summary line that follows its boundary arrives. */
  openCompaction?: Writable<CompactionEvent>;
  /** A message of this file's conversation was read: a summary before any is the copy that opens a continued file. */
  hasHistory: boolean;
  /** Reading one subagent conversation: its sidechain lines are the context. */
  asSidechain: boolean;
  /** TodoWrite calls by id: their results went to the model with the list attached (see todoReminder). */
  todoWrites: Map<string, unknown>;
  /** The files read or written so far and the todo list: what a compaction re-attaches (claude-restored.ts). */
  fileState: FileState;
}

export const claudeCode: Importer = {
  name: 'claude-code',
  description: 'Claude Code session log (~/.claude/projects/*/<session>.jsonl)',
  detect(firstLines) {
    return parseHeadObjects(firstLines).some(
      (o) =>
        (typeof o.sessionId === 'string' && (typeof o.uuid === 'string' || o.type === 'queue-operation')) ||
        (o.type === 'summary' && typeof o.leafUuid === 'string'),
    );
  },
  async import(file: string, options: ImportOptions): Promise<Transcript> {
    const builder = createTranscriptBuilder({ file, format: 'claude-code', dialect: 'anthropic', lenient: options.lenient });
    return buildClaudeTranscript(builder, readJsonLines(file, builder), false);
  },
};

/**
 * The transcript of Claude Code lines. `asSidechain`: the lines are one subagent conversation
 * (claude-sidechains.ts picks them out), read as a context of its own; otherwise sidechain lines
 * are left out of the main context and counted.
 */
export async function buildClaudeTranscript(
  builder: TranscriptBuilder,
  lines: AsyncIterable<JsonLine> | Iterable<JsonLine>,
  asSidechain: boolean,
): Promise<Transcript> {
  const state: ClaudeState = { byApiId: new Map(), seenUuids: new Set(), asSidechain, todoWrites: new Map(), hasHistory: false, fileState: createFileState() };
  for await (const { line, value } of lines) {
    builder.attempt(() => applyLine(builder, state, parseLine(builder.file, line, value)));
  }
  const transcript = builder.build({ id: state.sessionId ?? basename(builder.file, '.jsonl'), title: state.title, model: state.model });
  return withDerivedTasks({ ...transcript, events: mergeAdjacentUserMessages(transcript.events) });
}

function parseLine(file: string, line: number, value: unknown): ParsedLine {
  const record = parseShape(lineSchema, value, { file, line });
  const content = record.message?.content;
  if ((record.type === 'user' || record.type === 'assistant') && content === undefined) {
    throw new InputError({ file, line, field: 'message' }, `a ${record.type} line needs a message`);
  }
  const blocks =
    typeof content === 'string'
      ? [{ kind: 'text' as const, text: content }]
      : (content ?? []).map((block, i) => parseBlock(block, { file, line, field: `message.content.${i}` }));
  return { line, record, blocks, at: normalizeTime(record.timestamp) };
}

function parseBlock(block: { type: string }, where: { file: string; line: number; field: string }): Block {
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: parseShape(knownBlockSchemas.text, block, where).text };
    case 'thinking':
      return { kind: 'thinking', text: parseShape(knownBlockSchemas.thinking, block, where).thinking };
    case 'tool_use': {
      const use = parseShape(knownBlockSchemas.tool_use, block, where);
      return { kind: 'tool_use', id: use.id, name: use.name, input: use.input ?? {} };
    }
    case 'tool_result': {
      const result = parseShape(knownBlockSchemas.tool_result, block, where);
      return { kind: 'tool_result', callId: result.tool_use_id, text: resultText(result.content), isError: result.is_error === true };
    }
    default:
      return { kind: 'other', type: block.type };
  }
}

function applyLine(builder: TranscriptBuilder, state: ClaudeState, parsed: ParsedLine): void {
  const { record } = parsed;
  // A resumed session's file starts with copies of lines it continues (same uuid, the new
  // sessionId): the file belongs to the last session, and a copy is the same message again.
  if (record.sessionId !== undefined) state.sessionId = record.sessionId;
  if (record.uuid !== undefined) {
    if (state.seenUuids.has(record.uuid)) return;
    state.seenUuids.add(record.uuid);
  }
  if (record.isSidechain === true && !state.asSidechain) {
    // A subagent's own conversation, interleaved in older logs: not part of the main context.
    builder.countUnknown(`${record.type} (sidechain)`);
  } else if (record.type === 'user') {
    applyUser(builder, state, parsed);
  } else if (record.type === 'assistant') {
    applyAssistant(builder, state, parsed);
  } else if (record.type === 'system' && record.subtype === 'compact_boundary') {
    const id = record.uuid ?? `line-${parsed.line}`;
    state.openCompaction = builder.addCompaction({ id, tokensBefore: record.compactMetadata?.preTokens, at: parsed.at });
  } else if (record.type === 'summary' && record.summary !== undefined) {
    // `summary` lines are the titles Claude Code shows in its resume list, not compactions.
    state.title ??= record.summary;
  } else {
    builder.countUnknown(record.subtype === undefined ? record.type : `${record.type}:${record.subtype}`);
  }
}

function applyUser(builder: TranscriptBuilder, state: ClaudeState, { record, blocks, at, line }: ParsedLine): void {
  const id = record.uuid ?? `line-${line}`;
  const texts: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'tool_result') {
      const reminder = todoReminder(state, block.callId);
      const result = builder.addToolResult({ id: `${id}/${block.callId}`, callId: block.callId, text: block.text + reminder, at });
      if (reminder.length > 0) result.unloggedChars = reminder.length;
      noteToolResult(state.fileState, block.callId, block.text, block.isError);
      state.hasHistory = true;
    } else if (block.kind === 'text') texts.push(block.text);
    // An image or document the user attached: a marker keeps its place in the conversation.
    else texts.push(`[${block.kind === 'other' ? block.type : block.kind}]`);
  }
  if (texts.length === 0) return;
  const text = texts.join('\n');
  if (isCompactionSummary(record, text)) {
    // The summary that replaced the history at the last compact boundary: it belongs to that event.
    // What Claude Code re-attached with it is rebuilt from the files used before (claude-restored.ts):
    // a log that records its boundary is Claude Code 2.x, which re-attaches at most 5.
    if (state.openCompaction !== undefined && state.openCompaction.summary === undefined) {
      state.openCompaction.summary = text;
      withRestored(state.openCompaction, restoreAfterCompaction(state.fileState, BOUNDED_MAX_FILES));
    }
    // Claude Code 1.0.8x repeats the summary that closed the previous file as the first line of the
    // next one: there it replaces no history of this file, it is where this file's context begins.
    else if (!state.hasHistory) builder.addMessage({ id, role: 'user', text, at });
    else withRestored(builder.addCompaction({ id, summary: text, at }), restoreAfterCompaction(state.fileState));
    state.hasHistory = true;
    return;
  }
  state.hasHistory = true;
  builder.addMessage({ id, role: 'user', text, at });
}

function withRestored(event: Writable<CompactionEvent>, restored: string[]): void {
  if (restored.length > 0) event.restored = restored;
}

/** Claude Code 1.0.8x writes no boundary, and not every version marks the summary: it opens a new chain with these words. */
const CONTINUED_SESSION = 'This session is being continued from a previous conversation';

/** A compaction's summary: marked as one (`isCompactSummary`), or the first line of a new chain that says it continues the session. */
function isCompactionSummary(record: ClaudeLine, text: string): boolean {
  return record.isCompactSummary === true || (record.parentUuid === null && text.startsWith(CONTINUED_SESSION));
}

function applyAssistant(builder: TranscriptBuilder, state: ClaudeState, { record, blocks, at, line }: ParsedLine): void {
  const model = record.message?.model;
  if (model === '<synthetic>') {
    // Claude Code's own notices (API errors, interruptions) written as assistant lines: no model call.
    builder.countUnknown('assistant (synthetic)');
    return;
  }
  state.model ??= model;
  state.hasHistory = true;
  const apiId = record.message?.id ?? record.uuid ?? `line-${line}`;
  let message = state.byApiId.get(apiId);
  if (message === undefined) {
    message = builder.addMessage({ id: apiId, role: 'assistant', text: '', at, model });
    state.byApiId.set(apiId, message);
  }
  for (const block of blocks) {
    if (block.kind === 'tool_use') noteToolCall(state.fileState, block);
    if (block.kind === 'tool_use' && block.name === 'TodoWrite') {
      state.todoWrites.set(block.id, block.input.todos);
      state.fileState.todos = block.input.todos;
    }
    appendAssistantBlock(builder, message, block);
  }
  const usage = convertUsage(record.message?.usage);
  // Every line of one response repeats the response's usage; output grows while it streams, so
  // the last line holds the call's final count. One call is counted once.
  if (usage !== undefined) message.usage = usage;
}

function appendAssistantBlock(builder: TranscriptBuilder, message: MessageDraft, block: Block): void {
  if (block.kind === 'text') message.text = message.text === '' ? block.text : `${message.text}\n\n${block.text}`;
  else if (block.kind === 'thinking') message.thinking = message.thinking === undefined ? block.text : `${message.thinking}\n\n${block.text}`;
  else if (block.kind === 'tool_use') builder.addToolCall(message, { callId: block.id, name: block.name, args: block.input });
  else builder.countUnknown(`content:${block.kind === 'other' ? block.type : block.kind}`);
}

/**
 * Anthropic splits the prompt into three disjoint counts: `input_tokens` (after the last cache
 * breakpoint), `cache_creation_input_tokens` (written to the cache by this call) and
 * `cache_read_input_tokens` (served from it). The canonical `input` is the whole prompt, as OpenAI
 * and Gemini count it — the sum of the three — and `cachedInput` is the part read from the cache.
 */
function convertUsage(usage: z.infer<typeof usageSchema> | null | undefined): RecordedUsage | undefined {
  if (usage == null) return undefined;
  const parts = [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens];
  if (parts.every((n) => n == null) && usage.output_tokens == null) return undefined;
  const result: Writable<RecordedUsage> = { input: parts.reduce<number>((sum, n) => sum + (n ?? 0), 0), output: usage.output_tokens ?? 0 };
  if (usage.cache_read_input_tokens != null) result.cachedInput = usage.cache_read_input_tokens;
  return result;
}

/**
 * Claude Code sends the model its to-do list again after each TodoWrite, in a `<system-reminder>`
 * the log does not record; the replay sends it with the tool result, as the text Claude Code uses.
 */
function todoReminder(state: ClaudeState, callId: string): string {
  if (!state.todoWrites.has(callId)) return '';
  const todos = JSON.stringify(state.todoWrites.get(callId) ?? []);
  return (
    '\n\n<system-reminder>\nYour todo list has changed. DO NOT mention this explicitly to the user. Here are the latest contents of your todo list:\n\n' +
    `${todos}. Continue on with the tasks at hand if applicable.\n</system-reminder>`
  );
}

function resultText(content: z.infer<typeof contentSchema> | null | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : `[${part.type}]`)).join('\n');
}
