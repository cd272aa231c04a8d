import type { ContextMessage } from '../../transcript/types.js';

/**
 * The family of a provider format. Gemini has two formats that share one tool-call shape: the
 * API's `contents` (functionCall / functionResponse parts) and the Gemini CLI's recorded session
 * (the same parts wrapped in its own log). Both are imported as dialect `gemini`; a `gemini-*`
 * value (should an importer ever tell them apart) belongs to the same family.
 */
export function dialectFamily(dialect: string): string {
  return dialect === 'gemini' || dialect.startsWith('gemini-') ? 'gemini' : dialect;
}

export interface Isolation {
  context: ContextMessage[];
  /** Ids of the messages left out or stripped of their calls. */
  affected: string[];
}

/**
 * Tool-call isolation after a dialect switch: tool calls and tool results produced in another
 * provider family are left out, since their ids, argument shapes and signatures mean nothing to
 * the provider the session continues with. A call goes with its result either way, so no result
 * is left without its call. An assistant turn that loses all its calls is kept as a text message
 * (text and thinking, no signature) when it has text, else left out. Messages that say nothing
 * about their dialect are kept.
 */
export function isolateToolCalls(messages: readonly ContextMessage[], dialect: string): Isolation {
  const family = dialectFamily(dialect);
  const isForeign = (m: ContextMessage): boolean => m.dialect !== undefined && dialectFamily(m.dialect) !== family;
  const cut = new Set<string>();
  for (const m of messages) {
    if (!isForeign(m)) continue;
    for (const call of m.toolCalls ?? []) cut.add(call.id);
    if (m.role === 'tool' && m.toolCallId !== undefined) cut.add(m.toolCallId);
  }
  const context: ContextMessage[] = [];
  const affected: string[] = [];
  for (const m of messages) {
    if (m.role === 'tool' && m.toolCallId !== undefined && cut.has(m.toolCallId)) {
      affected.push(m.id);
      continue;
    }
    const calls = m.toolCalls ?? [];
    if (!calls.some((c) => cut.has(c.id))) {
      context.push(m);
      continue;
    }
    affected.push(m.id);
    const stripped = stripCalls(m, cut);
    if (stripped !== undefined) context.push(stripped);
  }
  return { context, affected };
}

function stripCalls(message: ContextMessage, cut: ReadonlySet<string>): ContextMessage | undefined {
  const { toolCalls, thoughtSignature, ...rest } = message;
  const remaining = (toolCalls ?? []).filter((c) => !cut.has(c.id));
  // A turn that still makes calls of the current family keeps its signature (Gemini needs it).
  if (remaining.length > 0) return { ...rest, toolCalls: remaining, ...(thoughtSignature !== undefined ? { thoughtSignature } : {}) };
  if (message.text === '' && (message.thinking ?? '') === '') return undefined;
  return rest;
}
