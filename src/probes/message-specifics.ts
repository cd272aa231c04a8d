import type { MessageEvent } from '../transcript/types.js';
import { messageText } from './context-text.js';
import { SEPARATOR } from './retention.js';
import { specificsSurvival, specificValueFound, type Specifics, type SpecificsSurvival } from './specifics.js';

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
  const found = new Uint8Array(values.length);
  for (const message of messages) {
    let indexes = memo.get(message);
    if (indexes === undefined) {
      const text = messageText(message);
      indexes = values.flatMap((v, i) => (specificValueFound(v.kind, text, v.value) ? [i] : []));
      memo.set(message, indexes);
    }
    for (const i of indexes) found[i] = 1;
  }
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
