import { fitTheilSen } from '../stats.js';

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
 * (hooks, reminders) grow ~100–250 tokens a call beyond what their messages explain, for hundreds
 * of calls (swordintel-0c45b0a6: 8.8k tokens short by the end of a segment, never one jump). So a
 * call that is not a jump is charged the persistent excess of the calls before it. Tokenizer
 * mismatch grows with what a call adds; content sent with every call does not. So the excess of
 * the last PERSISTENT_WINDOW calls of the segment that added messages (jumps left out) is split
 * into a per-call constant and a share of the growth (`perCallExcess`), and the constant is
 * charged, from PERSISTENT_MIN_CALLS calls on, when it exceeds PERSISTENT_MIN_TOKENS. Counted raw
 * (o200k_base, uncalibrated), a Claude session's ~18 % mismatch stays in the share, uncharged.
 * Before, the rule took the median excess of small calls only (under 250 tokens), which a session
 * whose calls nearly all print a 1k-token banner hardly has (swordintel-b260c379: 2, 11 and 3
 * small calls in its three segments, ~220 tokens a call missed). Usage a generator wrote (a
 * synthetic session's ≈ 4 characters a token) is no provider's count: nothing is read from it
 * (replay/hidden-prefix.ts).
 */
export const UNLOGGED_MIN_TOKENS = 500;
export const UNLOGGED_MIN_SHARE = 0.5;
export const PERSISTENT_WINDOW = 20;
export const PERSISTENT_MIN_CALLS = 10;
export const PERSISTENT_MIN_TOKENS = 50;

/**
 * An agent can also send less than its log holds, without logging why: Claude Code 1.0.8x, resumed
 * (`--resume`, `--continue`, or a new process after a usage limit), rebuilds the conversation from
 * its log, so everything it had sent but never logged is gone — the reminders appended to messages
 * (a changed file's new text, the to-do list), the files it re-attached after a compaction — and so
 * is its record of the files it had read (the next `Edit` fails with "File has not been read
 * yet"). Every logged message is sent again. The recorded usage shows it as a fall: the recorded
 * input drops below the previous call's by more than the computed growth explains
 * (swordintel-32c5211e: 18,231 tokens, of which 15,169 unlogged after a `sed -i` and 3,436 to-do
 * reminders; swordintel-54bc4295: 25,823, the files re-attached after the compaction the log opens
 * with). The rule, one for every agent: between two consecutive calls of one compaction segment,
 * a deficit over RESET_MIN_TOKENS and over RESET_MIN_SHARE of the computed growth is a rebuild
 * from the log. Below that it is tokenizer mismatch on a large output (a 75k-token tool result
 * read 17k short, sympy-15976) or a changed tool list (Claude Code's `/mcp`: 2k).
 */
export const RESET_MIN_TOKENS = 4_000;
export const RESET_MIN_SHARE = 0.5;

/** One call with recorded usage, in the order of the log. */
export interface UsageStep {
  recorded: number;
  /** What the replay charges for the call, hidden prefix left out. */
  computed: number;
  /** Compaction segment: 0 before the log's first compaction, +1 after each. */
  segment: number;
}

/**
 * The steps at which the agent rebuilt its context from its log (see RESET_MIN_TOKENS), as indices
 * into `steps`; each opens a segment of its own (`withResets`).
 */
export function resetSteps(steps: readonly UsageStep[]): number[] {
  const out: number[] = [];
  steps.forEach((step, i) => {
    const previous = i > 0 ? steps[i - 1] : undefined;
    if (previous?.segment !== step.segment) return;
    const computedGrowth = step.computed - previous.computed;
    const deficit = previous.recorded + computedGrowth - step.recorded;
    if (deficit > RESET_MIN_TOKENS && deficit > RESET_MIN_SHARE * Math.max(0, computedGrowth)) out.push(i);
  });
  return out;
}

/** The steps with every reset opening a new segment: what was carried before it (unlogged content) is not carried past it. */
export function withResets<T extends UsageStep>(steps: readonly T[], resets: readonly number[] = resetSteps(steps)): T[] {
  let shift = 0;
  const at = new Set(resets);
  return steps.map((step, i) => {
    if (at.has(i)) shift += 1;
    return shift === 0 ? step : { ...step, segment: step.segment + shift };
  });
}

/** The unlogged tokens found at each step (0 where the growth is explained): a jump's whole excess, else the persistent excess. */
export function unloggedBySteps(steps: readonly UsageStep[]): number[] {
  let window: { growth: number; excess: number }[] = [];
  return steps.map((step, i) => {
    const previous = i > 0 ? steps[i - 1] : undefined;
    if (previous?.segment !== step.segment) {
      window = [];
      return 0;
    }
    const growth = step.computed - previous.computed;
    const excess = step.recorded - previous.recorded - growth;
    const jump = jumpTokens(previous, step);
    if (jump > 0) return jump;
    const persistent = window.length >= PERSISTENT_MIN_CALLS ? perCallExcess(window) : 0;
    if (growth > 0) window = [...window, { growth, excess }].slice(-PERSISTENT_WINDOW);
    return persistent > PERSISTENT_MIN_TOKENS ? Math.round(persistent) : 0;
  });
}

/** The unlogged tokens of a jump between two consecutive calls of one segment (UNLOGGED_MIN_TOKENS), else 0. */
function jumpTokens(previous: UsageStep, step: UsageStep): number {
  const growth = step.computed - previous.computed;
  const excess = step.recorded - previous.recorded - growth;
  return excess > Math.max(UNLOGGED_MIN_TOKENS, UNLOGGED_MIN_SHARE * Math.max(0, growth)) ? Math.round(excess) : 0;
}

/**
 * The excess a call carries whatever it adds. Mismatch and its noise grow with the call, so the
 * excess per token is fitted against 1 / growth (Theil–Sen), which weighs small calls most: the
 * slope is the per-call content, the intercept the mismatch per token. 0 when every call added
 * the same (the two cannot be told apart).
 */
function perCallExcess(window: readonly { growth: number; excess: number }[]): number {
  const fit = fitTheilSen(
    window.map((c) => 1 / c.growth),
    window.map((c) => c.excess / c.growth),
  );
  return fit?.slope ?? 0;
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
