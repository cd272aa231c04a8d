/* eslint-disable @typescript-eslint/prefer-for-of --
   Indexed loops on purpose where a cold run steps through every line, token and term: before V8
   compiles the code, each step of a `for…of` makes an iterator result (docs/performance.md, "The
   long log's cold run, its own code"). */
import { runTextMemo } from '../memo.js';
import type { Fact } from './fact.js';
import { STOPWORDS } from './fact.js';
import { containsNormalised, normaliseAnswer } from './grade.js';
import { cjkWordsOf, findabilityOf, isCjkWord, lineFrequency, lineText, linesHolding, wordsOf, type LineIndex } from './findable.js';
import { answerTokens, isAnswerToken, leaksAnyToken } from './leak.js';
import { COMPOUND, COMPOUND_SEPARATORS, DIGIT } from '../text-patterns.js';

/**
 * The words a generated question adds after its stem (`… (context: a, b)`) so that it picks out
 * its evidence: words of the line that holds the answer (`claude-reliability/scripts` gives
 * `claude`, `reliability`, `scripts`), the rarest first, added one at a time until the question
 * names a unique span of the session (findable.ts). A question that still does not is dropped.
 */

const MAX_HINTS = 5;

function tokenizeWords(text: string): string[] {
  return [...(text.toLowerCase().match(/\b[a-z][a-z0-9_-]*[a-z0-9]\b/g) ?? []), ...cjkWordsOf(text)];
}

// Compound tokens (paths, snake_case) and their pieces, so a hint reads as the line wrote it.
const TOKEN = /[a-z0-9][a-z0-9_./-]*[a-z0-9]|[a-z0-9]/g;

/**
 * The words of a text worth naming in a question (`claude-reliability/scripts` gives `claude`,
 * `reliability`, `scripts`); only those that read as words.
 */
function termWords(text: string): readonly string[] {
  return termWordsMemo.get(text, readTermWords);
}

/** `termWords` of each text once: the facts of one tool result all offer its whole output as hints. */
const termWordsMemo = runTextMemo<readonly string[]>('question-terms');

function readTermWords(text: string): string[] {
  const words: string[] = [];
  const tokens = text.toLowerCase().match(TOKEN) ?? [];
  // Indexed loops: no iterator result or spread list per token in a cold process.
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as string;
    if (isTermWord(token)) words.push(token);
    if (!COMPOUND.test(token)) continue;
    const pieces = token.split(COMPOUND_SEPARATORS);
    for (let p = 0; p < pieces.length; p++) if (isTermWord(pieces[p] as string)) words.push(pieces[p] as string);
  }
  // CJK prose has no spaces: its character pairs (findable.ts `wordsOf`) are its words.
  const cjk = cjkWordsOf(text);
  for (let c = 0; c < cjk.length; c++) words.push(cjk[c] as string);
  return words;
}

/** A token or piece `termWords` keeps: it reads as a word (`isHintWord`). */
function isTermWord(word: string): boolean {
  return TERM_WORD.test(word) && isHintWord(word);
}

// A constant: a regular expression literal in a function body is a new object each time it is
// evaluated (this runs per token of every hint source); the others are text-patterns.ts's.
const TERM_WORD = /^[a-z][a-z0-9_-]*[a-z0-9]$/;

/** A word worth reading in a question: not a stop word, not a hash or an id. */
function isHintWord(word: string): boolean {
  return word.length >= 3 && word.length <= 24 && !STOPWORDS.has(word) && !(DIGIT.test(word) && word.length > 10);
}

/**
 * Words of the evidence lines: those of message `index` that hold the answer, then those of the
 * line before each in the message (a reader who finds that line reads on to the answer's, findable.ts).
 */
function evidenceWords(lines: LineIndex, index: number, answer: string): readonly string[] {
  const own = lines.byMessage[index] ?? [];
  const holding = linesHolding(lines, index, answer);
  const ownLines = new Set(own);
  const held = new Set(holding);
  const before = holding.filter((line) => ownLines.has(line - 1) && !held.has(line - 1)).map((line) => line - 1);
  return [...holding, ...before].flatMap((line) => termWords(lineText(lines, line)));
}

/**
 * A hint word's rarity: the line frequency of its rarest piece; 0 when it adds no anchor the index
 * can use (a piece the session never writes, or no piece at all).
 */
function rarityOf(lines: LineIndex, word: string): number {
  const pieces = wordsOf(word);
  let rarest = pieces.length === 0 ? 0 : Infinity;
  for (const piece of pieces) rarest = Math.min(rarest, lineFrequency(lines, piece));
  return rarest;
}

/** The findable question for a fact whose evidence is the messages `span`, or undefined. */
export function phraseQuestion(fact: Fact, span: readonly number[], passages: LineIndex): string | undefined {
  const answer = normaliseAnswer(fact.answer);
  const isFindable = findabilityOf(passages, fact.answer, new Set(span), fact.latest === true);
  const leaking = answerTokens(fact.answer);
  const isFair = (question: string): boolean =>
    !containsNormalised(normaliseAnswer(question), answer) && !leaksAnyToken(question, leaking) && isFindable(question);
  if (isFair(fact.question)) return fact.question;
  // The hints are looked for only when the bare question is not fair: most facts' is.
  const hints = hintWords(fact, answer, leaking, passages);
  for (let n = 1; n <= hints.length; n++) {
    const question = `${fact.question} (context: ${joinHints(hints.slice(0, n))})`;
    if (isFair(question)) return question;
  }
  // Last resort: quote the line that holds the answer, with the answer blanked out.
  const line = clozeLine(passages, fact.index, fact.answer);
  const cloze = line === undefined ? undefined : `${fact.question} (the line reads: "${line}")`;
  return cloze !== undefined && isFair(cloze) ? cloze : undefined;
}

/**
 * The first `MAX_HINTS` hint words for a fact, in the order a question adds them: the words of its
 * evidence lines, then of each hint source, each source's rarest first (among equally rare words,
 * the first in the passage). Sources past the one that fills the hints are never read, and of a
 * source only its rarest words are checked for leaks: the words after them are never asked.
 */
function hintWords(fact: Fact, answer: string, leaking: ReadonlySet<string>, passages: LineIndex): string[] {
  const exclude = new Set([
    ...wordsOf(fact.question),
    ...tokenizeWords(fact.question),
    ...(fact.isStructured === true ? [] : [...wordsOf(fact.answer), ...tokenizeWords(fact.answer)]),
  ]);
  // A hint word is never a token of the answer, nor made of one (`release_page` for `release_page.png`), nor inflects one (leak.ts).
  const isClean = (word: string): boolean => !wordsOf(word).some((piece) => isAnswerToken(piece, leaking));
  const sources = [
    (): readonly string[] => rankWords(passages, evidenceWords(passages, fact.index, answer)),
    ...fact.hintSources.map((text) => () => rankedWords(passages, termWords(text))),
  ];
  const hints: string[] = [];
  const taken = new Set<string>();
  for (const source of sources) {
    if (hints.length >= MAX_HINTS) break;
    for (const word of source()) {
      if (exclude.has(word) || taken.has(word) || !isClean(word)) continue;
      taken.add(word);
      hints.push(word);
      if (hints.length >= MAX_HINTS) break;
    }
  }
  return hints;
}

/**
 * The words a question can use as hints, each once, rarest first (among equally rare words, the
 * first in the text): those with a rarity above 0 (`rarityOf`).
 */
function rankWords(passages: LineIndex, words: readonly string[]): string[] {
  const distinct = [...new Set(words)];
  const rarity = distinct.map((w) => rarityOf(passages, w));
  const order = distinct.map((_, i) => i).filter((i) => (rarity[i] as number) > 0);
  order.sort((a, b) => (rarity[a] as number) - (rarity[b] as number) || a - b);
  return order.map((i) => distinct[i] as string);
}

/**
 * `rankWords` of a hint source's words (the array `termWords` hands back), once per generation
 * (kept on its line index, `LineIndex.ranked`): with memos off every call gets a new array and
 * ranks it.
 */
function rankedWords(passages: LineIndex, words: readonly string[]): readonly string[] {
  let ranked = passages.ranked.get(words);
  if (ranked === undefined) passages.ranked.set(words, (ranked = rankWords(passages, words)));
  return ranked;
}

/**
 * Hint words joined for a question; CJK character pairs that overlap (`我來`, `來幫`) as the one
 * span they come from (`我來幫`), which reads as the line does and holds the same pairs.
 */
function joinHints(words: readonly string[]): string {
  const joined: string[] = [];
  for (const word of words) {
    const last = joined[joined.length - 1];
    const chars = [...word];
    if (last !== undefined && isCjkWord(word) && isCjkWord([...last].slice(-2).join('')) && [...last].at(-1) === chars[0])
      joined[joined.length - 1] = `${last}${chars[1]}`;
    else joined.push(word);
  }
  return joined.join(', ');
}

const CLOZE_CHARS = 60;

/** The first passage of message `index` that holds the answer, answer blanked, cut to about 120 characters around it. */
function clozeLine(passages: LineIndex, index: number, answer: string): string | undefined {
  for (const lineIndex of passages.byMessage[index] ?? []) {
    const raw = passages.lines[lineIndex]?.raw ?? '';
    const at = raw.indexOf(answer);
    if (at < 0) continue;
    const before = raw.slice(Math.max(0, at - CLOZE_CHARS), at);
    const after = raw.slice(at + answer.length, at + answer.length + CLOZE_CHARS);
    const line = `${at > CLOZE_CHARS ? '…' : ''}${before}___${after}${at + answer.length + CLOZE_CHARS < raw.length ? '…' : ''}`;
    return line.replace(/\s+/g, ' ').replace(/"/g, "'").split(answer).join('___');
  }
  return undefined;
}
