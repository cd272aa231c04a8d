import { median } from '../stats.js';

/**
 * Content an agent sent with a logged message that its log does not hold. Claude Code, for one,
 * appends system reminders to the next user message — the new text of every file it had read
 * that changed on disk since (after a `sed` over twelve files the recorded input jumps by 6.5k
 * tokens for a 372-character tool result), hook output, todo reminders — and logs none of them.
 * The recorded usage shows such content as a jump: the recorded input grows by far more between
 * two calls than the messages added between them can explain.
 *
 * The rule, one for every agent and never per file: between two consecutive calls of the same
 * compaction segment, the recorded growth beyond the computed growth is unlogged content when it
 * exceeds both UNLOGGED_MIN_TOKENS and UNLOGGED_MIN_SHARE of the computed growth. Below that it
 * is tokenizer mismatch (calibration.ts), which stays well inside half of an increment. The
 * content is charged with the last message added before the call (the user or tool message it was
 * appended to), so it stays in the context as long as that message does and leaves with it.
 *
 * Some agents send a little unlogged content with every call instead: Claude Code 1.0.8x sessions
 * (hooks, reminders) grow ~100–200 tokens a call beyond what their messages explain, for hundreds
 * of calls (swordintel-0c45b0a6: 8.8k tokens short by the end of a segment, never one jump). So a
 * call that is not a jump is charged the persistent excess of the calls before it: the median
 * excess of the last PERSISTENT_WINDOW small calls of its segment (computed growth under
 * PERSISTENT_SMALL_CALL tokens, jumps left out) when it exceeds PERSISTENT_MIN_TOKENS. Measured on
 * small calls only, because tokenizer mismatch grows with the call (±20 % of 250 tokens stays
 * within the 50): a per-call constant shows there, a miscounted tokenizer does not. On small
 * calls the median excess per log is at most +31 tokens on the other 35 real logs that have small
 * calls, 95–218 on the three Claude Code 1.0.8x ones.
 */
export const UNLOGGED_MIN_TOKENS = 500;
export const UNLOGGED_MIN_SHARE = 0.5;
export const PERSISTENT_WINDOW = 10;
export const PERSISTENT_SMALL_CALL = 250;
export const PERSISTENT_MIN_TOKENS = 50;

/** One call with recorded usage, in the order of the log. */
export interface UsageStep {
  recorded: number;
  /** What the replay charges for the call, hidden prefix left out. */
  computed: number;
  /** Compaction segment: 0 before the log's first compaction, +1 after each. */
  segment: number;
}

/** The unlogged tokens found at each step (0 where the growth is explained): a jump's whole excess, else the persistent excess. */
export function unloggedBySteps(steps: readonly UsageStep[]): number[] {
  let window: number[] = [];
  return steps.map((step, i) => {
    const previous = i > 0 ? steps[i - 1] : undefined;
    if (previous?.segment !== step.segment) {
      window = [];
      return 0;
    }
    const computedGrowth = step.computed - previous.computed;
    const excess = step.recorded - previous.recorded - computedGrowth;
    const floor = Math.max(UNLOGGED_MIN_TOKENS, UNLOGGED_MIN_SHARE * Math.max(0, computedGrowth));
    if (excess > floor) return Math.round(excess);
    const persistent = window.length === PERSISTENT_WINDOW ? median(window) : 0;
    if (computedGrowth < PERSISTENT_SMALL_CALL) window = [...window, excess].slice(-PERSISTENT_WINDOW);
    return persistent > PERSISTENT_MIN_TOKENS ? Math.round(persistent) : 0;
  });
}

/**
 * The unlogged tokens in the context of each step: within a segment they add up (every earlier
 * message is still sent); a compaction replaces the messages that carried them.
 */
export function unloggedInContext(steps: readonly UsageStep[], unlogged: readonly number[] = unloggedBySteps(steps)): number[] {
  let carried = 0;
  return steps.map((step, i) => {
    if (i > 0 && steps[i - 1]?.segment !== step.segment) carried = 0;
    carried += unlogged[i] ?? 0;
    return carried;
  });
}
