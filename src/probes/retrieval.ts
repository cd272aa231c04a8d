/* eslint-disable @typescript-eslint/prefer-for-of --
   Indexed loops on purpose where every probe of a strategy steps through its whole context: before
   V8 compiles the code, each step of a `for…of` makes an iterator result (docs/performance.md, "The
   long log's cold run, its own code"). */
import { runOwned, runTextMemo } from '../memo.js';
import type { Archive } from '../strategies/types.js';
import type { ContextMessage, MessageEvent } from '../transcript/types.js';
import { findRetrievalHints } from '../strategies/helpers/hints.js';
import { isAbsenceAnswer } from './grade.js';
import { messageText } from './context-text.js';
import { STOPWORDS } from './fact.js';
import { wordsOf } from './findable.js';

/**
 * Retrieval-aware recall (issue: a strategy that leaves a retrieval hint claims the text is
 * recoverable). The reader may follow a hint when it could not answer, or when the passage it
 * answered from is itself a hint, and only a hint found next to what the question asks about:
 * in a message of the passages that best match the question, or in a message linked to one by a
 * tool call (a call's arguments match the question, its truncated result holds the hint). The
 * choice uses the question and the context alone, never the expected answer. "Best match" is the
 * number of the question's content words a line holds — a plain overlap, not the simulated
 * reader's ranking, so that nothing in src/probes/ shares the answering model's retrieval.
 */

/** At most this many lines count as "what the question asks about"... */
const TOP_LINES = 3;
/** ...and only those that hold at least this share of the best line's overlap. */
const RUNNER_UP = 0.6;
/** At most this many archived texts are fetched for one question. */
const MAX_KEYS = 2;

/** Whether an answer calls for retrieval: a "not found", or an answer read from a hint. */
export function needsRetrieval(answer: string): boolean {
  return isAbsenceAnswer(answer) || findRetrievalHints(answer).length > 0;
}

/** The retrieval keys worth following for `question`, best first; empty when none applies. */
export function chooseRetrievalKeys(question: string, context: readonly ContextMessage[], answer: string): string[] {
  if (!needsRetrieval(answer)) return [];
  const keys = findRetrievalHints(answer);
  for (const id of bestMatchingMessages(question, context)) {
    for (const message of linkedMessages(context, id)) keys.push(...findRetrievalHints(messageText(message)));
  }
  return [...new Set(keys)].slice(0, MAX_KEYS);
}

/** A line holding some of the question's words: its message, its place in the context, and how many it holds. */
interface MatchedLine {
  readonly id: string;
  /** The message's position times a million plus the line's: unique, later lines higher. */
  readonly order: number;
  readonly overlap: number;
}

/** Whether line `a` ranks before line `b`: more of the question's words, then the later line. */
function ranksBefore(a: MatchedLine, b: MatchedLine): boolean {
  return a.overlap > b.overlap || (a.overlap === b.overlap && a.order > b.order);
}

/** The messages of the lines holding the most of the question's content words (ties: the later line). */
function bestMatchingMessages(question: string, context: readonly ContextMessage[]): string[] {
  const overlapsOf = lineOverlapsFor(question);
  // Only lines that hold a wanted word: a best overlap of 0 chooses nothing, and a line of overlap
  // 0 is never within RUNNER_UP of a positive best. The lines are ranked in a total order (no two
  // have one `order`), so the first TOP_LINES of all of them are kept as they come, not all sorted.
  const top: MatchedLine[] = [];
  for (let m = 0; m < context.length; m++) {
    const message = context[m] as ContextMessage;
    const pairs = overlapsOf(message);
    for (let k = 0; k < pairs.length; k += 2) keepTop(top, { id: message.id, order: m * 1_000_000 + (pairs[k] as number), overlap: pairs[k + 1] as number });
  }
  const best = top[0]?.overlap ?? 0;
  if (best === 0) return [];
  return [...new Set(top.filter((line) => line.overlap >= best * RUNNER_UP).map((line) => line.id))];
}

/** The wanted words of a question: its content words of three letters or more, each once. */
function wantedWords(question: string): string[] {
  return [...new Set(wordsOf(question).filter((w) => w.length >= 3 && !STOPWORDS.has(w)))];
}

const NO_OVERLAPS: readonly number[] = [];

/**
 * Per question, per message object, the lines of the message's text that hold some of the
 * question's wanted words and how many (`[line, overlap, line, overlap, …]`), found once: every
 * strategy over a log asks the same twenty questions of contexts made mostly of the log's own
 * messages, at each ask point where its reader found nothing (vsla-5f8cbb78's 21 strategies: 748
 * reads of 77 thousand messages). Owned by the run; a message a strategy rewrote (a new object) is
 * read afresh, and goes with its object.
 */
const overlapMemo = runOwned(() => new Map<string, WeakMap<ContextMessage, readonly number[]>>());

function lineOverlapsFor(question: string): (message: ContextMessage) => readonly number[] {
  const wanted = wantedWords(question);
  const memo = overlapMemo();
  let byMessage = memo?.get(question);
  if (memo !== undefined && byMessage === undefined) memo.set(question, (byMessage = new WeakMap()));
  return (message) => {
    let pairs = byMessage?.get(message);
    if (pairs === undefined) {
      pairs = lineOverlaps(wanted, messageText(message));
      byMessage?.set(message, pairs);
    }
    return pairs;
  };
}

/** The lines of `text` holding some of `wanted` and how many, as pairs (`lineOverlapsFor`); most texts hold none. */
function lineOverlaps(wanted: readonly string[], text: string): readonly number[] {
  const words = lineWordsOf(text);
  let overlaps: Map<number, number> | undefined;
  for (let w = 0; w < wanted.length; w++) {
    const holding = words.get(wanted[w] as string);
    if (holding === undefined) continue;
    overlaps ??= new Map();
    for (let h = 0; h < holding.length; h++) {
      const l = holding[h] as number;
      overlaps.set(l, (overlaps.get(l) ?? 0) + 1);
    }
  }
  if (overlaps === undefined) return NO_OVERLAPS;
  const pairs: number[] = [];
  overlaps.forEach((overlap, l) => pairs.push(l, overlap));
  return pairs;
}

/** Puts `line` among the first TOP_LINES lines of `top` (ranked by `ranksBefore`) if it ranks there. */
function keepTop(top: MatchedLine[], line: MatchedLine): void {
  let at = top.length;
  while (at > 0 && ranksBefore(line, top[at - 1] as MatchedLine)) at--;
  if (at >= TOP_LINES) return;
  top.splice(at, 0, line);
  if (top.length > TOP_LINES) top.pop();
}

/**
 * Each word of a text → the lines (split at line breaks) that hold it, ascending, built once per
 * text: every probe asked on a context reads the same messages again. Emptied when large.
 */
const lineWordsMemo = runTextMemo<ReadonlyMap<string, readonly number[]>>('retrieval-line-words');

function lineWordsOf(text: string): ReadonlyMap<string, readonly number[]> {
  return lineWordsMemo.get(text, () => {
    const built = new Map<string, number[]>();
    text.split(/\r?\n/).forEach((line, l) => {
      for (const word of new Set(wordsOf(line))) {
        const list = built.get(word);
        if (list === undefined) built.set(word, [l]);
        else list.push(l);
      }
    });
    return built;
  });
}

/**
 * A message and those a tool call links it to: a call's results, or a result's call (each in
 * context order). The context is read once past the message's first occurrence's search, results
 * and callers together, rather than once for each: a strategy whose reader finds nothing asks
 * this of its whole context for every probe (vsla-5f8cbb78's 21 strategies: 748 calls over 77
 * thousand messages).
 */
function linkedMessages(context: readonly ContextMessage[], id: string): ContextMessage[] {
  const message = context.find((m) => m.id === id);
  if (message === undefined) return [];
  const callIds = message.toolCalls === undefined || message.toolCalls.length === 0 ? undefined : new Set(message.toolCalls.map((c) => c.id));
  const resultOf = message.toolCallId;
  if (callIds === undefined && resultOf === undefined) return [message];
  const results: ContextMessage[] = [];
  const caller: ContextMessage[] = [];
  for (let i = 0; i < context.length; i++) {
    const m = context[i] as ContextMessage;
    if (callIds !== undefined && m.toolCallId !== undefined && callIds.has(m.toolCallId)) results.push(m);
    if (resultOf !== undefined && m.toolCalls !== undefined && callsInclude(m.toolCalls, resultOf)) caller.push(m);
  }
  return [message, ...results, ...caller];
}

function callsInclude(calls: readonly { id: string }[], id: string): boolean {
  for (let c = 0; c < calls.length; c++) if ((calls[c] as { id: string }).id === id) return true;
  return false;
}

/** An archived text fetched by its key. */
export interface Retrieved {
  key: string;
  messages: MessageEvent[];
}

/**
 * Resolves keys in the archive: an archived message id (`archive.get`) or an archive key
 * (`archive.lookup`). Keys that resolve to nothing are dropped.
 */
export function fetchArchived(keys: readonly string[], archive: Archive): Retrieved[] {
  return keys.flatMap((key) => {
    const message = archive.get(key);
    const messages = message !== undefined ? [message] : (archive.lookup(key) ?? []);
    return messages.length === 0 ? [] : [{ key, messages }];
  });
}

/** The fetched texts as one message placed before the question (what a retrieval tool returns). */
export function retrievedMessage(probeId: string, retrieved: readonly Retrieved[]): ContextMessage {
  const text = retrieved.map(({ key, messages }) => `Retrieved from the archive (${key}):\n${messages.map(messageText).join('\n')}`).join('\n\n');
  return { type: 'message', id: `retrieved:${probeId}`, role: 'user', text, synthetic: 'retrieval' };
}
