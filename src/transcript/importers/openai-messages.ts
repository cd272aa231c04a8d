import { basename, extname } from 'node:path';
import type { Transcript } from '../types.js';
import type { ImportOptions, Importer } from './types.js';
import { createTranscriptBuilder } from './shared/builder.js';
import { isRecord } from './shared/lines.js';
import { joinHead, readJsonDocument } from './shared/json-document.js';
import { addChatMessage, chatMessageSchema } from './shared/chat-completions.js';
import { normalizeTime, parseShape } from './shared/validate.js';
import { withDerivedTasks } from '../tasks/derive.js';

export const openaiMessages: Importer = {
  name: 'openai-messages',
  description: 'a JSON array of OpenAI chat-completions messages, or {"messages": [...]}',
  detect(firstLines) {
    const head = joinHead(firstLines);
    const hasRole = /"role"\s*:\s*"(system|developer|user|assistant|tool)"/.test(head);
    return hasRole && (head.startsWith('[') || (head.startsWith('{') && /"messages"\s*:\s*\[/.test(head)));
  },
  /** One JSON document, so it is read whole. */
  async import(file: string, options: ImportOptions): Promise<Transcript> {
    const builder = createTranscriptBuilder({ file, format: 'openai-messages', dialect: 'openai', lenient: options.lenient });
    const document = await readJsonDocument(file, 'messages', builder);
    const root = isRecord(document.root) ? document.root : {};
    const model = typeof root.model === 'string' ? root.model : undefined;
    const prefix = Array.isArray(document.root) ? '' : 'messages.';
    document.entries.forEach(({ line, value }, i) => {
      builder.attempt(() => {
        const message = parseShape(chatMessageSchema, value, { file, line, field: `${prefix}${i}` });
        // Logs that wrap the chat format often stamp each message; keep the time when they do.
        const at = isRecord(value) ? normalizeTime(value.timestamp ?? value.created_at) : undefined;
        addChatMessage(builder, message, { id: `message-${i}`, at, model });
      });
    });
    return withDerivedTasks(builder.build({ id: basename(file, extname(file)), model }));
  },
};
