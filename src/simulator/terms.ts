/* eslint-disable @typescript-eslint/prefer-for-of --
   Indexed loops on purpose where a cold run steps through every line, token and term: before V8
   compiles the code, each step of a `for…of` makes an iterator result (docs/performance.md, "The
   long log's cold run, its own code"). */
import { runTextMemo } from '../memo.js';
import { COMPOUND, COMPOUND_SEPARATORS, DIGIT } from '../text-patterns.js';

/** Lexical helpers shared by the simulated reader and summarizer. */

// As constants: a regular expression literal in a function body is a new object each time it is
// evaluated (a cold run reads tens of thousands of tokens). It is not global or sticky.
const UNSTEMMED = /\d|[_./-]/;
/** The suffixes `stem` strips, in the order it tries them, each with what replaces it. */
const SUFFIXES: readonly (readonly [suffix: string, replacement: string])[] = [
  ['ies', 'y'],
  ['ing', ''],
  ['ed', ''],
  ['es', ''],
  ['s', ''],
];

const STOPWORDS = new Set(
  (
    'a about above after again all also am an and any are as at be been before being below between both but by ' +
    'can could did do does doing done down during each either else ever few for from further get got had has have ' +
    'having he her here hers him his how i if in into is it its itself just let me more most my no nor not now of ' +
    'off on once only or other our ours out over own same she should so some such than that the their theirs them ' +
    'then there these they this those through to too under until up upon us very was we were what when where which ' +
    'while who whom whose why will with would you your yours yourself'
  ).split(' '),
);

/**
 * Words that frame a question about a session rather than name its content ("which command did the
 * agent run"): dropped from questions, so a reader is not penalised for not finding them.
 */
const QUESTION_FRAMING = new Set(
  (
    'agent assistant user command commands file files line lines use used using run ran value name named called ' +
    'happen happened say said tell mention mentioned exact exactly current currently session conversation context ' +
    'earlier previously still next last first answer know'
  ).split(' '),
);

/** The framing words as `extractTerms` stems them, built once rather than per question. */
const STEMMED_FRAMING = new Set([...QUESTION_FRAMING].map(stem));

const TOKEN = /[a-z0-9][a-z0-9_./-]*[a-z0-9]|[a-z0-9]/g;
// Chinese and Japanese (and Korean, as search indexes treat it) write words without spaces.
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The content terms of a text, lowercased and lightly stemmed. A compound token such as a path
 * (`src/auth/login.ts`) or identifier (`max_retries`) yields itself and its pieces, so a question
 * that names a piece still matches. A run of CJK characters, which has no word boundaries, yields
 * its overlapping character pairs (`修改文件` → `修改`, `改文`, `文件`), as CJK search indexes do.
 */
export function extractTerms(text: string): string[] {
  const terms: string[] = [];
  const lower = text.toLowerCase();
  for (const token of lower.match(TOKEN) ?? []) {
    for (const term of termsOfToken(token)) terms.push(term);
  }
  if (!HAS_CJK.test(lower)) return terms;
  for (const [run] of lower.matchAll(CJK_RUN)) {
    const chars = [...run];
    for (let i = 0; i + 1 < chars.length; i++) terms.push(`${chars[i]}${chars[i + 1]}`);
  }
  return terms;
}

/**
 * `extractTerms` of a text counted: how many terms, and how often each occurs, in the order each
 * first occurs (the same map as counting `extractTerms(text)`, without the list in between: the
 * reader counts every line of every message it reads).
 */
export function countTerms(text: string): { length: number; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const lower = text.toLowerCase();
  const tokens = lower.match(TOKEN) ?? [];
  let length = 0;
  // Indexed loops: a cold process runs this before it is compiled, where each step of a `for…of`
  // makes an iterator result (a run's largest allocation by count).
  for (let t = 0; t < tokens.length; t++) {
    const terms = termsOfToken(tokens[t] as string);
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i] as string;
      counts.set(term, (counts.get(term) ?? 0) + 1);
    }
    length += terms.length;
  }
  if (HAS_CJK.test(lower)) {
    for (const [run] of lower.matchAll(CJK_RUN)) {
      const chars = [...run];
      for (let i = 0; i + 1 < chars.length; i++) {
        const term = `${chars[i]}${chars[i + 1]}`;
        counts.set(term, (counts.get(term) ?? 0) + 1);
        length++;
      }
    }
  }
  return { length, counts };
}

/**
 * The terms of each token, worked out once: a session repeats a small vocabulary many times over.
 * A pure function of the token; emptied when large.
 */
const tokenMemo = runTextMemo<readonly string[]>('simulator-terms');

function termsOfToken(token: string): readonly string[] {
  return tokenMemo.get(token, () => {
    const built: string[] = [];
    addTerm(built, token);
    if (COMPOUND.test(token)) {
      const pieces = token.split(COMPOUND_SEPARATORS);
      for (let p = 0; p < pieces.length; p++) addTerm(built, pieces[p] as string);
    }
    return built;
  });
}

/** The content terms of a question: its terms without the words that only frame it. */
export function extractQuestionTerms(question: string): string[] {
  return extractTerms(question).filter((term) => !STEMMED_FRAMING.has(term) && !QUESTION_FRAMING.has(term));
}

function addTerm(terms: string[], token: string): void {
  if (token === '' || STOPWORDS.has(token)) return;
  if (token.length === 1 && !DIGIT.test(token)) return;
  terms.push(stem(token));
}

/** Strips common English suffixes, keeping at least three letters (so `decided`/`decide` meet). */
function stem(word: string): string {
  if (UNSTEMMED.test(word)) return word;
  let stemmed = word;
  for (let i = 0; i < SUFFIXES.length; i++) {
    const pair = SUFFIXES[i] as readonly [string, string];
    const suffix = pair[0];
    const replacement = pair[1];
    if (suffix === 's' && stemmed.endsWith('ss')) break;
    if (stemmed.endsWith(suffix) && stemmed.length - suffix.length + replacement.length >= 3) {
      stemmed = stemmed.slice(0, stemmed.length - suffix.length) + replacement;
      break;
    }
  }
  if (stemmed.endsWith('e') && stemmed.length > 3) stemmed = stemmed.slice(0, -1);
  return stemmed;
}

/**
 * Cuts `text` to at most `maxTokens`, keeping whole words and starting a little before word
 * `focus`. Words are counted one by one (cheap and cached), then the result is checked whole.
 */
export function trimToTokens(text: string, maxTokens: number, count: (text: string) => number, focus = 0): string {
  if (maxTokens <= 0) return '';
  if (count(text) <= maxTokens) return text;
  const words = text.split(/\s+/).filter((word) => word !== '');
  const start = Math.max(0, Math.min(focus - 8, words.length - 1));
  const kept: string[] = [];
  let used = start > 0 ? 1 : 0;
  for (const word of words.slice(start)) {
    const cost = count(` ${word}`);
    if (used + cost + 1 > maxTokens) {
      // A word longer than the whole budget (CJK writes a clause without a space): its head, not nothing.
      if (kept.length === 0) kept.push(headWithin(word, maxTokens - used - 2, count));
      break;
    }
    kept.push(word);
    used += cost;
  }
  let result = (start > 0 ? '…' : '') + kept.join(' ') + '…';
  while (kept.length > 0 && count(result) > maxTokens) {
    kept.pop();
    result = (start > 0 ? '…' : '') + kept.join(' ') + '…';
  }
  return kept.length > 0 && kept[0] !== '' ? result : '';
}

/** The longest head of `word` (whole characters) that counts at most `maxTokens`, found by halving. */
function headWithin(word: string, maxTokens: number, count: (text: string) => number): string {
  const chars = [...word];
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (count(chars.slice(0, mid).join('')) <= maxTokens) low = mid;
    else high = mid - 1;
  }
  return chars.slice(0, low).join('');
}
