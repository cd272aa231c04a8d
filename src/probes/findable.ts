import type { MessageEvent } from '../transcript/types.js';
import { STOPWORDS } from './fact.js';
import { containsNormalised, normaliseAnswer } from './grade.js';
import { renderMessageText } from './message-text.js';

/**
 * Whether a generated question picks out its evidence: a *unique span* criterion that shares
 * nothing with the simulated reader (no ranking, no stemming, no scores). The question's anchor
 * words are its content words found verbatim in the line that holds the answer; the question is
 * findable when some such line has at least `MIN_ANCHORS` of them and
 * every line of the session that holds all of that line's anchors also holds the answer. Two
 * facts of one listing then cannot share a question, and a question that names nothing specific
 * to its line is dropped, whatever any reader would have answered.
 *
 * Selection and grading are thereby independent of the model under test: `full` no longer scores
 * 100 % because probes were kept only when the simulator's own retriever found them.
 */

/** Anchor words a line must share with the question; uniqueness does the rest. */
const MIN_ANCHORS = 2;

export interface LineIndex {
  /** Each line's message index, its raw text, and its normalised text. */
  lines: { message: number; raw: string; text: string }[];
  /** The lines of each message, in order. */
  byMessage: number[][];
  /** For each word, the lines that hold it, ascending. */
  postings: Map<string, number[]>;
}

/** The words of a text as this module reads them: lower case, split at every non-word character. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** A question's anchor candidates: its content words, each once. */
function contentWords(text: string): string[] {
  return [...new Set(wordsOf(text).filter((w) => w.length >= 3 && !STOPWORDS.has(w)))];
}

/** Indexes the lines of a session's messages (their text, thinking and tool calls). */
export function indexLines(messages: readonly MessageEvent[]): LineIndex {
  const lines: LineIndex['lines'] = [];
  const byMessage: number[][] = messages.map(() => []);
  const postings = new Map<string, number[]>();
  messages.forEach((message, m) => {
    // Tool output an agent recorded as a JSON string (Codex) still has lines.
    for (const raw of renderMessageText(message, { thinking: true }).split(/\r?\n|\\n/)) {
      if (!/[\p{L}\p{N}]/u.test(raw)) continue;
      const index = lines.length;
      for (const word of new Set(wordsOf(raw))) {
        const list = postings.get(word) ?? [];
        list.push(index);
        postings.set(word, list);
      }
      byMessage[m]?.push(index);
      lines.push({ message: m, raw: raw.trim(), text: normaliseAnswer(raw) });
    }
  });
  return { lines, byMessage, postings };
}

/** On how many lines a word occurs (0 for a word the session never writes). */
export function lineFrequency(index: LineIndex, word: string): number {
  return index.postings.get(word.toLowerCase())?.length ?? 0;
}

/** The lines holding every one of `words`. */
function linesWithAll(index: LineIndex, words: readonly string[]): number[] {
  const lists = words.map((w) => index.postings.get(w) ?? []).sort((a, b) => a.length - b.length);
  const [shortest = [], ...rest] = lists;
  const others = rest.map((list) => new Set(list));
  return shortest.filter((line) => others.every((set) => set.has(line)));
}

/**
 * Whether `question` picks out a line of an evidence message that holds `answer`: enough of its
 * anchors on that line, and no line elsewhere with the same anchors but without the answer.
 */
export function isFindable(index: LineIndex, question: string, answer: string, evidence: ReadonlySet<number>): boolean {
  const wanted = normaliseAnswer(answer);
  const words = contentWords(question);
  const needed = Math.min(MIN_ANCHORS, words.length);
  if (needed === 0) return false;
  for (const message of evidence) {
    for (const line of index.byMessage[message] ?? []) {
      const entry = index.lines[line];
      if (entry === undefined || !containsNormalised(entry.text, wanted)) continue;
      const own = new Set(wordsOf(entry.raw));
      const anchors = words.filter((w) => own.has(w));
      if (anchors.length < needed) continue;
      const isUnique = linesWithAll(index, anchors).every((other) => containsNormalised(index.lines[other]?.text ?? '', wanted));
      if (isUnique) return true;
    }
  }
  return false;
}
