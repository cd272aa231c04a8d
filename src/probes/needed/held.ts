import type { ContextMessage } from '../../transcript/types.js';
import { carryValues, diffFrom, type ContextDiff } from '../../transcript/context-diff.js';
import type { FactIndex } from './fact-index.js';

/**
 * Synthetic messages that carry transcript text as it was, not words the strategy wrote: a file
 * re-read and re-attached after a compaction (`claude-code-autocompact file`, the recorded agent's
 * `recorded-restored`), a follow-up fetch (`retrieval`). A synthetic message that `replaces`
 * messages is a cut, a preview or a tombstone of them: what it still holds of them is theirs too.
 */
const COPY_TAG = /(?:^|\W)(?:file|restored|retrieval)$/;

/**
 * Whether a message of a context is one the strategy wrote (a summary, a recap, a snapshot, a
 * scratchpad or state block): a fact found only in such messages is `summarized`, not `kept`.
 */
export function isWrittenByStrategy(message: ContextMessage): boolean {
  return message.synthetic !== undefined && message.replaces === undefined && !COPY_TAG.test(message.synthetic);
}

/** What a context holds of one fact: in how many transcript messages (or copies of them), and in how many the strategy wrote. */
export interface FactHeld {
  copies: number;
  written: number;
}

/**
 * What the context a strategy sent holds of each fact of an index, as counts of messages per fact
 * carried along the step's `ContextDiff`: the messages it removes are counted out and those it
 * adds in, so a step costs what changed (each message's facts are found once, fact-index.ts).
 */
export class NeededContext {
  private held: readonly ContextMessage[] = [];
  private heldFacts: (readonly number[])[] = [];
  private readonly copies: Int32Array;
  private readonly written: Int32Array;

  constructor(private readonly index: FactIndex) {
    this.copies = new Int32Array(index.facts.length);
    this.written = new Int32Array(index.facts.length);
  }

  /** Moves the counts to `diff.after` (from whatever context was counted last). */
  update(diff: ContextDiff): void {
    const from = diffFrom(this.held, diff);
    this.heldFacts = carryValues(
      this.heldFacts,
      from,
      (message) => {
        const facts = this.index.factsIn(message);
        this.count(message, facts, 1);
        return facts;
      },
      (facts, message) => this.count(message, facts, -1),
    );
    this.held = from.after;
  }

  /** The context counted last (`diff.after` of the last update). */
  get messages(): readonly ContextMessage[] {
    return this.held;
  }

  /** What the context counted last holds of fact number `fact`. */
  holds(fact: number): FactHeld {
    return { copies: this.copies[fact] ?? 0, written: this.written[fact] ?? 0 };
  }

  private count(message: ContextMessage, facts: readonly number[], delta: 1 | -1): void {
    const counts = isWrittenByStrategy(message) ? this.written : this.copies;
    for (const fact of facts) (counts[fact] as number) += delta;
  }
}
