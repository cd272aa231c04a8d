/**
 * The canonical transcript (DESIGN.md §2). Importers produce it; nothing downstream reads a
 * foreign format. Stored as JSONL (`*.ctx.jsonl`), first line the `session` header.
 */
export type Dialect = 'openai' | 'gemini' | 'anthropic';
export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  /**
   * A freeform tool (OpenAI custom tool, e.g. Codex `apply_patch`): the model wrote one raw text,
   * kept as `args.input`. It is sent and counted as that text, never as escaped JSON arguments.
   */
  readonly freeform?: true;
}

/** Token usage as the agent recorded it for the call that produced a message. */
export interface RecordedUsage {
  readonly input?: number;
  readonly cachedInput?: number;
  readonly output?: number;
  readonly reasoning?: number;
}

export interface SessionSource {
  format: string;
  file?: string;
  licence?: string;
}

/**
 * A run's totals as the agent recorded them, for logs that keep no per-call usage (SWE-agent's
 * `info.model_stats`): what the run cost and how many tokens it sent and received in all.
 */
export interface RecordedTotals {
  costUsd?: number;
  input?: number;
  output?: number;
  calls?: number;
}

export interface SessionHeader {
  type: 'session';
  id: string;
  title?: string;
  source?: SessionSource;
  dialect: Dialect;
  model?: string;
  contextWindow?: number;
  totals?: RecordedTotals;
}

export interface MessageEvent {
  readonly type: 'message';
  readonly id: string;
  readonly role: Role;
  readonly text: string;
  readonly thinking?: string;
  /** Gemini thought signature of the part that carried thinking or a function call. */
  readonly thoughtSignature?: string;
  readonly toolCalls?: readonly ToolCall[];
  /** For role `tool`: the call this result answers. */
  readonly toolCallId?: string;
  readonly toolName?: string;
  /** ISO 8601 time the message was recorded. */
  readonly at?: string;
  readonly usage?: RecordedUsage;
  /**
   * The model that produced this (assistant) message, as the agent recorded it. Sessions switch
   * models mid-way (Gemini CLI falls back between models, Claude Code has /model), and `usage`
   * only means something next to the model that spent it.
   */
  readonly model?: string;
  /** The provider format the message was produced in (tool-call isolation reads it). */
  readonly dialect?: Dialect;
  /**
   * The agent ran its tools through plain text (mini-swe-agent): this assistant message's calls
   * are written in its text, and this tool result went to the model as a user message. Strategies
   * see the calls and results; providers render, and the tokenizer counts, the plain text that was
   * really sent (see `asSent`).
   */
  readonly sentAsText?: true;
  /**
   * Reasoning the API re-sends as input on the later calls of the same turn, when the log holds
   * only its size (Codex: an encrypted reasoning item, sized by the call's recorded reasoning
   * output tokens). Dropped at the next user message (tokens/hidden-tokens.ts).
   */
  readonly reasoningTokens?: number;
  /**
   * The last this-many characters of `text` are what the agent sent with the message but did not
   * log, rebuilt by the importer (Claude Code's to-do `<system-reminder>` after a TodoWrite). A
   * rebuild of the context from the log (replay/unlogged.ts) does not send them again.
   */
  readonly unloggedChars?: number;
}

export type TaskStatus = 'in_progress' | 'completed' | 'failed';

/**
 * Where an importer read a task from (src/transcript/tasks/): the agent's plan tool (Claude Code
 * `TodoWrite`, Codex `update_plan`) or, in logs without one, the user turns. Absent: written by hand
 * or by a generator.
 */
export type TaskEventSource = 'todo-write' | 'update-plan' | 'user-turns';

export interface TaskEvent {
  readonly type: 'task';
  readonly id: string;
  readonly status: TaskStatus;
  readonly title?: string;
  readonly resultSummary?: string;
  readonly criteria?: readonly string[];
  readonly at?: string;
  readonly source?: TaskEventSource;
}

export type ProbeKind = 'recall' | 'artifact' | 'continuation' | 'decision';

/** Ground truth, normalised for case, whitespace and quoting before matching. */
export interface ProbeExpectation {
  /** Correct if the answer contains any of these. */
  readonly anyOf?: readonly string[];
  /** Correct if the answer contains all of these. */
  readonly allOf?: readonly string[];
  /** Correct if the answer matches this regular expression (case-insensitive). */
  readonly regex?: string;
  /** The fact is not in the session: the right answer says so. */
  readonly notInSession?: boolean;
}

/**
 * When a probe is asked: at a step index; `after-compaction`, at the first step after each
 * compaction or rewrite that touched its evidence; or at the end.
 */
export type ProbeAsk = 'end' | 'after-compaction' | { step: number };

export interface Probe {
  readonly id: string;
  readonly kind: ProbeKind;
  readonly question: string;
  readonly expected: ProbeExpectation;
  /** Ids of the messages that hold the evidence. */
  readonly evidence: readonly string[];
  readonly ask: readonly ProbeAsk[];
  /**
   * Older values of the same fact, which a later one replaced (an earlier error of the same
   * command): a context holding one of them and not the latest is `stale`.
   */
  readonly superseded?: readonly string[];
  /** Free-form origin: `hand`, `synthetic`, `generated`. */
  readonly origin?: string;
}

export interface ProbeEvent {
  readonly type: 'probe';
  readonly probe: Probe;
}

export type ControlAction = 'undo' | 'drop-group' | 'switch-dialect' | 'compact';

export interface ControlEvent {
  readonly type: 'control';
  readonly action: ControlAction;
  /** For `drop-group`: the index of the group to drop (0-based, in order of user messages). */
  readonly group?: number;
  /** For `switch-dialect`: the dialect the session continues in. */
  readonly dialect?: Dialect;
  readonly at?: string;
}

/** A compaction the recorded agent really performed (kept so reports can show it). */
export interface CompactionEvent {
  readonly type: 'compaction';
  readonly id: string;
  readonly summary?: string;
  /**
   * What the agent re-attached with its summary, one text per message it sent after it (Claude Code:
   * the latest contents of the files it read most recently, and its todo list, as
   * `<system-reminder>` texts). Rebuilt from the log by the importer when the log does not record them.
   */
  readonly restored?: readonly string[];
  readonly tokensBefore?: number;
  readonly tokensAfter?: number;
  readonly at?: string;
}

export type TranscriptEvent = MessageEvent | TaskEvent | ProbeEvent | ControlEvent | CompactionEvent;

/** A transcript loaded in memory: header, events, and what a lenient load skipped. */
export interface Transcript {
  header: SessionHeader;
  events: TranscriptEvent[];
  /** File it came from (for messages). */
  file: string;
  /** Lines skipped under `--lenient`, with the reason. */
  skipped: SkippedLine[];
  /** Foreign event types an importer saw but could not map, counted by name. */
  unknown: Record<string, number>;
}

export interface SkippedLine {
  line: number;
  reason: string;
}

/** A message as a strategy sends it; tombstones and summaries are messages too. */
export type ContextMessage = MessageEvent & {
  /** Set on messages a strategy synthesised (summary, tombstone, recap, preview). */
  readonly synthetic?: string;
  /** Ids of the archived messages this one replaces (retrieval hints point to them). */
  readonly replaces?: readonly string[];
};
