import { z } from 'zod';
import { messageEventSchema } from '../../transcript/schema.js';
import { describeSchemaError } from '../../validate.js';

/**
 * The JSON-lines protocol a policy process speaks (docs/process-protocol.md). One JSON object per
 * line each way; ctxbench writes `hello`, `event`, `prepare`, `recover`, `model_result`,
 * `count_result` and `end`; the policy answers with the schemas below. Bump the version when a
 * message changes meaning; a policy answering another version is refused at the handshake.
 */
export const PROTOCOL_VERSION = 1;

const actionKinds = ['evict', 'truncate', 'compact', 'trigger', 'summary', 'recap', 'drop', 'isolate', 'offload', 'cap-thinking', 'anchor', 'note'] as const;
const tokens = z.number().int().min(0);

/** An action the policy took, for the timeline; token counts default to ctxbench's own. */
const policyActionSchema = z.strictObject({
  action: z.enum(actionKinds),
  reason: z.string(),
  mode: z.string().optional(),
  detail: z.string().optional(),
  tokensBefore: tokens.optional(),
  tokensAfter: tokens.optional(),
});

/** A message of the context: an observed message by id, or a full message (changed or new). */
const contextEntrySchema = z.union([
  z.string().min(1),
  z.intersection(messageEventSchema, z.object({ synthetic: z.string().optional(), replaces: z.array(z.string()).optional() })),
]);

const helloSchema = z.strictObject({ type: z.literal('hello'), protocol: z.number().int(), name: z.string().optional() });
const contextSchema = z.strictObject({
  type: z.literal('context'),
  step: z.number().int().min(0),
  messages: z.array(contextEntrySchema),
  actions: z.array(policyActionSchema).default([]),
});
const recoverSchema = z.strictObject({
  type: z.literal('recover_result'),
  step: z.number().int().min(0),
  decision: z.enum(['retry', 'give-up']),
  actions: z.array(policyActionSchema).default([]),
});
const modelCallSchema = z.strictObject({
  type: z.literal('model_call'),
  id: z.string().min(1),
  instruction: z.string(),
  messages: z.array(contextEntrySchema),
  maxOutputTokens: z.number().int().positive(),
  purpose: z.enum(['summary', 'recap']).optional(),
});
const countSchema = z.strictObject({ type: z.literal('count'), id: z.string().min(1), messages: z.array(contextEntrySchema) });
const errorSchema = z.strictObject({ type: z.literal('error'), message: z.string(), field: z.string().optional() });

/** Every line a policy may write. */
const policyMessageSchema = z.discriminatedUnion('type', [helloSchema, contextSchema, recoverSchema, modelCallSchema, countSchema, errorSchema]);

export type PolicyMessage = z.infer<typeof policyMessageSchema>;
export type PolicyAction = z.infer<typeof policyActionSchema>;
export type ContextEntry = z.infer<typeof contextEntrySchema>;

/** Parses one line of a policy: the message, or what is wrong with it in words. */
export function parsePolicyLine(line: string): { ok: true; message: PolicyMessage } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, problem: `wrote a line that is not JSON: ${quote(line)}` };
  }
  const parsed = policyMessageSchema.safeParse(json);
  if (parsed.success) return { ok: true, message: parsed.data };
  const { field, message } = describeSchemaError(parsed.error);
  return { ok: false, problem: `wrote a malformed message${field === '' ? '' : ` (field ${field})`}: ${message}: ${quote(line)}` };
}

/** A line as an error message quotes it: at most 200 characters. */
function quote(line: string): string {
  return JSON.stringify(line.length > 200 ? `${line.slice(0, 200)}…` : line);
}
