import type { MessageEvent } from '../transcript/types.js';
import { splitPassages } from '../providers/simulated/reader.js';
import { extractQuestionTerms, extractTerms } from '../providers/simulated/terms.js';
import { containsNormalised, normaliseAnswer } from './grade.js';

/**
 * Whether a generated question leads to its own evidence: ranked against every passage of the
 * whole session (a line or sentence of a message, as a reader splits them), the best passage must
 * lie in an evidence message and hold the answer. A question that leads elsewhere is ambiguous or
 * unfindable, and would measure the question rather than the strategy; generation drops it.
 *
 * The ranking is the simulated reader's (providers/simulated/reader.ts: BM25 over the same terms,
 * ties to the later passage, the same least coverage), over an inverted index built once per
 * transcript, so that checking hundreds of candidates stays fast on long sessions.
 */

const K1 = 1.2;
const B = 0.75;
/** The reader's least coverage of the best passage (reader.ts `DEFAULT_THRESHOLD`). */
const THRESHOLD = 0.4;

interface Posting {
  passage: number;
  tf: number;
}

export interface PassageIndex {
  /** Each passage's message index, its text, and its normalised text. */
  passages: { message: number; raw: string; text: string }[];
  /** The passages of each message, in order. */
  byMessage: number[][];
  lengths: number[];
  averageLength: number;
  postings: Map<string, Posting[]>;
}

/** Indexes the passages of a session's messages (their text, thinking and tool calls). */
export function indexPassages(messages: readonly MessageEvent[]): PassageIndex {
  const position = new Map(messages.map((m, i) => [m.id, i]));
  const passages: PassageIndex['passages'] = [];
  const byMessage: number[][] = messages.map(() => []);
  const lengths: number[] = [];
  const postings = new Map<string, Posting[]>();
  for (const passage of splitPassages(messages)) {
    const index = passages.length;
    const terms = extractTerms(passage.text);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      const list = postings.get(term) ?? [];
      list.push({ passage: index, tf });
      postings.set(term, list);
    }
    const message = position.get(passage.messageId) ?? -1;
    byMessage[message]?.push(index);
    passages.push({ message, raw: passage.text, text: normaliseAnswer(passage.text) });
    lengths.push(terms.length);
  }
  const averageLength = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  return { passages, byMessage, lengths, averageLength, postings };
}

/** In how many passages a word's term occurs (0 for a word that is no term). */
export function passageFrequency(index: PassageIndex, word: string): number {
  const term = extractTerms(word)[0];
  return term === undefined ? 0 : (index.postings.get(term)?.length ?? 0);
}

/** The best passage for a question (index into `index.passages`), or undefined when none covers enough of it. */
export function findBestPassage(index: PassageIndex, question: string): number | undefined {
  const terms = [...new Set(extractQuestionTerms(question))];
  const total = index.passages.length;
  const scores = new Map<number, { score: number; matched: number }>();
  let totalIdf = 0;
  for (const term of terms) {
    const list = index.postings.get(term) ?? [];
    const idf = Math.log(1 + (total - list.length + 0.5) / (list.length + 0.5));
    totalIdf += idf;
    for (const { passage, tf } of list) {
      const norm = 1 - B + (B * (index.lengths[passage] ?? 0)) / Math.max(1, index.averageLength);
      const entry = scores.get(passage) ?? { score: 0, matched: 0 };
      entry.score += (idf * tf * (K1 + 1)) / (tf + K1 * norm);
      entry.matched += idf;
      scores.set(passage, entry);
    }
  }
  let best: number | undefined;
  let bestScore = 0;
  for (const [passage, { score }] of scores) {
    if (score > bestScore || (score === bestScore && best !== undefined && passage > best)) {
      best = passage;
      bestScore = score;
    }
  }
  if (best === undefined || totalIdf <= 0) return undefined;
  return (scores.get(best)?.matched ?? 0) / totalIdf >= THRESHOLD ? best : undefined;
}

/**
 * Whether `question` leads a reader to its evidence: the best passage lies in an evidence message
 * and holds `answer` (so two facts of one listing cannot share a question).
 */
export function isFindable(index: PassageIndex, question: string, answer: string, evidence: ReadonlySet<number>): boolean {
  const best = findBestPassage(index, question);
  const passage = best === undefined ? undefined : index.passages[best];
  return passage !== undefined && evidence.has(passage.message) && containsNormalised(passage.text, normaliseAnswer(answer));
}
