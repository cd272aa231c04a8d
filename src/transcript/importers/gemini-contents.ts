import { basename, extname } from 'node:path';
import { z } from 'zod';
import type { Transcript } from '../types.js';
import type { ImportOptions, Importer } from './types.js';
import { createTranscriptBuilder, type TranscriptBuilder } from './shared/builder.js';
import { isRecord } from './shared/lines.js';
import { joinHead, readJsonDocument } from './shared/json-document.js';
import { functionResponseText, partKind, partListText, partSchema, type Part } from './shared/gemini-parts.js';
import { parseShape } from './shared/validate.js';
import { withDerivedTasks } from '../tasks/derive.js';

const contentSchema = z.looseObject({
  role: z.enum(['user', 'model', 'function', 'tool']).nullish(),
  parts: z.array(partSchema),
});

type Content = z.infer<typeof contentSchema>;

export const geminiContents: Importer = {
  name: 'gemini-contents',
  description: 'a JSON array of Gemini contents ({role, parts}), or {"contents": [...], "systemInstruction"?}',
  detect(firstLines) {
    const head = joinHead(firstLines);
    const looksLikeContents = /"parts"\s*:\s*\[/.test(head) && /"role"\s*:\s*"(user|model)"/.test(head);
    return looksLikeContents && (head.startsWith('[') || (head.startsWith('{') && /"contents"\s*:\s*\[/.test(head)));
  },
  /** One JSON document, so it is read whole. */
  async import(file: string, options: ImportOptions): Promise<Transcript> {
    const builder = createTranscriptBuilder({ file, format: 'gemini-contents', dialect: 'gemini', lenient: options.lenient });
    const document = await readJsonDocument(file, 'contents', builder);
    const root = isRecord(document.root) ? document.root : {};
    const instruction = partListText(isRecord(root.systemInstruction) ? root.systemInstruction.parts : root.systemInstruction);
    if (instruction !== '') builder.addMessage({ id: 'system-instruction', role: 'system', text: instruction });
    const model = typeof root.model === 'string' ? root.model : undefined;
    const prefix = Array.isArray(document.root) ? '' : 'contents.';
    document.entries.forEach(({ line, value }, i) => {
      builder.attempt(() => {
        const content = parseShape(contentSchema, value, { file, line, field: `${prefix}${i}` });
        if (content.role === 'model') addModelContent(builder, content, `content-${i}`, model);
        else addUserContent(builder, content, `content-${i}`);
      });
    });
    return withDerivedTasks(builder.build({ id: basename(file, extname(file)), model }));
  },
};

/**
 * A model turn: text parts are fragments of one answer (joined as they are), thought parts its
 * thinking, function calls its tool calls. The thought signature is kept: Gemini rejects a history
 * whose function-call turns lost theirs.
 */
function addModelContent(builder: TranscriptBuilder, content: Content, id: string, model: string | undefined): void {
  const text = content.parts
    .filter((p) => p.thought !== true && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
  const thinking = content.parts
    .filter((p) => p.thought === true && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
  const signature = content.parts.find((p) => typeof p.thoughtSignature === 'string' && p.thoughtSignature !== '')?.thoughtSignature ?? undefined;
  const message = builder.addMessage({ id, role: 'assistant', text, thinking: thinking === '' ? undefined : thinking, thoughtSignature: signature, model });
  content.parts.forEach((part, k) => {
    if (part.functionCall != null) {
      // Older Gemini models send calls without ids; their responses then pair by name, in order.
      const callId = part.functionCall.id ?? `${id}/call-${k}`;
      builder.addToolCall(message, { callId, name: part.functionCall.name, args: part.functionCall.args ?? {} });
    } else if (!isMapped(part)) {
      builder.countUnknown(`part:${partKind(part)}`);
    }
  });
}

/** A user turn: function responses become tool messages, the rest one user message. */
function addUserContent(builder: TranscriptBuilder, content: Content, id: string): void {
  const texts: string[] = [];
  content.parts.forEach((part, k) => {
    const response = part.functionResponse;
    if (response != null) {
      const callId = response.id ?? undefined;
      builder.addToolResult({ id: `${id}/response-${k}`, callId, name: response.name ?? undefined, text: functionResponseText(response.response) });
    } else {
      texts.push(partListText([part]));
    }
  });
  if (texts.length > 0) builder.addMessage({ id, role: 'user', text: texts.join('\n') });
}

function isMapped(part: Part): boolean {
  return typeof part.text === 'string' || (part.thoughtSignature != null && Object.keys(part).length === 1);
}
