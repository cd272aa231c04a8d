import type { Failure } from '../contracts/provider.js';

/**
 * The most tokens one request can plausibly count: 100 times the largest window of any model
 * (1M). A usage beyond it (`9e15`) is the provider's bug, not a measurement: billed at any price
 * it would turn a run's cost into nonsense.
 */
const MAX_PLAUSIBLE_TOKENS = 100_000_000;

/** One usage field as the provider named it (`usage.prompt_tokens`) and the value it gave, unread. */
export interface UsageField {
  name: string;
  value: unknown;
  /** A field the provider must give (prompt and completion counts); others default to 0. */
  required: boolean;
}

/**
 * The counts of a provider's usage, each checked, in the order given: a count is a whole number of
 * tokens from 0 to `MAX_PLAUSIBLE_TOKENS`, and an optional field left out counts 0. A missing
 * required field, a negative, fractional, non-finite or non-numeric one (`"NaN"`) or an absurd one
 * is a malformed answer (`server`, `malformed`): the run cannot measure tokens or cost from it, and
 * trusting it would report "−2M tokens" or $180,000,000,000.
 */
export function readUsageCounts(fields: readonly UsageField[]): { counts: number[] } | { failure: Failure } {
  const counts: number[] = [];
  for (const { name, value, required } of fields) {
    if (value === undefined || value === null) {
      if (required) return { failure: malformedUsage(`no ${name}: ctxbench measures tokens and cost from the provider's usage`) };
      counts.push(0);
    } else if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_PLAUSIBLE_TOKENS) {
      return { failure: malformedUsage(`${name} is ${describeValue(value)}, not a count of tokens (0 to ${MAX_PLAUSIBLE_TOKENS})`) };
    } else {
      counts.push(value);
    }
  }
  return { counts };
}

/** A completion whose usage cannot be read: malformed like a body that is no completion (request-bounds.ts `malformedBody`). */
function malformedUsage(detail: string): Failure {
  return { kind: 'server', message: `malformed response: ${detail}`, malformed: true };
}

/**
 * An answer with no text and no tool call that the provider ended for a reason other than a
 * finished turn: its filter withheld it (OpenAI `content_filter`, Gemini `SAFETY`, …), or the
 * output limit was spent before any of it (`length`, `MAX_TOKENS`, the reasoning took it all).
 * Nothing came back to continue the session with: the unit crashes with `empty-answer`, the
 * provider's reason in its message. Undefined when the answer holds something, or ended normally.
 */
export function emptyAnswer(provider: 'OpenAI' | 'Gemini', finishReason: string | undefined, hasContent: boolean): Failure | undefined {
  if (hasContent || finishReason === undefined || NORMAL_ENDS.has(finishReason)) return undefined;
  const why = OUTPUT_LIMIT.has(finishReason) ? 'the output limit was reached before any text' : 'the provider withheld the answer';
  return { kind: 'empty-answer', message: `${provider} returned no content (finish reason ${finishReason}): ${why}`, finishReason };
}

/** Finish reasons of a turn that ended as the model meant it to (an empty answer then is the model's own). */
const NORMAL_ENDS: ReadonlySet<string> = new Set(['stop', 'tool_calls', 'function_call', 'STOP', 'FINISH_REASON_UNSPECIFIED']);
const OUTPUT_LIMIT: ReadonlySet<string> = new Set(['length', 'MAX_TOKENS']);

/** A value as the provider sent it: JSON where it has one (`"NaN"`, `-5`), else its type. */
function describeValue(value: unknown): string {
  return JSON.stringify(value) ?? typeof value;
}
