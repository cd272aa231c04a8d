import { wordsOf } from './findable.js';

/**
 * Whether a question gives its answer away (issue 25): no token of the expected answer may appear
 * in the question (and no hint word may inflect one: `aliases` for `alias`). A token is a run of
 * letters and digits, lower-cased; for a path, only the
 * tokens of its last component count (`src/probes/grade.ts` → `grade`, `ts`), as its folders are
 * what a question may use to say where the file lives. English function words (`the`, `of`) are
 * not tokens of an answer: they name nothing.
 */

const FUNCTION_WORDS: ReadonlySet<string> = new Set('a an the to of in on at by as is it be or and for with from into that this was were are'.split(' '));

/** A path or file name: one word holding a `/` or ending in an extension (`go.mod`, `src/a.ts`). */
function isPath(answer: string): boolean {
  const trimmed = answer.trim();
  return !/\s/.test(trimmed) && (/[/\\]/.test(trimmed) || /\.[A-Za-z][\w]{0,7}$/.test(trimmed));
}

/** The tokens of an answer a question must not contain (see the module comment). */
export function answerTokens(answer: string): ReadonlySet<string> {
  const trimmed = answer.trim();
  const text = isPath(trimmed)
    ? (trimmed
        .split(/[/\\]/)
        .filter((part) => part !== '')
        .at(-1) ?? trimmed)
    : trimmed;
  return new Set(wordsOf(text).filter((token) => !FUNCTION_WORDS.has(token)));
}

// Endings that leave a word's meaning: `aliases` gives `alias` away, `tests` gives `test`.
const INFLECTIONS: ReadonlySet<string> = new Set(['s', 'es', 'd', 'ed', 'r', 'er', 'rs', 'ers', 'ing']);

/** Whether two tokens are one word inflected (`alias`/`aliases`, `entry`/`entries`); words of four letters or more. */
function isInflectionOf(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 4) return false;
  if (long.startsWith(short)) return INFLECTIONS.has(long.slice(short.length));
  return short.endsWith('y') && long === `${short.slice(0, -1)}ies`;
}

/**
 * Whether `word` (a token) is one of `tokens`, an inflection of one, or a compound that holds one of
 * four letters or more (`upperdir` for `…/upper`, `egrep` for `/usr/bin/grep`).
 */
export function isAnswerToken(word: string, tokens: ReadonlySet<string>): boolean {
  if (tokens.has(word)) return true;
  for (const token of tokens) {
    if (isInflectionOf(word, token) || (token.length >= 4 && word.length > token.length && word.includes(token))) return true;
  }
  return false;
}

/**
 * The tokens of `answer` that `question` contains, in the question's order; empty when it leaks none.
 * Exact tokens: the question's own words name the subject (`Why shard the cache by tenant?` →
 * `tenants differ wildly in size`); the hint words ctxbench adds must not inflect one either
 * (`isAnswerToken`, question-hints.ts).
 */
export function leakedTokens(question: string, answer: string): string[] {
  const tokens = answerTokens(answer);
  return [...new Set(wordsOf(question).filter((word) => tokens.has(word)))];
}

/** Whether `question` contains any of an answer's `tokens` (`answerTokens`): `leakedTokens` is not empty. */
export function leaksAnyToken(question: string, tokens: ReadonlySet<string>): boolean {
  return wordsOf(question).some((word) => tokens.has(word));
}
