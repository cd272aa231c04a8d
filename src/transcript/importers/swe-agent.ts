import { basename, extname } from 'node:path';
import { z } from 'zod';
import type { Transcript } from '../types.js';
import type { ImportOptions, Importer } from './types.js';
import { createTranscriptBuilder } from './shared/builder.js';
import { isRecord } from './shared/lines.js';
import { joinHead, readJsonDocument } from './shared/json-document.js';
import { addChatMessage, chatMessageSchema } from './shared/chat-completions.js';
import { parseShape } from './shared/validate.js';
import { withDerivedTasks } from '../tasks/derive.js';

const infoSchema = z.looseObject({
  exit_status: z.string().nullish(),
  model_stats: z.record(z.string(), z.unknown()).nullish(),
});

export const sweAgent: Importer = {
  name: 'swe-agent',
  description: 'SWE-agent trajectory (*.traj): its history is OpenAI chat-completions messages',
  detect(firstLines) {
    const head = joinHead(firstLines);
    return head.startsWith('{') && /"(trajectory|history)"\s*:\s*\[/.test(head);
  },
  /**
   * A `.traj` is one JSON document (about 100 KB for a typical run), so it is read whole. The
   * `history` holds exactly the messages the model was sent; `trajectory` repeats the steps in a
   * per-action form and is not needed.
   */
  async import(file: string, options: ImportOptions): Promise<Transcript> {
    const builder = createTranscriptBuilder({ file, format: 'swe-agent', dialect: 'openai', lenient: options.lenient });
    const document = await readJsonDocument(file, 'history', builder);
    const root = isRecord(document.root) ? document.root : {};
    const config = replayConfig(root.replay_config);
    const model = stringAt(config, ['agent', 'model', 'name']);
    document.entries.forEach(({ line, value }, i) => {
      builder.attempt(() => {
        const message = parseShape(chatMessageSchema, value, { file, line, field: `history.${i}` });
        addChatMessage(builder, message, { id: `history-${i}`, model });
      });
    });
    const id = stringAt(config, ['problem_statement', 'id']) ?? basename(file, extname(file));
    return withDerivedTasks(builder.build({ id, title: describeRun(root.info), model }));
  },
};

/**
 * SWE-agent records no per-call usage, only run totals (`info.model_stats`): they are kept in the
 * title, where a reader of the imported file still finds them.
 */
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
