import { basename, extname } from 'node:path';
import { z } from 'zod';
import type { RecordedTotals, Transcript } from '../types.js';
import type { ImportOptions, Importer } from './types.js';
import { createTranscriptBuilder, type TranscriptBuilder } from './shared/builder.js';
import { isRecord } from './shared/lines.js';
import { joinHead, readJsonDocument } from './shared/json-document.js';
import { addChatMessage, chatContentText, chatMessageSchema, type ChatMessage } from './shared/chat-completions.js';
import { parseShape } from './shared/validate.js';
import { withDerivedTasks } from '../tasks/derive.js';

/** A history entry: a chat message, with the thought and action SWE-agent parsed from a reply. */
const historyEntrySchema = chatMessageSchema.extend({
  thought: z.string().nullish(),
  action: z.string().nullish(),
});

type HistoryEntry = z.infer<typeof historyEntrySchema>;

const statsSchema = z.looseObject({
  instance_cost: z.number().min(0).nullish(),
  tokens_sent: z.number().int().min(0).nullish(),
  tokens_received: z.number().int().min(0).nullish(),
  api_calls: z.number().int().min(0).nullish(),
});

const infoSchema = z.looseObject({
  exit_status: z.string().nullish(),
  model_stats: z.record(z.string(), z.unknown()).nullish(),
});

/**
 * SWE-agent's model shortcuts (sweagent/agent/models.py, 0.x) and the API model each stands for,
 * so that a run configured as `gpt4` is priced and cached as the model it called.
 */
const SHORTCUTS: Readonly<Record<string, string>> = {
  gpt3: 'gpt-3.5-turbo-1106',
  gpt4: 'gpt-4-1106-preview',
  'gpt4-legacy': 'gpt-4-0613',
  'gpt4-0125': 'gpt-4-0125-preview',
  'gpt4-turbo': 'gpt-4-turbo-2024-04-09',
  gpt4o: 'gpt-4o-2024-05-13',
  'claude-opus': 'claude-3-opus-20240229',
  'claude-sonnet': 'claude-3-sonnet-20240229',
  'claude-haiku': 'claude-3-haiku-20240307',
};

/**
 * The agent's own exit markers (`exit_cost`, `exit_context`, `exit_format`, ...): written where an
 * action goes when the run ends, never run as a command.
 */
const EXIT_ACTION = /^exit_[a-z_]+$/;

export const sweAgent: Importer = {
  name: 'swe-agent',
  description: 'SWE-agent trajectory (*.traj): chat-completions history, with native tool calls or thought/action replies',
  detect(firstLines) {
    const head = joinHead(firstLines);
    return head.startsWith('{') && /"(trajectory|history)"\s*:\s*\[/.test(head);
  },
  /**
   * A `.traj` is one JSON document (about 100 KB for a typical run), so it is read whole. The
   * `history` holds exactly the messages the model was sent; `trajectory` repeats the steps in a
   * per-action form and is not needed. Function-calling runs (1.x) carry native `tool_calls`. In
   * thought/action runs (0.x, and 1.x without function calling) a reply holds its command as text:
   * SWE-agent parsed it into `action`, ran it, and sent the output back in the next user message.
   * Such a reply becomes a call (named by the command's first word) and that message its result,
   * both marked `sentAsText`, as mini-swe-agent's are: strategies can mask or cut the outputs, and
   * the replay sends and counts the plain text the model saw.
   */
  async import(file: string, options: ImportOptions): Promise<Transcript> {
    const builder = createTranscriptBuilder({ file, format: 'swe-agent', dialect: 'openai', lenient: options.lenient });
    const document = await readJsonDocument(file, 'history', builder);
    const root = isRecord(document.root) ? document.root : {};
    const config = replayConfig(root.replay_config);
    const model = modelOf(config);
    let open: string | undefined;
    document.entries.forEach(({ line, value }, i) => {
      builder.attempt(() => {
        const entry = parseShape(historyEntrySchema, value, { file, line, field: `history.${i}` });
        open = addEntry(builder, entry, { id: `history-${i}`, model }, open);
      });
    });
    const id = stringAt(config, ['problem_statement', 'id']) ?? stringAt(root, ['environment_args', 'instance_id']) ?? basename(file, extname(file));
    const totals = totalsOf(root.info);
    return withDerivedTasks(builder.build({ id, title: describeRun(root.info), model, ...(totals !== undefined ? { totals } : {}) }));
  },
};

/** Adds one history entry; returns the id of the text call still waiting for its output. */
function addEntry(
  builder: TranscriptBuilder,
  entry: HistoryEntry,
  meta: { id: string; model: string | undefined },
  open: string | undefined,
): string | undefined {
  if (entry.role === 'user' && open !== undefined) {
    const result = builder.addToolResult({ id: meta.id, callId: open, text: chatContentText(entry.content) });
    result.sentAsText = true;
    return undefined;
  }
  if (entry.role !== 'assistant' || hasNativeCalls(entry)) {
    addChatMessage(builder, entry, meta);
    return undefined;
  }
  const action = entry.action?.trim() ?? '';
  const message = builder.addMessage({ id: meta.id, role: 'assistant', text: chatContentText(entry.content), model: meta.model });
  if (action === '' || EXIT_ACTION.test(action)) return undefined;
  const call = builder.addToolCall(message, { callId: `${meta.id}/action`, name: commandName(action), args: { command: action } });
  message.sentAsText = true;
  return call.id;
}

function hasNativeCalls(entry: ChatMessage): boolean {
  return (entry.tool_calls?.length ?? 0) > 0 || entry.function_call != null;
}

/** The command an action runs: its first word (`edit`, `find_file`, `python`). */
function commandName(action: string): string {
  return /^[A-Za-z0-9_.:/-]+/.exec(action)?.[0] ?? 'bash';
}

/** The model the run called: `agent.model.name` (1.x) or `agent.model.model_name` (0.x, maybe a shortcut). */
function modelOf(config: unknown): string | undefined {
  const name = stringAt(config, ['agent', 'model', 'name']) ?? stringAt(config, ['agent', 'model', 'model_name']);
  if (name === undefined) return undefined;
  const bare = name.replace(/^(azure|bedrock|ollama):/, '');
  return SHORTCUTS[bare] ?? bare;
}

/** The run's totals from `info.model_stats` (SWE-agent records no per-call usage). */
function totalsOf(info: unknown): RecordedTotals | undefined {
  const stats = isRecord(info) ? statsSchema.safeParse(info.model_stats) : undefined;
  if (!stats?.success) return undefined;
  const s = stats.data;
  // A run replayed from a file, or by a human, costs nothing and sends nothing: no totals to keep.
  if (!s.tokens_sent && !s.instance_cost) return undefined;
  const totals: RecordedTotals = {};
  if (s.instance_cost != null) totals.costUsd = s.instance_cost;
  if (s.tokens_sent != null) totals.input = s.tokens_sent;
  if (s.tokens_received != null) totals.output = s.tokens_received;
  if (s.api_calls != null) totals.calls = s.api_calls;
  return totals;
}

/** The run's outcome and totals, kept in the title where a reader of the imported file finds them. */
function describeRun(info: unknown): string | undefined {
  const parsed = infoSchema.safeParse(info);
  if (!parsed.success) return undefined;
  const parts: string[] = [];
  if (parsed.data.exit_status) parts.push(`exit_status ${parsed.data.exit_status}`);
  const stats = Object.entries(parsed.data.model_stats ?? {}).filter(([, v]) => typeof v === 'number');
  if (stats.length > 0) parts.push(`model_stats ${stats.map(([k, v]) => `${k}=${String(v)}`).join(', ')}`);
  return parts.length === 0 ? undefined : `SWE-agent run: ${parts.join('; ')}`;
}

/** The run's configuration, which newer versions store as a JSON string. */
function replayConfig(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

function stringAt(value: unknown, path: string[]): string | undefined {
  let current = value;
  for (const key of path) current = isRecord(current) ? current[key] : undefined;
  return typeof current === 'string' && current !== '' ? current : undefined;
}
