/* eslint-disable @typescript-eslint/prefer-for-of --
   Indexed loops on purpose where a cold run steps through every line, token and term: before V8
   compiles the code, each step of a `for…of` makes an iterator result (docs/performance.md, "The
   long log's cold run, its own code"). */
import type { MessageEvent } from '../transcript/types.js';
import { toolCallText } from '../tokens/tokenizer.js';
import { STOPWORDS } from './fact.js';
import { containsNormalised, indexOfNormalised, normaliseAnswer } from './grade.js';
import { LETTER_OR_DIGIT, LINE_BREAK } from '../text-patterns.js';

/**
 * Whether a generated question picks out its evidence: a *unique span* criterion that shares
 * nothing with the simulated reader (no ranking, no stemming, no scores). The question's anchor
 * words are its content words found verbatim in the line that holds the answer; the question is
 * findable when some such line has at least `MIN_ANCHORS` of them and
 * every line of the session that holds all of that line's anchors also holds the answer. Two
 * facts of one listing then cannot share a question, and a question that names nothing specific
 * to its line is dropped, whatever any reader would have answered.
 *
 * A line is what a reader reads as one: a message's thinking, text and tool calls in that order,
 * a tool call as one line (its name and JSON arguments, split where an argument has a line
 * break). As a reader who finds a line reads on to the next line of its message, the anchors may
 * also lie on the line just before the answer's (a call's description, the sentence announcing
 * a command); then every line holding them must hold the answer or be followed by one that does.
 *
 * Selection and grading are thereby independent of the model under test: `full` no longer scores
 * 100 % because probes were kept only when the simulator's own retriever found them.
 */

const NO_WORDS: ReadonlySet<string> = new Set();

/** Anchor words a line must share with the question; uniqueness does the rest. */
const MIN_ANCHORS = 2;

export interface LineIndex {
  /**
   * Each line's message index, its raw text, and the part of the message it belongs to (its
   * thinking, its text, or one tool call; numbered over the session), `isCall` for a call's.
   */
  lines: { message: number; raw: string; part: number; isCall: boolean }[];
  /** The lines of each message, in order. */
  byMessage: number[][];
  /** For each word, the lines that hold it, ascending. */
  postings: Map<string, number[]>;
  /** Each line's words (`wordsOf` its raw text). */
  lineWords: ReadonlySet<string>[];
  /** Each line as read, untrimmed: what its normalised text is made from. */
  read: string[];
  /** Each line's normalised text (grade.ts `normaliseAnswer`), made when first asked for (`lineText`): most lines never are. */
  normalised: (string | undefined)[];
  /** Each message's lines' normalised texts joined, made when a fact first asks which of them hold its answer (`linesHolding`). */
  joined: (JoinedLines | undefined)[];
  /**
   * Each hint source's words ranked rarest first (question-hints.ts `rankedWords`), keyed by the
   * array `termWords` hands back: every fact of one tool result offers its whole output.
   */
  ranked: WeakMap<readonly string[], readonly string[]>;
}

// Scripts written without spaces between words (Chinese, Japanese; Korean too, as search indexes do).
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const HAS_CJK = new RegExp(`[${CJK}]`, 'u');
const CJK_WORD = new RegExp(`^[${CJK}]+$`, 'u');
const WORD_OR_CJK_RUN = new RegExp(`[a-z0-9]+|[${CJK}]+`, 'gu');

/**
 * The words of a text as this module reads them: lower case, split at every non-word character.
 * A run of CJK characters, which has no word boundaries, gives its overlapping character pairs
 * (`修改文件` → `修改`, `改文`, `文件`; a lone character itself), as CJK search indexes read it.
 */
export function wordsOf(text: string): string[] {
  if (!HAS_CJK.test(text)) return latinWordsOf(text);
  const lower = text.toLowerCase();
  const words: string[] = [];
  for (const [run] of lower.matchAll(WORD_OR_CJK_RUN)) {
    const chars = CJK_WORD.test(run) ? [...run] : [];
    if (chars.length < 2) words.push(run);
    else for (let i = 0; i + 1 < chars.length; i++) words.push(`${chars[i]}${chars[i + 1]}`);
  }
  return words;
}

/** `wordsOf` of a text without a CJK letter. */
function latinWordsOf(text: string): string[] {
  return text.toLowerCase().match(LATIN_WORD) ?? [];
}

/** The CJK character pairs among a text's words (`wordsOf`); none, without reading its words, in a text with no CJK letter. */
export function cjkWordsOf(text: string): string[] {
  return HAS_CJK.test(text) ? wordsOf(text).filter(isCjkWord) : [];
}

/** Whether a word (of `wordsOf`) is a CJK character pair: as specific as a Latin word of three letters or more. */
export function isCjkWord(word: string): boolean {
  return CJK_WORD.test(word) && [...word].length === 2;
}

/** A question's anchor candidates: its content words, each once. */
function contentWords(text: string): string[] {
  return [...new Set(wordsOf(text).filter((w) => (w.length >= 3 || isCjkWord(w)) && !STOPWORDS.has(w)))];
}

/** A message's texts in the order a reader reads them: thinking, text, each tool call as its name and JSON arguments. */
function readTexts(message: MessageEvent): string[] {
  return [message.thinking ?? '', message.text, ...(message.toolCalls ?? []).map(toolCallText)];
}

// A constant: a regular expression literal in a function body is a new object each time it is
// evaluated (this runs per line of the session and per word asked of it). `match` starts the
// global pattern at 0 and leaves it there.
const LATIN_WORD = /[a-z0-9]+/g;

/** Indexes the lines of a session's messages (their thinking, text and tool calls). */
export function indexLines(messages: readonly MessageEvent[]): LineIndex {
  const lines: LineIndex['lines'] = [];
  const byMessage: number[][] = messages.map(() => []);
  const postings = new Map<string, number[]>();
  const lineWords: ReadonlySet<string>[] = [];
  const read: string[] = [];
  let part = 0;
  messages.forEach((message, m) => {
    const calls = message.toolCalls?.length ?? 0;
    readTexts(message).forEach((partText, p, parts) => {
      part++;
      const isCall = p >= parts.length - calls;
      // A part without a CJK letter has none on any line: its lines' words are read without the test.
      const hasCjk = HAS_CJK.test(partText);
      // Tool output an agent recorded as a JSON string (Codex) still has lines.
      const partLines = partText.split(LINE_BREAK);
      // Indexed loops and `forEach`: no iterator result per line and word in a cold process.
      for (let l = 0; l < partLines.length; l++) {
        const raw = partLines[l] as string;
        if (!LETTER_OR_DIGIT.test(raw)) continue;
        const index = lines.length;
        const words = new Set(hasCjk ? wordsOf(raw) : latinWordsOf(raw));
        words.forEach((word) => {
          const list = postings.get(word);
          if (list === undefined) postings.set(word, [index]);
          else list.push(index);
        });
        byMessage[m]?.push(index);
        lineWords.push(words);
        read.push(raw);
        lines.push({ message: m, raw: raw.trim(), part, isCall });
      }
    });
  });
  return { lines, byMessage, postings, lineWords, read, normalised: [], joined: [], ranked: new WeakMap() };
}

/** The normalised text of line `line` (as `normaliseAnswer` of its raw text gives it), kept on the index. */
export function lineText(index: LineIndex, line: number): string {
  let text = index.normalised[line];
  if (text === undefined) {
    text = normaliseAnswer(index.read[line] ?? '');
    index.normalised[line] = text;
  }
  return text;
}

/** A message's lines' normalised texts (`lineText`) joined with `LINE_SEPARATOR`, and where each starts. */
interface JoinedLines {
  text: string;
  starts: number[];
}

/** Between two lines of a message's joined text: no normalised answer spans it (one that holds it is searched line by line). */
const LINE_SEPARATOR = '\u0000';

/**
 * The lines of message `message` whose normalised text holds `wanted` (normalised), ascending: as
 * testing each line with `containsNormalised`, but searched in the message's lines joined once,
 * from one occurrence to the next line. Every fact of a tool output asks this of the output's
 * lines (and phrasing asks it again for the hint words): one search of the message per line that
 * holds the answer, not one call per line of the message.
 */
export function linesHolding(index: LineIndex, message: number, wanted: string): number[] {
  const own = index.byMessage[message] ?? [];
  if (wanted.includes(LINE_SEPARATOR)) return own.filter((line) => containsNormalised(lineText(index, line), wanted));
  let joined = index.joined[message];
  if (joined === undefined) {
    const starts: number[] = [];
    let offset = 0;
    const texts = own.map((line) => {
      const text = lineText(index, line);
      starts.push(offset);
      offset += text.length + LINE_SEPARATOR.length;
      return text;
    });
    joined = { text: texts.join(LINE_SEPARATOR), starts };
    index.joined[message] = joined;
  }
  const { text, starts } = joined;
  const holding: number[] = [];
  for (let at = indexOfNormalised(text, wanted); at >= 0;) {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] as number) <= at) low = mid;
      else high = mid - 1;
    }
    holding.push(own[low] as number);
    const next = starts[low + 1];
    if (next === undefined) break;
    at = indexOfNormalised(text, wanted, next);
  }
  return holding;
}

/** On how many lines a word occurs (0 for a word the session never writes). */
export function lineFrequency(index: LineIndex, word: string): number {
  return index.postings.get(word.toLowerCase())?.length ?? 0;
}

/** The lines holding every one of `words`: the rarest word's lines that hold the others too. */
function linesWithAll(index: LineIndex, words: readonly string[]): number[] {
  const linesOf = (w: number): readonly number[] => index.postings.get(words[w] as string) ?? [];
  let rarest = 0;
  for (let w = 1; w < words.length; w++) if (linesOf(w).length < linesOf(rarest).length) rarest = w;
  const others = words.filter((_, w) => w !== rarest);
  return linesOf(rarest).filter((line) => others.every((word) => index.lineWords[line]?.has(word) === true));
}

/**
 * Whether a reader who finds line `line` reads on to the next one: it is the next line of the same
 * message, and of the same part unless `line` is prose (a sibling call names its own file or command).
 */
function readsOnTo(index: LineIndex, line: number): boolean {
  const own = index.lines[line];
  const next = index.lines[line + 1];
  if (own === undefined || next?.message !== own.message) return false;
  return next.part === own.part || !own.isCall;
}

/** Whether a line holds `wanted`, or the line a reader reads on to does. */
function leadsTo(index: LineIndex, line: number, wanted: string): boolean {
  if (containsNormalised(lineText(index, line), wanted)) return true;
  return readsOnTo(index, line) && containsNormalised(lineText(index, line + 1), wanted);
}

/** The lines whose anchors may lead to line `line`: itself, and the line before it when a reader reads on from there. */
function anchorLines(index: LineIndex, line: number): number[] {
  return readsOnTo(index, line - 1) ? [line, line - 1] : [line];
}

/**
 * Whether `question` picks out a line of an evidence message that holds `answer`: enough of its
 * anchors on that line (or the line before it), and no line elsewhere with the same anchors that
 * does not lead to the answer (for a `latest` question, no such line after it).
 */
export function isFindable(index: LineIndex, question: string, answer: string, evidence: ReadonlySet<number>, latest = false): boolean {
  return findabilityOf(index, answer, evidence, latest)(question);
}

/**
 * `isFindable` of one answer and evidence for any question: the evidence lines that hold the answer
 * are found once, and each line's words once per index, however many phrasings are tried.
 */
export function findabilityOf(index: LineIndex, answer: string, evidence: ReadonlySet<number>, latest = false): (question: string) => boolean {
  const wanted = normaliseAnswer(answer);
  const holding: { line: number; anchorLines: number[] }[] = [];
  for (const message of evidence) {
    for (const line of linesHolding(index, message, wanted)) holding.push({ line, anchorLines: anchorLines(index, line) });
  }
  return (question) => {
    const words = contentWords(question);
    const needed = Math.min(MIN_ANCHORS, words.length);
    if (needed === 0) return false;
    for (const { line, anchorLines } of holding) {
      for (const anchorLine of anchorLines) {
        const own = index.lineWords[anchorLine] ?? NO_WORDS;
        const anchors = words.filter((w) => own.has(w));
        if (anchors.length < needed) continue;
        // A latest-state question (fact.ts `latest`) asks for the last value: earlier lines with
        // the same anchors hold the values it replaced, and the latest statement wins.
        if (linesWithAll(index, anchors).every((other) => (latest && other < line) || leadsTo(index, other, wanted))) return true;
      }
    }
    return false;
  };
}
