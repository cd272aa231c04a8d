import type { ContextMessage } from '../../transcript/types.js';
import { toolCallText } from '../../tokens/tokenizer.js';
import { extractQuestionTerms, extractTerms, trimToTokens } from './terms.js';

/** One retrievable unit of context: a line or sentence of one message. */
export interface Passage {
  messageId: string;
  text: string;
}

export interface ScoredPassage extends Passage {
  /** Position in the passage list (later = more recent). */
  index: number;
  /** BM25 score against the question. */
  score: number;
  /** IDF-weighted share of the question's terms the passage contains, in [0, 1]. */
  coverage: number;
}

export interface ReaderOptions {
  /** Longest answer in tokens (default 120). */
  maxTokens?: number;
  /** Token counter (default: 4 characters a token). */
  count?: (text: string) => number;
  /** Least coverage of the best passage to answer at all (default 0.4). */
  threshold?: number;
}

export interface ReaderAnswer {
  found: boolean;
  answer: string;
  /** The passages the answer was read from, best first. */
  passages: ScoredPassage[];
}

export const NOT_FOUND_ANSWER = 'Not found in the context.';

const K1 = 1.2;
const B = 0.75;
const LONG_LINE_WORDS = 60;
/** Below this coverage the best passage is a coincidence of common words, not evidence. */
const DEFAULT_THRESHOLD = 0.4;

/** Splits messages into passages: each line, and long lines into sentences; tool calls and thinking too. */
export function splitPassages(messages: readonly ContextMessage[]): Passage[] {
  const passages: Passage[] = [];
  for (const message of messages) {
    const texts = [message.thinking ?? '', message.text, ...(message.toolCalls ?? []).map(toolCallText)];
    for (const text of texts) {
      for (const piece of splitTextOnce(text)) passages.push({ messageId: message.id, text: piece });
    }
  }
  return passages;
}

/**
 * The pieces of each text, split once: every probe of a step, and every strategy that keeps the
 * message, hands the reader the same texts again. A pure function of the text; emptied when large.
 */
const splitCache = new Map<string, readonly string[]>();
const SPLIT_CACHE_LIMIT = 50_000;

function splitTextOnce(text: string): readonly string[] {
  let pieces = splitCache.get(text);
  if (pieces === undefined) {
    pieces = splitText(text);
    if (splitCache.size >= SPLIT_CACHE_LIMIT) splitCache.clear();
    splitCache.set(text, pieces);
  }
  return pieces;
}

function splitText(text: string): string[] {
  const pieces: string[] = [];
  // Tool output that an agent recorded as a JSON string (Codex) still reads as lines to a model.
  for (const line of text.split(/\r?\n|\\n/)) {
    const trimmed = line.trim();
    if (!/[\p{L}\p{N}]/u.test(trimmed)) continue;
    if (trimmed.split(/\s+/).length <= LONG_LINE_WORDS) pieces.push(trimmed);
    else pieces.push(...trimmed.split(/(?<=[.!?])\s+/).filter((sentence) => sentence !== ''));
  }
  return pieces;
}

/**
 * Ranks passages against the question with BM25 over content terms. Ties go to the later passage
 * (the more recent statement of a fact wins), then to the earlier index, so the order is total.
 */
export function rankPassages(question: string, passages: readonly Passage[]): ScoredPassage[] {
  return scorePassages(question, passages, true);
}

/**
 * BM25 scores of `passages`; with `keepUnmatched` false only the passages that match a term
 * (score > 0), which is all a reader looks at: the ranking among them is the same, and a context of
 * ten thousand lines is not copied and sorted for each question.
 */
function scorePassages(question: string, passages: readonly Passage[], keepUnmatched: boolean): ScoredPassage[] {
  const queryTerms = [...new Set(extractQuestionTerms(question))];
  const docs = passages.map((passage) => passageTerms(passage.text));
  let totalLength = 0;
  const containing = new Array<number>(queryTerms.length).fill(0);
  for (const doc of docs) {
    totalLength += doc.length;
    for (let t = 0; t < queryTerms.length; t++) if (doc.counts.has(queryTerms[t] as string)) containing[t] = (containing[t] as number) + 1;
  }
  const averageLength = totalLength / Math.max(1, docs.length);
  const idf = containing.map((n) => Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)));
  const totalIdf = idf.reduce((sum, weight) => sum + weight, 0);
  const scored: ScoredPassage[] = [];
  for (let index = 0; index < passages.length; index++) {
    const doc = docs[index] as PassageTerms;
    let score = 0;
    let matchedIdf = 0;
    for (let t = 0; t < queryTerms.length; t++) {
      const tf = doc.counts.get(queryTerms[t] as string) ?? 0;
      if (tf === 0) continue;
      const weight = idf[t] as number;
      matchedIdf += weight;
      score += (weight * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / Math.max(1, averageLength)));
    }
    if (score > 0 || keepUnmatched) scored.push({ ...(passages[index] as Passage), index, score, coverage: totalIdf > 0 ? matchedIdf / totalIdf : 0 });
  }
  return scored.sort((a, b) => b.score - a.score || b.index - a.index);
}

/** A passage's term count and term frequencies. */
interface PassageTerms {
  length: number;
  counts: Map<string, number>;
}

/**
 * The terms of each passage text, computed once per text: every probe question re-reads the same
 * context lines. A pure function of the text, so the cache changes no answer; it is emptied when
 * it grows large.
 */
const termCache = new Map<string, PassageTerms>();
const TERM_CACHE_LIMIT = 200_000;

function passageTerms(text: string): PassageTerms {
  let entry = termCache.get(text);
  if (entry === undefined) {
    const terms = extractTerms(text);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    entry = { length: terms.length, counts };
    if (termCache.size >= TERM_CACHE_LIMIT) termCache.clear();
    termCache.set(text, entry);
  }
  return entry;
}

/**
 * Answers a question from the context alone: the best-matching passage, with close runners-up,
 * trimmed to about `maxTokens`. When no passage covers enough of the question it says
 * "Not found in the context." It never sees an expected answer.
 */
export function answerFromContext(question: string, passages: readonly Passage[], options: ReaderOptions = {}): ReaderAnswer {
  const maxTokens = options.maxTokens ?? 120;
  const count = options.count ?? ((text: string) => Math.ceil(text.length / 4));
  // Passages that match no term score 0: below any answer's threshold, so they are left unranked.
  const ranked = scorePassages(question, passages, false);
  const best = ranked[0];
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  if (best === undefined || best.score <= 0 || best.coverage < threshold) {
    return { found: false, answer: NOT_FOUND_ANSWER, passages: [] };
  }
  const chosen: ScoredPassage[] = [];
  const lines: string[] = [];
  const taken = new Set<number>();
  let used = 0;
  const take = (index: number, text: string): boolean => {
    const cost = count(text) + 1;
    if (taken.has(index) || (taken.size > 0 && used + cost > maxTokens)) return false;
    taken.add(index);
    lines.push(text);
    used += cost;
    return true;
  };
  for (const passage of ranked) {
    if (passage.score < best.score * 0.6) break;
    if (passage.coverage < threshold || !take(passage.index, passage.text)) continue;
    chosen.push(passage);
    // The line after a match often carries what it announces (a failing test, then its assertion).
    const next = passages[passage.index + 1];
    if (next?.messageId === passage.messageId) take(passage.index + 1, next.text);
  }
  const focus = firstMatchingWord(best.text, question);
  const answer = trimToTokens(lines.join('\n'), maxTokens, count, focus);
  return { found: true, answer, passages: chosen };
}

/** Index of the first word of `text` that carries a question term, to centre a trimmed answer. */
function firstMatchingWord(text: string, question: string): number {
  const wanted = new Set(extractQuestionTerms(question));
  const words = text.split(/\s+/).filter((word) => word !== '');
  const index = words.findIndex((word) => extractTerms(word).some((term) => wanted.has(term)));
  return Math.max(0, index);
}

/**
 * The simulated model's answer to a probe: the question is the last user message, the context is
 * every other message.
 */
export function readProbe(messages: readonly ContextMessage[], options: ReaderOptions = {}): ReaderAnswer {
  let questionIndex = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      questionIndex = i;
      break;
    }
  }
  const question = messages[questionIndex]?.text ?? '';
  const context = messages.filter((_, index) => index !== questionIndex);
  return answerFromContext(question, splitPassages(context), options);
}
