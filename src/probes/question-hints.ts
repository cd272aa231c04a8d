import type { Fact } from './fact.js';
import { STOPWORDS } from './fact.js';
import { containsNormalised, normaliseAnswer } from './grade.js';
import { isFindable, passageFrequency, type PassageIndex } from './findable.js';
import { extractTerms } from '../providers/simulated/terms.js';

/**
 * The words a generated question adds after its stem (`… (context: a, b)`) so that a reader finds
 * the evidence: terms of the passage that holds the answer (or of the one before it in the same
 * message), as the reader splits them (`claude-reliability/scripts` gives `claude`, `reliability`,
 * `scripts`), the rarest first, added one at a time until the question leads to its evidence
 * (findable.ts). A question that still does not is dropped.
 */

const MAX_HINTS = 5;

function tokenizeWords(text: string): string[] {
  return text.toLowerCase().match(/\b[a-z][a-z0-9_-]*[a-z0-9]\b/g) ?? [];
}

/** The reader's terms of a text that read as words: letters first, not a stop word, not an id. */
function termWords(text: string): string[] {
  return extractTerms(text).filter((t) => /^[a-z][a-z0-9_-]*[a-z0-9]$/.test(t) && isHintWord(t));
}

/** A word worth reading in a question: not a stop word, not a hash or an id. */
function isHintWord(word: string): boolean {
  return word.length >= 3 && word.length <= 24 && !STOPWORDS.has(word) && !(/\d/.test(word) && word.length > 10);
}

/**
 * Words of the evidence passages: those of message `index` that hold the answer, and the passage
 * before each in the same message (a call's summary line before its arguments).
 */
function evidenceWords(passages: PassageIndex, index: number, answer: string): string[] {
  const own = passages.byMessage[index] ?? [];
  const words: string[] = [];
  own.forEach((passage, i) => {
    const text = passages.passages[passage]?.text ?? '';
    if (!containsNormalised(text, answer)) return;
    words.push(...termWords(text));
    if (i > 0) words.push(...termWords(passages.passages[own[i - 1] as number]?.text ?? ''));
  });
  return words;
}

/**
 * Structured values (paths, commands, versions, error lines) may lend the question a piece of
 * themselves (`release.py` for `/tmp/…/scripts/release.py`): the exact value is still needed.
 * Phrases (decisions, next steps) may not: a piece of a phrase is most of its answer.
 */
function mayLendPieces(fact: Fact): boolean {
  return fact.kind === 'artifact' || fact.kind === 'recall';
}

/** The findable question for a fact whose evidence is the messages `span`, or undefined. */
export function phraseQuestion(fact: Fact, span: readonly number[], passages: PassageIndex): string | undefined {
  const answer = normaliseAnswer(fact.answer);
  const exclude = new Set([...extractTerms(fact.question), ...tokenizeWords(fact.question), ...(mayLendPieces(fact) ? [] : [...extractTerms(fact.answer), ...tokenizeWords(fact.answer)])]);
  const sources = [evidenceWords(passages, fact.index, answer), ...fact.hintSources.map(termWords)];
  const candidates: string[] = [];
  for (const words of sources) {
    // Stable sort: among equally rare words, the first in the passage wins.
    const fresh = [...new Set(words)].filter((w) => !exclude.has(w) && !candidates.includes(w) && passageFrequency(passages, w) > 0);
    candidates.push(...fresh.sort((a, b) => passageFrequency(passages, a) - passageFrequency(passages, b)));
  }
  const evidence = new Set(span);
  for (let n = 0; n <= Math.min(MAX_HINTS, candidates.length); n++) {
    const question = n === 0 ? fact.question : `${fact.question} (context: ${candidates.slice(0, n).join(', ')})`;
    if (containsNormalised(normaliseAnswer(question), answer)) return undefined;
    if (isFindable(passages, question, fact.answer, evidence)) return question;
  }
  return undefined;
}
