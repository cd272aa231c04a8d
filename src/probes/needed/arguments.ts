import type { MessageEvent, ToolCall } from '../../transcript/types.js';

/**
 * A tool call's argument values as text a later use can be read from: the values, never the keys
 * (`activeForm`, `output_mode` are the tool's words, which the agent knew before the session), and
 * not the values of the tool's own vocabulary (a todo item's `in_progress`, a search's
 * `files_with_matches`): those are choices from the tool's schema, not facts of the session.
 */

/** One string value of a call's arguments and where it stands: `Tool/key/sub` (array positions left out). */
interface ArgumentValue {
  readonly slot: string;
  readonly value: string;
}

function collect(value: unknown, slot: string, out: ArgumentValue[]): void {
  if (typeof value === 'string') out.push({ slot, value });
  else if (typeof value === 'number' || typeof value === 'boolean') out.push({ slot, value: String(value) });
  else if (Array.isArray(value)) for (const item of value) collect(item, slot, out);
  else if (typeof value === 'object' && value !== null) for (const [key, v] of Object.entries(value)) collect(v, `${slot}/${key}`, out);
}

function valuesOf(call: ToolCall): ArgumentValue[] {
  const out: ArgumentValue[] = [];
  collect(call.args, call.name, out);
  return out;
}

// A value that reads as a schema's choice: one lower-case word or snake_case name.
const CHOICE = /^[a-z][a-z0-9_]*$/;
/** At most this many distinct values in a slot for them to be a tool's vocabulary. */
const MAX_CHOICES = 5;

/**
 * The slots of the session's tool calls whose values are a tool's vocabulary: every value the
 * slot ever took is a lower-case word or snake_case name, and it took at most MAX_CHOICES of them
 * over at least two calls (a todo status, a search mode). Read from the session, as no schema is
 * in the log: a slot that names things (a path, a pattern) takes as many values as there are things.
 */
export function toolVocabulary(messages: readonly MessageEvent[]): ReadonlySet<string> {
  const bySlot = new Map<string, { values: Set<string>; count: number; choices: boolean }>();
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) {
      for (const { slot, value } of valuesOf(call)) {
        const seen = bySlot.get(slot) ?? { values: new Set<string>(), count: 0, choices: true };
        seen.values.add(value);
        seen.count++;
        seen.choices &&= CHOICE.test(value);
        bySlot.set(slot, seen);
      }
    }
  }
  const vocabulary = new Set<string>();
  for (const [slot, seen] of bySlot) if (seen.choices && seen.count >= 2 && seen.values.size <= MAX_CHOICES) vocabulary.add(slot);
  return vocabulary;
}

/** The argument values of a call as texts, the values of a vocabulary slot left out. */
export function argumentValues(call: ToolCall, vocabulary: ReadonlySet<string>): string[] {
  return valuesOf(call)
    .filter(({ slot }) => !vocabulary.has(slot))
    .map(({ value }) => value);
}
