import type { Transcript } from '../transcript/types.js';
import { findPathsInText, listMessages, readPathArgs, readShellCommand, renderMessageText } from './message-text.js';

/** The verbatim specifics of a session that a compressed context should not paraphrase away. */
export interface Specifics {
  /** Distinct file paths, in order of first appearance. */
  paths: string[];
  /** Distinct shell commands run through tool calls. */
  commands: string[];
  /** Distinct numbers of 3+ digits, decimals and version-like numbers (`v20.11.1`, `3.14`). */
  numbers: string[];
}

/** Share of each kind of specific still verbatim in a context; `null` when the session has none. */
export interface SpecificsSurvival {
  paths: number | null;
  commands: number | null;
  numbers: number | null;
}

// A version or decimal (`v1.2.3`, `3.14`) or a run of 3+ digits, not inside a longer token.
const NUMBER = /(?<![\w.])(?:v?\d+(?:\.\d+)+|\d{3,})(?![\w]|\.\d)/g;

/** Numbers written in a text: versions, decimals, runs of 3+ digits, in order of appearance. */
export function findNumbersInText(text: string): string[] {
  return [...text.matchAll(NUMBER)].map((m) => m[0]);
}

function addAll(target: Set<string>, values: Iterable<string>): void {
  for (const value of values) target.add(value);
}

/**
 * Collects the distinct paths, commands and numbers of a whole transcript (message texts, tool
 * call arguments and tool output; thinking is left out, as it is not part of the record a reader
 * relies on).
 */
export function extractSpecifics(transcript: Transcript): Specifics {
  const paths = new Set<string>();
  const commands = new Set<string>();
  const numbers = new Set<string>();
  for (const message of listMessages(transcript.events)) {
    for (const call of message.toolCalls ?? []) {
      addAll(paths, readPathArgs(call));
      const command = readShellCommand(call);
      if (command !== undefined) commands.add(command);
    }
    const text = renderMessageText(message);
    addAll(paths, findPathsInText(text));
    addAll(numbers, findNumbersInText(text));
  }
  return { paths: [...paths], commands: [...commands], numbers: [...numbers] };
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

/** Where a number first occurs in a text at or after `from` on its own, not as part of a longer number, or -1. */
function indexOfNumber(text: string, value: string, from: number): number {
  for (let at = text.indexOf(value, from); at >= 0; at = text.indexOf(value, at + 1)) {
    if (!isDigit(text[at - 1]) && !isDigit(text[at + value.length])) return at;
  }
  return -1;
}

/** Whether a number occurs in a text on its own, not as part of a longer number. */
function containsNumber(text: string, value: string): boolean {
  return indexOfNumber(text, value, 0) >= 0;
}

/** Where one specific of `kind` first occurs verbatim in `text` at or after `from` (a number not inside a longer one), or -1. */
export function indexOfSpecific(kind: keyof Specifics, text: string, value: string, from: number): number {
  return kind === 'numbers' ? indexOfNumber(text, value, from) : text.indexOf(value, from);
}

function shareFound(values: readonly string[], isFound: (value: string) => boolean): number | null {
  if (values.length === 0) return null;
  return values.filter(isFound).length / values.length;
}

/**
 * The share of each kind of specific that is still verbatim in the context (all context texts
 * joined, e.g. retention.ts `PreparedContext.raw`).
 */
export function specificsSurvival(specifics: Specifics, contextJoined: string): SpecificsSurvival {
  return {
    paths: shareFound(specifics.paths, (p) => contextJoined.includes(p)),
    commands: shareFound(specifics.commands, (c) => contextJoined.includes(c)),
    numbers: shareFound(specifics.numbers, (n) => containsNumber(contextJoined, n)),
  };
}
