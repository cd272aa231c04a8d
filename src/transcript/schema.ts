import { z } from 'zod';
import { probeSchema } from './probe-schema.js';
import type { CompactionEvent, ControlEvent, MessageEvent, ProbeEvent, SessionHeader, TaskEvent, TranscriptEvent } from './types.js';

/**
 * Zod schemas of the canonical transcript (DESIGN.md §2, src/transcript/types.ts). Every line of
 * a `*.ctx.jsonl` file passes through one of them once, in read.ts; the core trusts the types
 * afterwards. Field order here is the order write.ts emits.
 */

const dialectSchema = z.enum(['openai', 'gemini', 'anthropic']);
const roleSchema = z.enum(['system', 'user', 'assistant', 'tool']);
const taskStatusSchema = z.enum(['in_progress', 'completed', 'failed']);
const controlActionSchema = z.enum(['undo', 'drop-group', 'switch-dialect', 'compact']);

/** ISO 8601 with a `Z` or numeric offset; importers normalise foreign times to it. */
const isoTimeSchema = z.iso.datetime({ offset: true });
const tokenCountSchema = z.number().int().min(0);

const toolCallSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
  freeform: z.literal(true).optional(),
});

const recordedUsageSchema = z.strictObject({
  input: tokenCountSchema.optional(),
  cachedInput: tokenCountSchema.optional(),
  output: tokenCountSchema.optional(),
  reasoning: tokenCountSchema.optional(),
});

const sessionSourceSchema = z.strictObject({
  format: z.string().min(1),
  file: z.string().optional(),
  licence: z.string().optional(),
});

export const sessionHeaderSchema = z.strictObject({
  type: z.literal('session'),
  id: z.string().min(1),
  title: z.string().optional(),
  source: sessionSourceSchema.optional(),
  dialect: dialectSchema,
  model: z.string().min(1).optional(),
  contextWindow: z.number().int().positive().optional(),
  totals: z
    .strictObject({
      costUsd: z.number().min(0).optional(),
      input: tokenCountSchema.optional(),
      output: tokenCountSchema.optional(),
      calls: tokenCountSchema.optional(),
    })
    .optional(),
});

export const messageEventSchema = z
  .strictObject({
    type: z.literal('message'),
    id: z.string().min(1),
    role: roleSchema,
    text: z.string(),
    thinking: z.string().optional(),
    thoughtSignature: z.string().min(1).optional(),
    toolCalls: z.array(toolCallSchema).optional(),
    toolCallId: z.string().min(1).optional(),
    toolName: z.string().min(1).optional(),
    at: isoTimeSchema.optional(),
    usage: recordedUsageSchema.optional(),
    model: z.string().min(1).optional(),
    dialect: dialectSchema.optional(),
    sentAsText: z.literal(true).optional(),
    reasoningTokens: z.number().int().min(0).optional(),
    unloggedChars: z.number().int().min(1).optional(),
  })
  .superRefine((message, ctx) => {
    // A tool result that names no call cannot be paired with its call by any provider format.
    if (message.role === 'tool' && message.toolCallId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['toolCallId'], message: 'a message with role "tool" needs toolCallId' });
    }
  });

const taskEventSchema = z.strictObject({
  type: z.literal('task'),
  id: z.string().min(1),
  status: taskStatusSchema,
  title: z.string().optional(),
  resultSummary: z.string().optional(),
  criteria: z.array(z.string()).optional(),
  at: isoTimeSchema.optional(),
  source: z.enum(['todo-write', 'update-plan', 'user-turns']).optional(),
});

const probeEventSchema = z.strictObject({
  type: z.literal('probe'),
  probe: probeSchema,
});

export const controlEventSchema = z
  .strictObject({
    type: z.literal('control'),
    action: controlActionSchema,
    group: z.number().int().min(0).optional(),
    dialect: dialectSchema.optional(),
    at: isoTimeSchema.optional(),
  })
  .superRefine((control, ctx) => {
    if (control.action === 'drop-group' && control.group === undefined) {
      ctx.addIssue({ code: 'custom', path: ['group'], message: 'action "drop-group" needs group' });
    }
    if (control.action === 'switch-dialect' && control.dialect === undefined) {
      ctx.addIssue({ code: 'custom', path: ['dialect'], message: 'action "switch-dialect" needs dialect' });
    }
  });

const compactionEventSchema = z.strictObject({
  type: z.literal('compaction'),
  id: z.string().min(1),
  summary: z.string().optional(),
  restored: z.array(z.string()).optional(),
  tokensBefore: tokenCountSchema.optional(),
  tokensAfter: tokenCountSchema.optional(),
  at: isoTimeSchema.optional(),
});

/** The schema of each event line, by its `type`; read.ts dispatches on it to name the field. */
export const eventSchemas = {
  message: messageEventSchema,
  task: taskEventSchema,
  probe: probeEventSchema,
  control: controlEventSchema,
  compaction: compactionEventSchema,
} as const;

export type EventType = keyof typeof eventSchemas;

export const transcriptEventSchema = z.discriminatedUnion('type', [
  messageEventSchema,
  taskEventSchema,
  probeEventSchema,
  controlEventSchema,
  compactionEventSchema,
]);

// The schemas must produce exactly the contract types: a field added to either side, even an
// optional one, fails the type check here instead of being rejected at run time by the strict schema.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const schemasMatchTypes: [
  SameKeys<z.output<typeof sessionHeaderSchema>, SessionHeader>,
  SameKeys<z.output<typeof messageEventSchema>, MessageEvent>,
  SameKeys<z.output<typeof taskEventSchema>, TaskEvent>,
  SameKeys<z.output<typeof probeEventSchema>, ProbeEvent>,
  SameKeys<z.output<typeof controlEventSchema>, ControlEvent>,
  SameKeys<z.output<typeof compactionEventSchema>, CompactionEvent>,
] = [true, true, true, true, true, true];
void schemasMatchTypes;
sessionHeaderSchema satisfies z.ZodType<SessionHeader>;
messageEventSchema satisfies z.ZodType<MessageEvent>;
taskEventSchema satisfies z.ZodType<TaskEvent>;
probeEventSchema satisfies z.ZodType<ProbeEvent>;
controlEventSchema satisfies z.ZodType<ControlEvent>;
compactionEventSchema satisfies z.ZodType<CompactionEvent>;
transcriptEventSchema satisfies z.ZodType<TranscriptEvent>;

/** True when `type` names an event line (anything but the header). */
export function isEventType(type: unknown): type is EventType {
  return typeof type === 'string' && Object.hasOwn(eventSchemas, type);
}
