import { basename } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../errors.js';
import type { Transcript } from '../types.js';
import type { ImportOptions, Importer } from './types.js';
import { createTranscriptBuilder, type TranscriptBuilder } from './shared/builder.js';
import { isRecord } from './shared/lines.js';
import { joinHead, readJsonDocument } from './shared/json-document.js';
import { chatContentText } from './shared/chat-completions.js';
import { normalizeTime, parseShape } from './shared/validate.js';
import { withDerivedTasks } from '../tasks/derive.js';
import { convertOpenAiUsage, openAiUsageSchema } from './shared/openai-usage.js';

/** The only trajectory format this importer reads (mini-swe-agent 1.x). */
const FORMAT = 'mini-swe-agent-1';

/**
 * mini-swe-agent's own action regex: a reply is acted on only when it holds exactly one such
 * block; otherwise the agent answers with a format error and runs nothing.
 */
const ACTION_BLOCK = /```bash\s*\n([\s\S]*?)\n```/g;

const messageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]),
  extra: z
    .looseObject({
      response: z.looseObject({ model: z.string().nullish(), created: z.number().nullish(), usage: openAiUsageSchema.nullish() }).nullish(),
    })
    .nullish(),
});

type MiniMessage = z.infer<typeof messageSchema>;

/** The assistant turn whose action is still waiting for its output. */
interface OpenAction {
  callId: string;
}

export const miniSweAgent: Importer = {
  name: 'mini-swe-agent',
  description: 'mini-swe-agent trajectory (*.traj.json, trajectory_format mini-swe-agent-1): chat messages, one bash block per turn',
  detect(firstLines) {
    const head = joinHead(firstLines);
    return head.startsWith('{') && (/"trajectory_format"\s*:\s*"mini-swe-agent/.test(head) || /"mini_version"\s*:/.test(head));
  },
  /**
   * One JSON document, read whole. `messages` is the whole prompt of the last call, system prompt
   * included. The agent's tool protocol is text: each reply carries one bash block and the output
   * comes back as the next user message. Each acted-on reply becomes an assistant message with a
   * `bash` call and its output the call's `tool` result, both marked `sentAsText`, so strategies
   * can mask or cut the outputs while the replay sends and counts the plain text the model saw.
   */
  async import(file: string, options: ImportOptions): Promise<Transcript> {
    const builder = createTranscriptBuilder({ file, format: 'mini-swe-agent', dialect: 'openai', lenient: options.lenient });
    const document = await readJsonDocument(file, 'messages', builder);
    const root = isRecord(document.root) ? document.root : {};
    checkFormat(file, root.trajectory_format);
    let open: OpenAction | undefined;
    let model: string | undefined;
    document.entries.forEach(({ line, value }, i) => {
      builder.attempt(() => {
        const message = parseShape(messageSchema, value, { file, line, field: `messages.${i}` });
        const id = `message-${i}`;
        if (message.role === 'assistant') {
          const response = message.extra?.response ?? undefined;
          model ??= response?.model ?? undefined;
          open = addReply(builder, id, message, response);
        } else if (message.role === 'user' && open !== undefined) {
          const result = builder.addToolResult({ id, callId: open.callId, name: 'bash', text: chatContentText(message.content) });
          result.sentAsText = true;
          open = undefined;
        } else {
          builder.addMessage({ id, role: message.role, text: chatContentText(message.content) });
        }
      });
    });
    const instance = typeof root.instance_id === 'string' ? root.instance_id : basename(file).replace(/\.traj\.json$|\.json$/, '');
    return withDerivedTasks(builder.build({ id: instance, title: describeRun(root.info), model }));
  },
};

type Response = NonNullable<NonNullable<MiniMessage['extra']>['response']>;

/** Adds a model reply; returns the action it opened, when the agent acted on it. */
function addReply(builder: TranscriptBuilder, id: string, message: MiniMessage, response: Response | undefined): OpenAction | undefined {
  const text = chatContentText(message.content);
  const at = normalizeTime(response?.created ?? undefined);
  const added = builder.addMessage({ id, role: 'assistant', text, at, model: response?.model ?? undefined, usage: convertOpenAiUsage(response?.usage) });
  const blocks = [...text.matchAll(ACTION_BLOCK)];
  // Zero or several blocks: the agent ran nothing and its next message is a format error.
  if (blocks.length !== 1) return undefined;
  const call = builder.addToolCall(added, { callId: `${id}/bash`, name: 'bash', args: { command: (blocks[0]?.[1] ?? '').trim() } });
  added.sentAsText = true;
  return { callId: call.id };
}

function checkFormat(file: string, format: unknown): void {
  if (format === undefined || format === FORMAT) return;
  throw new InputError({ file, field: 'trajectory_format' }, `unsupported trajectory_format ${JSON.stringify(format)}; this importer reads "${FORMAT}"`);
}

const infoSchema = z.looseObject({
  exit_status: z.string().nullish(),
  model_stats: z.looseObject({ instance_cost: z.number().nullish(), api_calls: z.number().nullish() }).nullish(),
});

/** The run's outcome and totals, kept in the title where a reader of the imported file finds them. */
function describeRun(info: unknown): string | undefined {
  const parsed = infoSchema.safeParse(info);
  if (!parsed.success) return undefined;
  const parts: string[] = [];
  if (parsed.data.exit_status) parts.push(`exit_status ${parsed.data.exit_status}`);
  const stats = parsed.data.model_stats;
  if (stats?.api_calls != null) parts.push(`api_calls ${stats.api_calls}`);
  if (stats?.instance_cost != null) parts.push(`instance_cost ${stats.instance_cost.toFixed(4)}`);
  return parts.length === 0 ? undefined : `mini-swe-agent run: ${parts.join('; ')}`;
}
