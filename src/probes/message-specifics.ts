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
  values.forEach(({ kind, value }, i) => {
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

/** Per specifics, per message object: the indexes (in `valuesOf`) of the values the message holds. */
const foundMemo = new WeakMap<Specifics, WeakMap<MessageEvent, readonly number[]>>();
const valuesMemo = new WeakMap<Specifics, readonly SpecificValue[]>();

function valuesOf(specifics: Specifics): readonly SpecificValue[] {
  let values = valuesMemo.get(specifics);
  if (values === undefined) {
    const kinds = ['paths', 'commands', 'numbers'] as const;
    values = kinds.flatMap((kind) => specifics[kind].map((value) => ({ kind, value })));
    valuesMemo.set(specifics, values);
  }
  return values;
}
