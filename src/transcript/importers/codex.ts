import { basename } from 'node:path';
import type { RecordedUsage, Transcript } from '../types.js';
import type { MessageDraft, Writable } from '../draft.js';
import type { ImportOptions, Importer } from './types.js';
import { createTranscriptBuilder, type TranscriptBuilder } from './shared/builder.js';
import { parseHeadObjects, readJsonLines } from './shared/lines.js';
import { normalizeTime } from './shared/validate.js';
import { parseCodexLine, type CodexRecord } from './shared/codex-records.js';
import { withStructuredShellOutputs } from './shared/codex-structured.js';
import { withDerivedTasks } from '../tasks/derive.js';

interface Step {
  /** False once the model call is over (its input arrived, or its usage was reported). */
  open: boolean;
  message?: MessageDraft;
  usage?: RecordedUsage;
  /** The call produced an encrypted reasoning item, which later calls of its turn send back. */
  carriesReasoning?: boolean;
}

interface CodexState {
  sessionId?: string;
  model?: string;
  firstModel?: string;
  contextWindow?: number;
  step: Step;
  /** A call's usage reported before the call's own items (older rollouts log it first). */
  pendingUsage?: RecordedUsage;
  lastTotal?: string;
}

/**
 * event_msg lines with nothing to import: echoes of response items for the UI (the response items
 * themselves are imported), and token_count reports without usage (rate limits only).
 */
const EVENTS_WITHOUT_CONTENT = new Set(['user_message', 'agent_message', 'agent_reasoning', 'agent_reasoning_raw_content', 'token_count']);

export const codex: Importer = {
  name: 'codex',
  description: 'OpenAI Codex CLI rollout (~/.codex/sessions/**/rollout-*.jsonl)',
  detect(firstLines) {
    const types = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context']);
    return parseHeadObjects(firstLines).some((o) => types.has(String(o.type)) && 'payload' in o);
  },
  async import(file: string, options: ImportOptions): Promise<Transcript> {
    const builder = createTranscriptBuilder({ file, format: 'codex', dialect: 'openai', lenient: options.lenient });
    const state: CodexState = { step: { open: false } };
    for await (const { line, value } of readJsonLines(file, builder)) {
      builder.attempt(() => applyRecord(builder, state, parseCodexLine(file, line, value), line, normalizeTime(value.timestamp)));
    }
    if (state.pendingUsage !== undefined) builder.countUnknown('token_count without a call');
    const built = builder.build({ id: state.sessionId ?? basename(file, '.jsonl'), model: state.firstModel, contextWindow: state.contextWindow });
    return withDerivedTasks(withStructuredShellOutputs(built));
  },
};

function applyRecord(builder: TranscriptBuilder, state: CodexState, record: CodexRecord, line: number, at: string | undefined): void {
  const id = `line-${line}`;
  switch (record.kind) {
    case 'meta':
      state.sessionId ??= record.id;
      if (record.instructions) builder.addMessage({ id, role: 'system', text: record.instructions, at });
      return;
    case 'model':
      state.model = record.model ?? state.model;
      state.firstModel ??= state.model;
      return;
    case 'input':
      state.step.open = false;
      builder.addMessage({ id, role: record.role, text: record.text, at });
      return;
    case 'result':
      state.step.open = false;
      builder.addToolResult({ id, callId: record.callId, text: record.text, at });
      return;
    case 'output':
      applyOutput(builder, state, record, id, at);
      return;
    case 'usage':
      applyUsage(state, record);
      return;
    case 'compacted':
      state.step.open = false;
      builder.addCompaction({ id, summary: record.summary, at });
      return;
    case 'event':
      if (!EVENTS_WITHOUT_CONTENT.has(record.type)) builder.countUnknown(`event_msg:${record.type}`);
      return;
    case 'unknown':
      builder.countUnknown(record.type);
  }
}

/** Reasoning, assistant text and tool calls of one model call make one assistant message. */
function applyOutput(
  builder: TranscriptBuilder,
  state: CodexState,
  record: Extract<CodexRecord, { kind: 'output' }>,
  id: string,
  at: string | undefined,
): void {
  if (!state.step.open) {
    state.step = { open: true, usage: state.pendingUsage };
    state.pendingUsage = undefined;
  }
  if (record.encryptedReasoning === true) state.step.carriesReasoning = true;
  const hasContent = record.text !== undefined || record.thinking !== undefined || record.call !== undefined;
  // A reasoning item without text (encrypted or summarised away) opens the call but adds nothing.
  if (!hasContent) return;
  const message = (state.step.message ??= builder.addMessage({ id, role: 'assistant', text: '', at, model: state.model, usage: state.step.usage }));
  settleReasoning(state.step);
  if (record.text !== undefined) message.text = message.text === '' ? record.text : `${message.text}\n\n${record.text}`;
  if (record.thinking !== undefined) message.thinking = message.thinking === undefined ? record.thinking : `${message.thinking}\n\n${record.thinking}`;
  if (record.call !== undefined) builder.addToolCall(message, record.call);
}

/**
 * `token_count` carries the usage of the last model call (`last_token_usage`). Older rollouts log
 * it just before the call's items, newer ones just after: an open call without usage takes it,
 * otherwise it waits for the next call. A repeated report (same running total) is the same call.
 */
function applyUsage(state: CodexState, record: Extract<CodexRecord, { kind: 'usage' }>): void {
  if (record.totalKey !== undefined && record.totalKey === state.lastTotal) return;
  state.lastTotal = record.totalKey;
  state.contextWindow ??= record.contextWindow;
  const step = state.step;
  if (step.open && step.usage === undefined) {
    step.usage = record.usage;
    if (step.message !== undefined) {
      step.message.usage = record.usage;
      settleReasoning(step);
      step.open = false;
    }
    return;
  }
  step.open = false;
  // Two reports with no call between (an aborted turn): both were spent, so both are kept.
  state.pendingUsage = state.pendingUsage === undefined ? record.usage : addUsage(state.pendingUsage, record.usage);
}

/**
 * The size of a call's encrypted reasoning is the reasoning output tokens its usage recorded: once
 * both the message and its usage are known, the message carries it (MessageEvent.reasoningTokens).
 */
function settleReasoning(step: Step): void {
  const reasoning = step.usage?.reasoning;
  if (step.carriesReasoning === true && step.message !== undefined && reasoning !== undefined && reasoning > 0) step.message.reasoningTokens = reasoning;
}

function addUsage(a: RecordedUsage, b: RecordedUsage): RecordedUsage {
  const sum = (x: number | undefined, y: number | undefined): number | undefined => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  const result: Writable<RecordedUsage> = {};
  for (const key of ['input', 'cachedInput', 'output', 'reasoning'] as const) {
    const value = sum(a[key], b[key]);
    if (value !== undefined) result[key] = value;
  }
  return result;
}
