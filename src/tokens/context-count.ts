import type { ProviderName } from '../contracts/provider.js';
import { carryValues, diffFrom, type ContextDiff } from '../transcript/context-diff.js';
import type { ContextMessage } from '../transcript/types.js';
import type { Tokenizer } from './types.js';

/**
 * The tokens of the context a session sends, step after step (`Tokenizer.countMessages` of it,
 * no instruction), kept along the step's `ContextDiff`: only the messages a step adds are
 * counted, and a removed message's count is taken off the sum.
 */
export interface ContextCount {
  /** The count of `diff.after` (from the last update's context: `diff.before` should be it, else the diff is taken again from it). */
  update(diff: ContextDiff): number;
}

export function createContextCount(tokenizer: Tokenizer, format: ProviderName): ContextCount {
  let counts: number[] = [];
  let held: readonly ContextMessage[] = [];
  let sum = 0;
  const overhead = tokenizer.countMessages([], format);
  const countOf = (message: ContextMessage): number => {
    const n = tokenizer.countMessage(message, format);
    sum += n;
    return n;
  };
  return {
    update(diff) {
      const from = diffFrom(held, diff);
      counts = carryValues(counts, from, countOf, (n) => (sum -= n));
      held = from.after;
      return overhead + sum;
    },
  };
}
