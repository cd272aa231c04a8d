import { z } from 'zod';
import { isRecord } from './lines.js';

/** The fields of a Gemini `Part` the importers read; a part holds one of them. */
export const partSchema = z.looseObject({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: z.looseObject({ id: z.string().nullish(), name: z.string().min(1), args: z.record(z.string(), z.unknown()).nullish() }).nullish(),
  functionResponse: z.looseObject({ id: z.string().nullish(), name: z.string().nullish(), response: z.unknown() }).nullish(),
});

export type Part = z.infer<typeof partSchema>;

/** The name of the kind of data a part carries (`text`, `inlineData`, ...), for markers and counts. */
export function partKind(part: Record<string, unknown>): string {
  return Object.keys(part).find((key) => key !== 'thought' && key !== 'thoughtSignature' && part[key] != null) ?? 'empty';
}

/**
 * The text of a `PartListUnion` as Gemini CLI records it (a string, a part, or a list of them):
 * text parts joined, function responses as their output, other data as a `[kind]` marker.
 * Thought parts are left out: they are thinking, not content.
 */
export function partListText(content: unknown): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .flatMap((part: unknown): string[] => {
      if (typeof part === 'string') return [part];
      if (!isRecord(part) || part.thought === true) return [];
      if (typeof part.text === 'string') return [part.text];
      if (isRecord(part.functionResponse)) return [functionResponseText(part.functionResponse.response)];
      return [`[${partKind(part)}]`];
    })
    .join('\n');
}

/**
 * A function response as the model reads it: tools answer `{output}` or `{error}` by convention;
 * anything else is kept as its JSON.
 */
export function functionResponseText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (isRecord(response)) {
    if (typeof response.output === 'string') return response.output;
    if (typeof response.error === 'string') return `Error: ${response.error}`;
  }
  return response === undefined ? '' : JSON.stringify(response);
}
