/* eslint-disable @typescript-eslint/prefer-for-of --
   Indexed loops on purpose where a cold run steps through every line, token and term: before V8
   compiles the code, each step of a `for…of` makes an iterator result (docs/performance.md, "The
   long log's cold run, its own code"). */
import { runOwned, runTextMemo, runWeakMap, createListMemo } from '../memo.js';
import type { ContextMessage } from '../transcript/types.js';
import { toolCallText } from '../tokens/tokenizer.js';
import { countTerms } from './terms.js';
import { LETTER_OR_DIGIT, LINE_BREAK } from '../text-patterns.js';

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

/** A passage's term count and term frequencies. */
export interface PassageTerms {
  length: number;
  counts: Map<string, number>;
}

const K1 = 1.2;
const B = 0.75;
const LONG_LINE_WORDS = 60;
/** A line of more than `LONG_LINE_WORDS` words (a trimmed line: words are the runs between its spaces). */
const LONG_LINE = new RegExp(String.raw`^(?:\S+\s+){${LONG_LINE_WORDS}}\S`);

/** BM25 of one passage: the terms in query order, so that every caller adds the same floats alike. */
export function scoreOf(
  doc: PassageTerms,
  queryTerms: readonly string[],
  idf: readonly number[],
  averageLength: number,
): { score: number; matchedIdf: number } {
  let score = 0;
  let matchedIdf = 0;
  for (let t = 0; t < queryTerms.length; t++) {
    const tf = doc.counts.get(queryTerms[t] as string) ?? 0;
    if (tf === 0) continue;
    const weight = idf[t] as number;
    matchedIdf += weight;
    score += (weight * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / Math.max(1, averageLength)));
  }
  return { score, matchedIdf };
}

/** The inverse document frequency of each query term among `total` passages, `containing[t]` of which hold it. */
export function idfOf(containing: readonly number[], total: number): number[] {
  return containing.map((n) => Math.log(1 + (total - n + 0.5) / (n + 0.5)));
}

/**
 * The terms of each passage text, computed once per text: every probe question re-reads the same
 * context lines. A pure function of the text, so the memo changes no answer; it is emptied when
 * it grows large.
 */
const termMemo = runTextMemo<PassageTerms>('passage-terms');

export function passageTerms(text: string): PassageTerms {
  return termMemo.get(text, countTerms);
}

/** One message text read as passages: its pieces, their terms, and which pieces each term occurs on. */
export interface TextPassages {
  readonly pieces: readonly string[];
  readonly terms: readonly PassageTerms[];
  /** Terms over all pieces. */
  readonly totalLength: number;
  /**
   * For each term, the pieces that hold it, in order (its piece frequency is their number): listed
   * as the pieces' terms are counted, one push per piece and term, where finding a term's pieces
   * when first asked looked into every piece's terms again for each term asked (four times the
   * lookups on vsla-5f8cbb78).
   */
  readonly postings: ReadonlyMap<string, readonly number[]>;
}

/**
 * Each text split and counted once: every probe of a step, and every strategy that keeps the
 * message, hands the reader the same texts again, so a question costs a lookup per text and a
 * scan of only the texts that hold one of its terms. A pure function of the text (text keys are
 * safe across strategies, requests and workers); emptied when large.
 */
const textMemo = runTextMemo<TextPassages>('passage-texts');

export function textPassages(text: string): TextPassages {
  return textMemo.get(text, () => {
    const pieces = splitText(text);
    const terms = pieces.map(passageTerms);
    const postings = new Map<string, number[]>();
    let totalLength = 0;
    for (let p = 0; p < terms.length; p++) {
      const doc = terms[p] as PassageTerms;
      totalLength += doc.length;
      // `forEach` rather than `for…of`: no iterator result per term in a cold process.
      doc.counts.forEach((_count, term) => {
        const holding = postings.get(term);
        if (holding === undefined) postings.set(term, [p]);
        else holding.push(p);
      });
    }
    return { pieces, terms, totalLength, postings };
  });
}

/** The memo sizes, for a test that holds them bounded. */
export function passageMemoSizes(): { texts: number; terms: number } {
  return { texts: textMemo.size, terms: termMemo.size };
}

function splitText(text: string): string[] {
  const pieces: string[] = [];
  // Tool output that an agent recorded as a JSON string (Codex) still reads as lines to a model.
  const lines = text.split(LINE_BREAK);
  for (let l = 0; l < lines.length; l++) {
    const trimmed = (lines[l] as string).trim();
    if (!LETTER_OR_DIGIT.test(trimmed)) continue;
    if (!LONG_LINE.test(trimmed)) pieces.push(trimmed);
    else pieces.push(...trimmed.split(/(?<=[.!?])\s+/).filter((sentence) => sentence !== ''));
  }
  return pieces;
}

/** The texts a message offers as passages, in order: thinking, text, tool calls. */
export function passageTextsOf(message: ContextMessage): string[] {
  return [message.thinking ?? '', message.text, ...(message.toolCalls ?? []).map(toolCallText)];
}

/** One text of a context that holds passages: its message, its passages, where they start in the whole list. */
interface IndexedText {
  readonly messageId: string;
  readonly passages: TextPassages;
  readonly start: number;
}

/** A context's texts as passages, with where each text's passages start in the whole list. */
export interface IndexedContext {
  /** The texts of the context (the first `textCount` of a list that may go on: the texts of a longer context read before). */
  readonly texts: readonly IndexedText[];
  readonly textCount: number;
  /** Passages in all. */
  readonly count: number;
  readonly totalLength: number;
  /** Which texts hold each term asked, over every text of `texts` (`postingsOf`). */
  readonly index: TextsIndex;
}

/**
 * The texts of a list of messages, flattened, with which of them hold each term asked so far: kept
 * per array the list memo below hands back, which only ever grows at its end, so that its first
 * `n` values are always the passages of the same first `n` messages. A context that a later read
 * extends (the next ask point, a strategy that keeps what `full` sent) then scores a question by
 * the texts that hold its terms, not by a look into every text of the context.
 */
interface TextsIndex {
  readonly texts: IndexedText[];
  /** Texts of the first `i + 1` messages read so far. */
  readonly ends: number[];
  /** Passages and terms before each text. */
  readonly passageStarts: number[];
  readonly lengthStarts: number[];
  readonly byTerm: Map<string, TermPostings>;
}

/** The texts (positions in `TextsIndex.texts`, ascending) that hold a term, and the pieces that hold it in those and all before. */
interface TermPostings {
  /** Texts scanned for the term so far. */
  scanned: number;
  texts: number[];
  /** Pieces holding the term in `texts[0..k]`. */
  pieces: number[];
}

/**
 * Each message's texts that hold passages, per list of messages: every probe of an ask point reads
 * the same context with another question, and the next ask point's context mostly extends it, so
 * only the messages past the run a list shares with one read before are looked up by text. The
 * reader reads the request it answers (probe asks, the validity filter's `full` context), not the
 * step's: no step diff describes these lists, so a list memo finds the shared run.
 */
const messagePassages = runOwned(() => createListMemo<ContextMessage, readonly TextPassages[]>());
const textsIndexes = runWeakMap<readonly (readonly TextPassages[])[], TextsIndex>();

function passagesOfMessage(message: ContextMessage): readonly TextPassages[] {
  return passageTextsOf(message)
    .map(textPassages)
    .filter((passages) => passages.pieces.length > 0);
}

/** The passages of `messages`, in the order `splitPassages` lists them, each text from its memo. */
export function indexContext(messages: readonly ContextMessage[]): IndexedContext {
  const each = messagePassages()?.values(messages, passagesOfMessage) ?? messages.map(passagesOfMessage);
  let index = textsIndexes.get(each);
  if (index === undefined) {
    index = { texts: [], ends: [], passageStarts: [0], lengthStarts: [0], byTerm: new Map() };
    textsIndexes.set(each, index);
  }
  for (let i = index.ends.length; i < messages.length; i++) {
    const messageId = (messages[i] as ContextMessage).id;
    for (const passages of each[i] as readonly TextPassages[]) {
      const at = index.texts.length;
      const start = index.passageStarts[at] as number;
      index.texts.push({ messageId, passages, start });
      index.passageStarts.push(start + passages.pieces.length);
      index.lengthStarts.push((index.lengthStarts[at] as number) + passages.totalLength);
    }
    index.ends.push(index.texts.length);
  }
  const textCount = messages.length === 0 ? 0 : (index.ends[messages.length - 1] as number);
  return { texts: index.texts, textCount, count: index.passageStarts[textCount] as number, totalLength: index.lengthStarts[textCount] as number, index };
}

/** The texts among the first `textCount` that hold `term` (their positions, ascending) and the pieces that hold it there. */
function postingsOf(context: IndexedContext, term: string): { texts: readonly number[]; count: number; pieces: number } {
  const { index, textCount } = context;
  let postings = index.byTerm.get(term);
  if (postings === undefined) index.byTerm.set(term, (postings = { scanned: 0, texts: [], pieces: [] }));
  for (; postings.scanned < textCount; postings.scanned++) {
    const pieces = (index.texts[postings.scanned] as IndexedText).passages.postings.get(term)?.length;
    if (pieces === undefined) continue;
    postings.texts.push(postings.scanned);
    postings.pieces.push((postings.pieces[postings.pieces.length - 1] ?? 0) + pieces);
  }
  // Texts past this context, scanned for a longer one read before, are left out.
  let count = postings.texts.length;
  if (postings.scanned > textCount) {
    let low = 0;
    while (low < count) {
      const mid = (low + count) >> 1;
      if ((postings.texts[mid] as number) < textCount) low = mid + 1;
      else count = mid;
    }
  }
  return { texts: postings.texts, count, pieces: count === 0 ? 0 : (postings.pieces[count - 1] as number) };
}

/** The passage at position `index` of an indexed context (as `splitPassages(...)[index]`). */
export function passageAt(context: IndexedContext, index: number): Passage | undefined {
  const { texts } = context;
  let low = 0;
  let high = context.textCount - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((texts[mid]?.start ?? 0) <= index) low = mid;
    else high = mid - 1;
  }
  const entry = high < 0 ? undefined : texts[low];
  const text = entry?.passages.pieces[index - entry.start];
  return entry === undefined || text === undefined || index < 0 ? undefined : { messageId: entry.messageId, text };
}

/**
 * The passages of an indexed context that match a query term (score > 0), scored and ranked as
 * reader.ts ranks a passage list: the same document frequencies (added per text), the same floats
 * (`scoreOf`), the same total order. Texts that hold no query term are never opened. With
 * `minShare`, only the passages scoring at least that share of the best: the ranked list's prefix
 * a reader stops at, without sorting the thousands of passages a common term matches.
 */
export function scoreIndexed(queryTerms: readonly string[], context: IndexedContext, minShare = 0): ScoredPassage[] {
  const containing: number[] = [];
  const holding = new Set<number>();
  for (let t = 0; t < queryTerms.length; t++) {
    const postings = postingsOf(context, queryTerms[t] as string);
    containing.push(postings.pieces);
    for (let k = 0; k < postings.count; k++) holding.add(postings.texts[k] as number);
  }
  const averageLength = context.totalLength / Math.max(1, context.count);
  const idf = idfOf(containing, context.count);
  const totalIdf = idf.reduce((sum, weight) => sum + weight, 0);
  // Scores first, passages after: a common term matches thousands of pieces, of which `minShare`
  // keeps a few, so only those become objects.
  const hits = { text: [] as number[], piece: [] as number[], score: [] as number[], matchedIdf: [] as number[] };
  let best = 0;
  // In any order: the ranking below is a total order.
  holding.forEach((i) => {
    const { passages } = context.texts[i] as IndexedText;
    // Only the pieces that hold a query term can score above 0 (every idf is positive).
    const pieces = piecesHolding(passages, queryTerms);
    for (let p = 0; p < pieces.length; p++) {
      const piece = pieces[p] as number;
      const { score, matchedIdf } = scoreOf(passages.terms[piece] as PassageTerms, queryTerms, idf, averageLength);
      if (score <= 0) continue;
      hits.text.push(i);
      hits.piece.push(piece);
      hits.score.push(score);
      hits.matchedIdf.push(matchedIdf);
      if (score > best) best = score;
    }
  });
  const scored: ScoredPassage[] = [];
  for (let h = 0; h < hits.score.length; h++) {
    const score = hits.score[h] as number;
    if (minShare > 0 && score < best * minShare) continue;
    const { messageId, passages, start } = context.texts[hits.text[h] as number] as IndexedText;
    const piece = hits.piece[h] as number;
    const coverage = totalIdf > 0 ? (hits.matchedIdf[h] as number) / totalIdf : 0;
    scored.push({ messageId, text: passages.pieces[piece] as string, index: start + piece, score, coverage });
  }
  return scored.sort((a, b) => b.score - a.score || b.index - a.index);
}

/**
 * Each piece of a text that holds at least one of `terms`, once (the order does not matter: the
 * ranking is total): the one term's list itself, or the pieces of several in a scratch list that
 * the next call refills (read it before calling again). Where several terms occur, a piece
 * already listed is told apart by this call's stamp rather than by a set made per text.
 */
function piecesHolding(passages: TextPassages, terms: readonly string[]): readonly number[] {
  let only: readonly number[] | undefined;
  let several = false;
  for (let t = 0; t < terms.length; t++) {
    const holding = passages.postings.get(terms[t] as string);
    if (holding === undefined) continue;
    if (only === undefined) only = holding;
    else several = true;
  }
  if (!several) return only ?? [];
  const stamp = nextStamp(passages.pieces.length);
  holdingScratch.length = 0;
  for (let t = 0; t < terms.length; t++) {
    const holding = passages.postings.get(terms[t] as string) ?? [];
    for (let h = 0; h < holding.length; h++) {
      const piece = holding[h] as number;
      if (visited[piece] === stamp) continue;
      visited[piece] = stamp;
      holdingScratch.push(piece);
    }
  }
  return holdingScratch;
}

/** The pieces `piecesHolding` lists when several terms occur in a text; refilled by each call. */
const holdingScratch: number[] = [];

/**
 * Scratch space of `piecesHolding`: the stamp of the last call that listed each piece position.
 * Not a memo (nothing in it is read by another call); grown to the longest text seen.
 */
let visited = new Uint32Array(1024);
let lastStamp = 0;

function nextStamp(pieces: number): number {
  if (pieces > visited.length) visited = new Uint32Array(2 ** Math.ceil(Math.log2(pieces)));
  if (lastStamp === 0xffffffff) {
    visited.fill(0);
    lastStamp = 0;
  }
  return (lastStamp += 1);
}
