import type { Dialect } from '../transcript/types.js';

/**
 * What `ctxbench generate --like` learned from a set of real logs (docs/scenarios.md, "Sessions
 * like yours"), written beside the sessions as `fit.json`. Sizes are in characters; a
 * distribution is given by its quantiles at 0, 5, 10, …, 100 % (21 values), and sessions are drawn
 * from it by interpolating between them. A share is a fraction of the items counted.
 */
export type Quantiles = readonly number[];

/**
 * A size that logs differ in far more than their messages do within one (turns per task, unlogged
 * content, tool output and text sizes), as two levels: per log, the mean of its values (`perLog`,
 * over the logs that have any: the spread of the means that `LikeFit.perLog` holds log by log);
 * pooled, each value over its log's mean (`relative`). A session takes the mean of the log it stands
 * for, then draws each value as that mean times a relative draw (draw.ts `scaleOf`).
 */
export interface TwoLevels {
  readonly perLog: Quantiles;
  readonly relative: Quantiles;
  /**
   * The largest value in any log: no draw exceeds it. An agent's tools cut their output (Claude
   * Code's largest result in the A logs below is 18k tokens), while a log's mean times the pooled
   * top relative value (36, from another log) drew results of 38k.
   */
  readonly largest: number;
}

/** Fractions of a whole, by name; they add up to 1 (or the object is empty). */
export type Shares = Readonly<Record<string, number>>;

/** The shapes a tool output is sorted into (`shapeOf`): a code listing, test or error output, a list of names, or other text. */
export const TOOL_SHAPES = ['code', 'test', 'listing', 'text'] as const;
export type ToolShape = (typeof TOOL_SHAPES)[number];

/** The roles a needed fact was last seen in before its use. */
export const SOURCE_ROLES = ['tool', 'user', 'assistant'] as const;
export type SourceRole = (typeof SOURCE_ROLES)[number];

/** Where an earlier message held a fact: in the text of a message of that role, or in an agent's tool calls (`call`). */
export const COPY_PLACES = [...SOURCE_ROLES, 'call'] as const;
export type CopyPlace = (typeof COPY_PLACES)[number];

/**
 * One fitted log's own levels of what logs differ in far more than their messages do within one,
 * kept together because they go together in a log (the log that runs long is one whose context
 * grows fast; the one of frequent requests sends most unlogged). Means over the log's items; 0 for
 * a log without any.
 */
export interface LogLevels {
  /** Its assistant messages (steps). */
  readonly steps: number;
  /** What each call carried beyond the log (as `hiddenTokens`); absent for a log without recorded usage. */
  readonly hiddenTokens?: number;
  /** Steps from one user request to the next (as `task.steps`). */
  readonly requestSteps: number;
  /** Tokens of an assistant message's text (as `assistant.textTokens`). */
  readonly textTokens: number;
  /** Tokens of a tool result (as `toolOutput.tokens`). */
  readonly toolTokens: number;
  /** Tokens sent unlogged with a tool result or request (as `toolOutput.unloggedTokens`). */
  readonly unloggedTokens: number;
  /**
   * Per fifth of its steps, what it sent unlogged per step over its mean (observe.ts `unloggedGrowth`):
   * Claude Code's reminders and changed files pile up as a session goes on (swordintel-0c45b0a6 sends
   * 0.1 of its mean in its first fifth, 1.6 in its last).
   */
  readonly unloggedGrowth: readonly number[];
}

export interface LikeFit {
  /** Where the fields are described. */
  readonly about: string;
  /** Logs the fit was made on, and how many of each format. */
  readonly logs: number;
  readonly formats: Shares;
  readonly dialect: Dialect;
  readonly model?: string;
  /** Share of assistant messages whose tool calls went to the model as plain text (mini-swe-agent). */
  readonly toolsAsText: number;
  /** Assistant messages (steps) per log: their spread (each log's own in `perLog`, which a session takes). */
  readonly steps: Quantiles;
  /** Each fitted log's own levels, in the order of the logs: a session stands for one of them and takes them all (session.ts). */
  readonly perLog: readonly LogLevels[];
  /** Tokens each call carried that the log does not hold (system prompt, tool schemas): the median of recorded input − logged tokens over the first three calls, per log. */
  readonly hiddenTokens: Quantiles;
  /** Tokens of the system prompt the log holds (0 when none). */
  readonly systemTokens: Quantiles;
  readonly task: {
    /** Steps from one user request to the next (turns per task): a one-request log of a hundred steps beside one of a request every five. */
    readonly steps: TwoLevels;
    /**
     * Tokens of a log's first user request (the task statement: a mini-swe-agent log's PR
     * description, 1,144 to 1,969 tokens in the A logs) and of the requests after it (there the
     * format-error replies, 96 tokens): pooled, the first request was drawn from the replies 9 times in 10.
     */
    readonly firstTokens: Quantiles;
    readonly userTokens: Quantiles;
    /** Task events (what strategies that evict finished tasks read): tasks started per step, and where the log's tasks came from. */
    readonly perStep: number;
    readonly source: Shares;
    /**
     * How the steps lie in tasks that complete (observe.ts, `TaskStretches`): the share of logs in
     * which none does (`none`); in the others, the steps before the first (`lead`) and after the
     * last (`tail`) as shares of the log's steps, each one's (`spans`) and between two (`gaps`) in steps.
     */
    readonly none: number;
    readonly lead: Quantiles;
    readonly spans: Quantiles;
    readonly gaps: Quantiles;
    readonly tail: Quantiles;
  };
  readonly assistant: {
    /** Tokens of an assistant message's text (its tool calls' arguments apart), as two levels (`LogLevels.textTokens`). */
    readonly textTokens: TwoLevels;
    /** Tokens of its thinking, where the log keeps it (0 for a message without). */
    readonly thinkingTokens: Quantiles;
    /** Reasoning the log holds only the size of, re-sent within a turn (Codex; 0 for a message without). */
    readonly reasoningTokens: Quantiles;
    /** Tokens of one tool call's arguments (a command, a patch, a file written). */
    readonly callTokens: Quantiles;
    /** Tool calls per assistant message: shares of 0, 1, 2 and 3 or more. */
    readonly calls: Shares;
    /** Tool names, by share of calls (the six most used; the rest as `other`). */
    readonly tools: Shares;
  };
  readonly toolOutput: {
    /**
     * Tokens of a tool result, as two levels: logs differ in it far more than their results do
     * within one (a log of 100-token listings beside one of 1,000-token builds, swordintel-b260c379).
     */
    readonly tokens: TwoLevels;
    /** Shares of tool results by shape (code, test, listing, text). */
    readonly shapes: Shares;
    /**
     * Per fifth of a log's steps, its mean tool result over its mean, averaged over the logs and
     * scaled to average 1 (observe.ts `toolPhasesOf`; empty for logs too short to have fifths).
     * Pooled: a log's own fifths, a handful of results each, are noise (docs/scenarios.md).
     */
    readonly phases: readonly number[];
    /**
     * Tokens the agent sent with a tool result or a request beyond its logged text, found from the
     * recorded usage as the replay charges them (replay/unlogged.ts: Claude Code's reminders, a
     * changed file's new text); 0 for a message that carried none, all 0 for a log without usage.
     * Some agents' logs carry it with every call, others none.
     */
    readonly unloggedTokens: TwoLevels;
  };
  /** What later steps used, and how far back (src/probes/needed/, default minimum distance). */
  readonly needed: {
    /** Needed uses per step, over the steps where one can occur (the minimum distance on). */
    readonly usesPerStep: number;
    /** Steps between the message a fact was last seen in and its use. */
    readonly distance: Quantiles;
    /** Where the fact was last seen: tool output, a user message, the agent's own words. */
    readonly sourceRole: Shares;
    /** What kind of specific it is (path, identifier, number, …). */
    readonly kind: Shares;
    /** Share of the uses last seen in the agent's words whose fact stood in its tool calls (a path read, a name edited). */
    readonly inCall: number;
    /** Where in its source message's text the fact stood (uses found in the calls apart): 0 = first character, 1 = last. */
    readonly position: Quantiles;
    /**
     * Per source role, the share of its uses whose fact an earlier message held too, before the
     * source, by place (`CopyPlace`): a copy a strategy may keep when it drops the source (a call
     * that named the file a result showed).
     */
    readonly earlierCopy: Readonly<Record<SourceRole, Shares>>;
  };
  /** The agent's own compactions. */
  readonly compaction: {
    /** Compactions per step. */
    readonly perStep: number;
    /** Tokens of a compaction's summary. */
    readonly summaryTokens: Quantiles;
  };
}
