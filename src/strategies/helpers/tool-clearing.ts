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

/**
 * Where the newest `keepLast` tool results begin: results from there on are recent. With fewer
 * results than that, all are; with `keepLast` 0, none is.
 */
function recentFrom(messages: readonly ContextMessage[], keepLast: number): number {
  if (keepLast === 0) return messages.length;
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'tool' && ++seen === keepLast) return i;
  return 0;
}

/** Lines of a text, as the placeholder reports them. */
const lineCount = (text: string): number => (text === '' ? 0 : text.split('\n').length);

/** Lines of a message's text, counted once per message (a placeholder is re-derived at every step). */
export const linesOf = (message: ContextMessage): number => deriveOnce(message, 'lines', () => lineCount(message.text));

/**
 * The messages with the tool results the rule clears replaced by the placeholder, and how many
 * were replaced. One pass, each replacement made once per message and placeholder (the
 * placeholder function names the edit: strategies pass module constants). A short result the
 * placeholder would not shrink stays as it is; an already-cleared one is left alone.
 */
function clearResults(messages: readonly ContextMessage[], rule: ClearRule): { context: ContextMessage[]; cleared: number } {
  const recent = recentFrom(messages, rule.keepLast);
  const context = messages.slice();
  let cleared = 0;
  for (const [i, m] of messages.entries()) {
    if (m.role !== 'tool') continue;
    const name = m.toolName ?? '';
    if (rule.keepTools?.includes(name) === true) continue;
    if (rule.clearTools?.includes(name) !== true && i >= recent) continue;
    const replaced = deriveOnce(m, rule.placeholder, () => {
      const text = rule.placeholder(linesOf(m));
      return text.length >= m.text.length ? m : { ...m, text, replaces: [m.id] };
    });
    if (replaced === m) continue;
    context[i] = replaced;
    cleared += 1;
  }
  return { context, cleared };
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
  const { context, cleared } = clearResults(messages, rule);
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
