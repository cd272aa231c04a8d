import type { ContextMessage, MessageEvent, Transcript } from '../transcript/types.js';
import { listMessages, renderMessageText } from '../probes/message-text.js';
import { unescapeForTokens } from '../probes/needed/specifics.js';
import type { NeededUse } from '../probes/needed/types.js';
import type { RecordedUse } from './needed-replay.js';

/**
 * `ctxbench validate` (docs/probes.md, needed facts): the `recorded` strategy replays what the
 * agent really sent, so at the step of each needed use its context should hold the fact. Each use
 * it does not hold (needed.csv outcome `recoverable` or `lost`) gets the cause that explains it
 * best, in this order:
 * - `subagent`: the fact stands in a subagent's own conversation (Claude Code sidechains), which
 *   the main context never held; the agent got it through the subagent's report or a path it gave.
 * - `composed`: every piece of the fact (`src`, `app`, `main.py` of `src/app/main.py`) is in the
 *   context: the agent put it together itself.
 * - `agent-knew`: the session shows it first in the agent's own words, before any tool result or
 *   user message did: a name the agent knew without this session.
 * - `compaction-dropped`: seen before one of the agent's compactions, in neither its summary nor
 *   what it re-attached, and used after it: re-derived, in a hidden prefix, or a re-attachment
 *   the log does not show.
 * - `replay-gap`: none of the above, with no compaction in between: the replay lost what the log
 *   holds (a fault of ctxbench to fix).
 * - `unanswered`: `recorded` crashed before the use's step (it sent more than the window).
 */
export type MissCause = 'subagent' | 'composed' | 'agent-knew' | 'compaction-dropped' | 'replay-gap' | 'unanswered';

export const MISS_CAUSES: readonly MissCause[] = ['subagent', 'composed', 'agent-knew', 'compaction-dropped', 'replay-gap', 'unanswered'];

interface NeededMiss {
  readonly use: NeededUse;
  readonly cause: MissCause;
}

/** What `validate` found on one log. */
export interface NeededCheck {
  readonly needed: number;
  readonly present: number;
  readonly misses: readonly NeededMiss[];
  /** Compactions the log records. */
  readonly compactions: number;
  readonly steps: number;
}

export interface NeededCheckOptions {
  /** The subagent conversations of the session (Claude Code sidechains), to tell their misses apart. */
  readonly sidechains?: readonly Transcript[];
}

/** A context message's searchable texts: as rendered, and with written-out escapes as spaces. */
const textsMemo = new WeakMap<ContextMessage, readonly string[]>();
function textsOf(message: ContextMessage): readonly string[] {
  let texts = textsMemo.get(message);
  if (texts === undefined) {
    const text = renderMessageText(message);
    const plain = unescapeForTokens(text);
    texts = plain === text ? [text] : [text, plain];
    textsMemo.set(message, texts);
  }
  return texts;
}

function holds(context: readonly ContextMessage[], fact: string): boolean {
  return context.some((message) => textsOf(message).some((text) => text.includes(fact)));
}

/**
 * Checks every needed use on the outcome `recorded` got for it in a run's own needed-fact measure
 * (needed-replay.ts): held when its context sent at the use's step had the fact verbatim or in
 * the agent's own summary (`kept`, `summarized`); every other use is a miss, with its cause.
 */
export function checkNeeded(transcript: Transcript, measured: readonly RecordedUse[], options: NeededCheckOptions = {}): NeededCheck {
  const messages = listMessages(transcript.events);
  const compactionsAt: number[] = [];
  let steps = 0;
  let seen = 0;
  for (const event of transcript.events) {
    if (event.type === 'message') seen++;
    if (event.type === 'message' && event.role === 'assistant') steps++;
    if (event.type === 'compaction' && event.summary !== undefined) compactionsAt.push(seen);
  }
  const misses: NeededMiss[] = [];
  for (const { use, record, context } of measured) {
    if (record.outcome === 'kept' || record.outcome === 'summarized') continue;
    const cause = record.outcome === 'unanswered' ? 'unanswered' : missCause(use, context, messages, compactionsAt, options.sidechains ?? []);
    misses.push({ use, cause });
  }
  return { needed: measured.length, present: measured.length - misses.length, misses, compactions: compactionsAt.length, steps };
}

function missCause(
  use: NeededUse,
  context: readonly ContextMessage[],
  messages: readonly MessageEvent[],
  compactionsAt: readonly number[],
  sidechains: readonly Transcript[],
): MissCause {
  if (sidechains.some((side) => listMessages(side.events).some((m) => renderMessageText(m).includes(use.fact)))) return 'subagent';
  const pieces = use.fact.split(/[^\p{L}\p{N}_]+/u).filter((p) => p.length >= 2);
  if (pieces.length > 1 && pieces.every((piece) => holds(context, piece))) return 'composed';
  const first = messages.findIndex((m) => renderMessageText(m).includes(use.fact));
  if (first >= 0 && messages[first]?.role === 'assistant') return 'agent-knew';
  if (compactionsAt.some((at) => at > use.sourceIndex && at <= use.useIndex)) return 'compaction-dropped';
  return 'replay-gap';
}
