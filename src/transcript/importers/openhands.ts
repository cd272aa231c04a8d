import { basename, extname } from 'node:path';
import { z } from 'zod';
import type { Transcript } from '../types.js';
import type { MessageDraft } from '../draft.js';
import type { ImportOptions, Importer } from './types.js';
import { createTranscriptBuilder, type TranscriptBuilder } from './shared/builder.js';
import { joinHead, readJsonDocument } from './shared/json-document.js';
import { chatContentText, chatMessageSchema, parseArguments } from './shared/chat-completions.js';
import { normalizeTime, parseShape } from './shared/validate.js';
import { withDerivedTasks } from '../tasks/derive.js';
import { convertOpenAiUsage, openAiUsageSchema } from './shared/openai-usage.js';

const metadataSchema = z.looseObject({
  function_name: z.string().min(1),
  tool_call_id: z.string().min(1),
  model_response: z
    .looseObject({
      id: z.string().nullish(),
      model: z.string().nullish(),
      choices: z.array(z.looseObject({ message: chatMessageSchema.partial() })).nullish(),
      usage: openAiUsageSchema.nullish(),
    })
    .nullish(),
});

const eventSchema = z.looseObject({
  id: z.number().int(),
  timestamp: z.string().nullish(),
  source: z.string().nullish(),
  message: z.string().nullish(),
  action: z.string().optional(),
  observation: z.string().optional(),
  cause: z.number().int().nullish(),
  content: z.string().nullish(),
  args: z.record(z.string(), z.unknown()).nullish(),
  extras: z.record(z.string(), z.unknown()).nullish(),
  tool_call_metadata: metadataSchema.nullish(),
});

type OpenHandsEvent = z.infer<typeof eventSchema>;
type ToolCallMetadata = z.infer<typeof metadataSchema>;

interface OpenHandsState {
  model?: string;
  /** Assistant messages by model response: one response can issue several actions. */
  byResponse: Map<string, MessageDraft>;
  /** Agent actions by event id, for their observations (`cause`) to answer. */
  actions: Map<number, { callId?: string; name: string }>;
}

export const openhands: Importer = {
  name: 'openhands',
  description: 'OpenHands trajectory: a JSON list of action and observation events',
  detect(firstLines) {
    const head = joinHead(firstLines);
    return head.startsWith('[') && /"(action|observation)"\s*:\s*"/.test(head) && /"source"\s*:/.test(head);
  },
  /** One JSON document, so it is read whole. */
  async import(file: string, options: ImportOptions): Promise<Transcript> {
    const builder = createTranscriptBuilder({ file, format: 'openhands', dialect: 'openai', lenient: options.lenient });
    const document = await readJsonDocument(file, undefined, builder);
    const state: OpenHandsState = { byResponse: new Map(), actions: new Map() };
    document.entries.forEach(({ line, value }, i) => {
      builder.attempt(() => applyEvent(builder, state, parseShape(eventSchema, value, { file, line, field: String(i) })));
    });
    return withDerivedTasks(builder.build({ id: basename(file, extname(file)), model: state.model }));
  },
};

function applyEvent(builder: TranscriptBuilder, state: OpenHandsState, event: OpenHandsEvent): void {
  const id = `event-${event.id}`;
  const at = normalizeTime(event.timestamp);
  const args = event.args ?? {};
  if (event.action === 'message' && event.source === 'user') {
    builder.addMessage({ id, role: 'user', text: stringOr(args.content, event.message), at });
  } else if (event.action === 'system') {
    builder.addMessage({ id, role: 'system', text: stringOr(args.content, event.message), at });
  } else if (event.action !== undefined && event.tool_call_metadata != null) {
    applyToolAction(builder, state, event, event.tool_call_metadata, at);
  } else if (event.action !== undefined && event.source === 'agent') {
    // An agent action without a tool call (a plain reply, or the text-action agents of old).
    builder.addMessage({ id, role: 'assistant', text: stringOr(args.content ?? args.thought, event.message), at });
    state.actions.set(event.id, { name: event.action });
  } else if (event.observation !== undefined) {
    applyObservation(builder, state, event, at);
  } else {
    builder.countUnknown(event.action !== undefined ? `action:${event.action}` : 'event');
  }
}

/** An action the model issued as a tool call; the actions of one model response share a message. */
function applyToolAction(builder: TranscriptBuilder, state: OpenHandsState, event: OpenHandsEvent, metadata: ToolCallMetadata, at: string | undefined): void {
  const response = metadata.model_response ?? undefined;
  const reply = response?.choices?.[0]?.message;
  const key = response?.id ?? `event-${event.id}`;
  let message = state.byResponse.get(key);
  if (message === undefined) {
    const text = chatContentText(reply?.content) || stringOr(event.args?.thought, '');
    const model = response?.model ?? undefined;
    state.model ??= model;
    message = builder.addMessage({ id: `event-${event.id}`, role: 'assistant', text, at, model, usage: convertOpenAiUsage(response?.usage) });
    state.byResponse.set(key, message);
  }
  // The arguments exactly as the model sent them; the event's own args are OpenHands' parse of them.
  const sent = reply?.tool_calls?.find((call) => call.id === metadata.tool_call_id);
  const args = sent !== undefined ? parseArguments(sent.function.arguments) : (event.args ?? {});
  builder.addToolCall(message, { callId: metadata.tool_call_id, name: metadata.function_name, args });
  state.actions.set(event.id, { callId: metadata.tool_call_id, name: metadata.function_name });
}

function applyObservation(builder: TranscriptBuilder, state: OpenHandsState, event: OpenHandsEvent, at: string | undefined): void {
  const id = `event-${event.id}`;
  const cause = event.cause == null ? undefined : state.actions.get(event.cause);
  const text = observationText(event);
  if (cause?.callId !== undefined) {
    builder.addToolResult({ id, callId: cause.callId, name: cause.name, text, at });
  } else if (cause !== undefined) {
    // What a text-action agent's command printed reached the model as a user message.
    builder.addMessage({ id, role: 'user', text, at });
  } else {
    // State changes and the like: the UI's, never the model's.
    builder.countUnknown(`observation:${event.observation}`);
  }
}

/**
 * The text of an observation as the agent sent it to the model: its content, except for an ACI
 * file edit, whose `content` is the diff the UI shows while the model got the editor's own output,
 * recorded as `extras.formatted_output_and_error` (OpenHands' FileEditObservation renders itself
 * so for `impl_source: oh_aci`).
 */
function observationText(event: OpenHandsEvent): string {
  const formatted = event.extras?.formatted_output_and_error;
  if (event.observation === 'edit' && event.extras?.impl_source === 'oh_aci' && typeof formatted === 'string') return formatted;
  return stringOr(event.content, event.message);
}

function stringOr(value: unknown, fallback: string | null | undefined): string {
  return typeof value === 'string' ? value : (fallback ?? '');
}
