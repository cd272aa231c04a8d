import { runLogMemo } from '../memo.js';
import type { MessageEvent } from '../transcript/types.js';
import { messageText } from './context-text.js';
import { SEPARATOR } from './retention.js';
import { indexOfSpecific, specificsSurvival, type Specifics, type SpecificsSurvival } from './specifics.js';

/**
 * specifics.ts `specificsSurvival` of a context given as its messages, with what each message holds
 * found once per message object: a compacting strategy asks at many steps about contexts that
 * mostly keep the same messages. The same shares as searching the joined texts: a value never
 * spans two texts (they are joined with a separator no value holds, and a number's edges only
 * look at digits); a value that holds the separator (or is empty) is searched in the joined texts.
 */
export function specificsSurvivalInMessages(specifics: Specifics, messages: readonly MessageEvent[]): SpecificsSurvival {
  const values = valuesOf(specifics);
  if (values.some((v) => v.value === '' || v.value.includes(SEPARATOR))) return specificsSurvival(specifics, messages.map(messageText).join(SEPARATOR));
  let memo = foundMemo.get(specifics);
  if (memo === undefined) {
    memo = new WeakMap();
    foundMemo.set(specifics, memo);
  }
  findInNewMessages(values, memo, messages);
  const found = new Uint8Array(values.length);
  for (const message of messages) for (const i of memo.get(message) ?? []) found[i] = 1;
  const share = (kind: keyof Specifics): number | null => {
    const list = specifics[kind];
    if (list.length === 0) return null;
    let hits = 0;
    values.forEach((v, i) => {
      if (v.kind === kind && found[i] === 1) hits++;
    });
    return hits / list.length;
  };
  return { paths: share('paths'), commands: share('commands'), numbers: share('numbers') };
}

/**
 * Fills the memo for the messages not in it yet: each value is searched once in their joined
 * texts (not once per message), and an occurrence names its message by offset; the search then
 * goes on from the next message, so a value costs a search per message that holds it, plus one.
 */
function findInNewMessages(values: readonly SpecificValue[], memo: WeakMap<MessageEvent, readonly number[]>, messages: readonly MessageEvent[]): void {
  const fresh = [...new Set(messages.filter((message) => !memo.has(message)))];
  if (fresh.length === 0) return;
  const starts: number[] = [];
  let offset = 0;
  const texts = fresh.map((message) => {
    const text = messageText(message);
    starts.push(offset);
    offset += text.length + SEPARATOR.length;
    return text;
  });
  const joined = texts.join(SEPARATOR);
  const holds: number[][] = fresh.map(() => []);
  // Numbers: every place a number may stand on its own is read once and looked up, rather than
  // every number of the session searched for (a long session has thousands, and they grow with it).
  const numbers = numberIndexOf(values);
  if (numbers.byValue.size > 0) {
    const held = fresh.map(() => new Set<number>());
    forEachNumberAt(joined, numbers.longest, (value, at) => {
      const i = numbers.byValue.get(value);
      if (i !== undefined) held[messageAt(starts, at)]?.add(i);
    });
    held.forEach((set, m) => holds[m]?.push(...set));
  }
  values.forEach(({ kind, value }, i) => {
    if (kind === 'numbers') return;
    for (let at = indexOfSpecific(kind, joined, value, 0); at >= 0;) {
      const m = messageAt(starts, at);
      holds[m]?.push(i);
      const next = starts[m + 1];
      if (next === undefined) break;
      at = indexOfSpecific(kind, joined, value, next);
    }
  });
  fresh.forEach((message, m) => memo.set(message, holds[m] ?? []));
}

/** The number values by text, with their indexes in `valuesOf`, and the longest one's length. */
function numberIndexOf(values: readonly SpecificValue[]): { byValue: Map<string, number>; longest: number } {
  let index = numberIndexes.get(values);
  if (index === undefined) {
    const byValue = new Map<string, number>();
    let longest = 0;
    values.forEach(({ kind, value }, i) => {
      if (kind !== 'numbers' || byValue.has(value)) return;
      byValue.set(value, i);
      longest = Math.max(longest, value.length);
    });
    index = { byValue, longest };
    numberIndexes.set(values, index);
  }
  return index;
}

const numberIndexes = runLogMemo<readonly SpecificValue[], { byValue: Map<string, number>; longest: number }>();

const isDigitCode = (code: number): boolean => code >= 48 && code <= 57;

/**
 * A run of the characters a number value is made of (`v`, digits, dots) that holds a digit: only
 * such a run holds a number (the runs without one, a `v` of a word or the dot ending a sentence,
 * are most of a text's runs). The first match in a run starts at its first character (`[v.]*`
 * takes what comes before its first digit), so the matches are the whole runs.
 */
const NUMBER_RUN = /[v.]*[0-9][v0-9.]*/g;

/**
 * Calls `visit` with every substring of `text` that specifics.ts `indexOfSpecific` could find as a
 * number on its own: it starts with `v` or a digit not preceded by a digit, ends with a digit not
 * followed by one, and holds only `v`, digits and dots (what a number value is made of), up to
 * `longest` characters. A value is found at a place exactly when it is one of these substrings.
 */
function forEachNumberAt(text: string, longest: number, visit: (value: string, at: number) => void): void {
  for (const run of text.matchAll(NUMBER_RUN)) {
    const start = run.index;
    const end = start + run[0].length;
    for (let i = start; i < end; i++) {
      const first = text.charCodeAt(i);
      if (first === 46 || (i > 0 && isDigitCode(text.charCodeAt(i - 1)))) continue;
      for (let j = i + 1; j <= Math.min(end, i + longest); j++) {
        if (isDigitCode(text.charCodeAt(j - 1)) && !isDigitCode(text.charCodeAt(j))) visit(text.slice(i, j), i);
      }
    }
  }
}

/** Index of the message whose text holds `offset` of the joined texts. */
function messageAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

interface SpecificValue {
  kind: keyof Specifics;
  value: string;
}

/**
 * Per specifics, per message object: the indexes (in `valuesOf`) of the values the message holds.
 * Kept across a corpus's logs (`runLogMemo`): every strategy over a log asks about its messages again,
 * and a message's entry (a few indexes) goes with the message.
 */
const foundMemo = runLogMemo<Specifics, WeakMap<MessageEvent, readonly number[]>>();
const valuesMemo = runLogMemo<Specifics, readonly SpecificValue[]>();

function valuesOf(specifics: Specifics): readonly SpecificValue[] {
  let values = valuesMemo.get(specifics);
  if (values === undefined) {
    const kinds = ['paths', 'commands', 'numbers'] as const;
    values = kinds.flatMap((kind) => specifics[kind].map((value) => ({ kind, value })));
    valuesMemo.set(specifics, values);
  }
  return values;
}
