import type { ContextMessage } from '../../transcript/types.js';
import type { StrategyEnv } from '../types.js';
import { deriveOnce } from './derived.js';

/**
 * Replacing old tool results by a one-line placeholder, with no model call: the shared core of
 * observation-masking (SWE-agent), clear-tool-results (Claude Code) and anthropic-context-editing
 * (the API's clear-tool-uses edit). The message stays (so its call keeps its result, which the
 * providers require); only its text changes. No retrieval hint: the agents these reproduce leave
 * none, and a hint the probe reader follows would credit them with a recall they do not have.
 */

export interface ClearRule {
  /** How many of the newest tool results keep their text. */
  keepLast: number;
  /** Tool names never cleared. */
  keepTools?: readonly string[];
  /** Tool names cleared even among the newest. */
  clearTools?: readonly string[];
  /** The placeholder, given the number of lines left out. */
  placeholder: (lines: number) => string;
}

/** Indexes of the tool results the rule clears, oldest first. */
function clearableResults(messages: readonly ContextMessage[], rule: ClearRule): number[] {
  const results = messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
  const recent = new Set(results.slice(Math.max(0, results.length - rule.keepLast)));
  return results.filter((i) => {
    const name = messages[i]?.toolName ?? '';
    if (rule.keepTools?.includes(name) === true) return false;
    if (rule.clearTools?.includes(name) === true) return true;
    return !recent.has(i);
  });
}

/** Lines of a text, as the placeholder reports them. */
const lineCount = (text: string): number => (text === '' ? 0 : text.split('\n').length);

/** Lines of a message's text, counted once per message (a placeholder is re-derived at every step). */
export const linesOf = (message: ContextMessage): number => deriveOnce(message, 'lines', () => lineCount(message.text));

/** The messages with the given tool results replaced by the placeholder (already-cleared ones are left as they are). */
function clearResults(messages: readonly ContextMessage[], indexes: readonly number[], rule: Pick<ClearRule, 'placeholder'>): ContextMessage[] {
  const clear = new Set(indexes);
  return messages.map((m, i) => {
    if (!clear.has(i)) return m;
    const text = rule.placeholder(linesOf(m));
    // A short result the placeholder would not shrink stays as it is.
    return text.length >= m.text.length ? m : deriveOnce(m, `placeholder:${text}`, () => ({ ...m, text, replaces: [m.id] }));
  });
}

/**
 * Applies a rule and emits a `truncate` action when the set of cleared results changed since the
 * last step (`last` is the previous count, returned updated): one event per change, not per step.
 */
export function applyClearing(
  messages: readonly ContextMessage[],
  rule: ClearRule,
  env: StrategyEnv,
  last: number,
  reason: string,
): { context: ContextMessage[]; cleared: number } {
  const indexes = clearableResults(messages, rule);
  const context = clearResults(messages, indexes, rule);
  const cleared = context.filter((m, i) => m !== messages[i]).length;
  if (cleared !== last && cleared > 0) {
    env.emit({
      action: 'truncate',
      reason,
      tokensBefore: env.countMessages(messages),
      tokensAfter: env.countMessages(context),
      detail: `${cleared} tool results replaced by a placeholder`,
    });
  }
  return { context, cleared };
}
