import type { ContextMessage } from '../transcript/types.js';
import { extractQuestionTerms, extractTerms, trimToTokens } from './terms.js';
import { idfOf, indexContext, passageAt, passageTerms, passageTextsOf, scoreIndexed, scoreOf, textPassages } from './passage-index.js';
import type { IndexedContext, Passage, PassageTerms, ScoredPassage } from './passage-index.js';
import { runOwned, runWeakMap } from '../memo.js';

export type { Passage, ScoredPassage } from './passage-index.js';

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

/** Runners-up scoring at least this share of the best passage join the answer. */
const RUNNER_UP = 0.6;
/** Below this coverage the best passage is a coincidence of common words, not evidence. */
const DEFAULT_THRESHOLD = 0.4;

/** Splits messages into passages: each line, and long lines into sentences; tool calls and thinking too. */
export function splitPassages(messages: readonly ContextMessage[]): Passage[] {
  const passages: Passage[] = [];
  for (const message of messages) {
    for (const text of passageTextsOf(message)) {
      for (const piece of textPassages(text).pieces) passages.push({ messageId: message.id, text: piece });
    }
  }
  return passages;
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
 * ten thousand lines is not copied and sorted for each question. passage-index.ts `scoreIndexed`
 * gives the same for a context read through the per-text memo.
 */
function scorePassages(question: string, passages: readonly Passage[], keepUnmatched: boolean): ScoredPassage[] {
  const queryTerms = questionTerms(question);
  const docs = passages.map((passage) => passageTerms(passage.text));
  let totalLength = 0;
  const containing = new Array<number>(queryTerms.length).fill(0);
  for (const doc of docs) {
    totalLength += doc.length;
    for (let t = 0; t < queryTerms.length; t++) if (doc.counts.has(queryTerms[t] as string)) containing[t] = (containing[t] as number) + 1;
  }
  const averageLength = totalLength / Math.max(1, docs.length);
  const idf = idfOf(containing, docs.length);
  const totalIdf = idf.reduce((sum, weight) => sum + weight, 0);
  const scored: ScoredPassage[] = [];
  for (let index = 0; index < passages.length; index++) {
    const { score, matchedIdf } = scoreOf(docs[index] as PassageTerms, queryTerms, idf, averageLength);
    if (score > 0 || keepUnmatched) scored.push({ ...(passages[index] as Passage), index, score, coverage: totalIdf > 0 ? matchedIdf / totalIdf : 0 });
  }
  return scored.sort((a, b) => b.score - a.score || b.index - a.index);
}

/**
 * A question's distinct content terms, worked out once per run (owned by it, let go with it): every
 * strategy of a log is asked the same probes at each of its ask points, a thousand reads of twenty
 * questions on vsla-5f8cbb78's 21 strategies. Read only by the callers below.
 */
const questionTermsMemo = runOwned(() => new Map<string, readonly string[]>());

function questionTerms(question: string): readonly string[] {
  const memo = questionTermsMemo();
  let terms = memo?.get(question);
  if (terms === undefined) {
    terms = [...new Set(extractQuestionTerms(question))];
    memo?.set(question, terms);
  }
  return terms;
}

/**
 * Answers a question from the context alone: the best-matching passage, with close runners-up,
 * trimmed to about `maxTokens`. When no passage covers enough of the question it says
 * "Not found in the context." It never sees an expected answer.
 */
export function answerFromContext(question: string, passages: readonly Passage[], options: ReaderOptions = {}): ReaderAnswer {
  // Passages that match no term score 0: below any answer's threshold, so they are left unranked.
  return answerFromRanked(question, scorePassages(question, passages, false), (index) => passages[index], options);
}

/** The answer read from the matching passages of a context, ranked; `lookup` gives any passage by position. */
function answerFromRanked(
  question: string,
  ranked: readonly ScoredPassage[],
  lookup: (index: number) => Passage | undefined,
  options: ReaderOptions,
): ReaderAnswer {
  const maxTokens = options.maxTokens ?? 120;
  const count = options.count ?? APPROXIMATE_COUNT;
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
    if (passage.score < best.score * RUNNER_UP) break;
    if (passage.coverage < threshold || !take(passage.index, passage.text)) continue;
    chosen.push(passage);
    // The line after a match often carries what it announces (a failing test, then its assertion).
    const next = lookup(passage.index + 1);
    if (next?.messageId === passage.messageId) take(passage.index + 1, next.text);
  }
  const focus = firstMatchingWord(best.text, question);
  const answer = trimToTokens(lines.join('\n'), maxTokens, count, focus);
  return { found: true, answer, passages: chosen };
}

/** Index of the first word of `text` that carries a question term, to centre a trimmed answer. */
function firstMatchingWord(text: string, question: string): number {
  const wanted = new Set(questionTerms(question));
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
  const context = indexContext(messages.filter((_, index) => index !== questionIndex));
  const read = (): ReaderAnswer =>
    // A reader stops at the first passage below RUNNER_UP of the best: only those are ranked.
    answerFromRanked(question, scoreIndexed(questionTerms(question), context, RUNNER_UP), (index) => passageAt(context, index), options);
  const known = answersOf(context, options);
  if (known === undefined) return read();
  const key = `${context.textCount}\u0000${question}`;
  let answer = known.get(key);
  if (answer === undefined) known.set(key, (answer = read()));
  return { ...answer, passages: [...answer.passages] };
}

/** The count used when a reader is given none: one function, so that its answers are memoized alike. */
const APPROXIMATE_COUNT = (text: string): number => Math.ceil(text.length / 4);

/**
 * Answers read, per list of texts (passage-index.ts: a context, or one it is the start of), per
 * count function and answer settings: a pure function of the texts, the question and the settings,
 * so a context asked again (every strategy that sends what `full` sends, at every ask point they
 * share) costs a lookup. Keyed by the number of texts read and the question.
 */
const answerMemo = runWeakMap<IndexedContext['index'], Map<string, Map<string, ReaderAnswer>>>();
const countIds = runWeakMap<(text: string) => number, number>();
let countIdsGiven = 0;

function answersOf(context: IndexedContext, options: ReaderOptions): Map<string, ReaderAnswer> | undefined {
  const count = options.count ?? APPROXIMATE_COUNT;
  let id = countIds.get(count);
  if (id === undefined) {
    id = countIdsGiven += 1;
    countIds.set(count, id);
    // Memos off: nothing is kept.
    if (countIds.get(count) === undefined) return undefined;
  }
  let bySettings = answerMemo.get(context.index);
  if (bySettings === undefined) {
    bySettings = new Map();
    answerMemo.set(context.index, bySettings);
  }
  const settings = `${id}:${options.maxTokens ?? ''}:${options.threshold ?? ''}`;
  let known = bySettings.get(settings);
  if (known === undefined) bySettings.set(settings, (known = new Map<string, ReaderAnswer>()));
  return known;
}
