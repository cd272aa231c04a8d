import type { ProbeKind } from '../transcript/types.js';

/**
 * A fact a later step might need, found in one message: the raw material of a generated probe.
 * generate.ts decides whether it makes a fair probe (the answer not repeated later, not in the
 * question) and adds the hint words.
 */
export interface Fact {
  kind: ProbeKind;
  /** The exact value, as written in the message. */
  answer: string;
  /** Index, in the transcript's message list, of the message that holds the answer. */
  index: number;
  /** The question, without hint words. Never contains the answer. */
  question: string;
  /** Texts around the answer to draw hint words from, most specific first. */
  hintSources: string[];
  /**
   * A path or a command line: a piece of it may appear in the question (`release.py` for
   * `/tmp/…/scripts/release.py`), as the exact value is still needed. A phrase or an error line
   * may not: a piece of those is most of the answer.
   */
  isStructured?: boolean;
  /**
   * The latest state of something (what a file holds after an edit): only the last fact with this
   * question makes a probe, and the earlier answers are its superseded values (`stale`).
   */
  latest?: true;
}

// Words that carry no retrieval signal: a hint made of them finds nothing.
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'the and for with that this from into onto then than them they their there these those what which when where ' +
    'while will would should could have has had was were are been being not but all any can did does done its it ' +
    'our out you your yes let lets use used using now just also only some such very more most other same each ' +
    'about after before over under again here file files line lines tool call output message agent assistant user ' +
    'run ran running step next want need make sure okay see look looks like get got one two way new old ' +
    'because instead path traceback recent last exit code'
  ).split(' '),
);

const DANGLING = new Set(['the', 'a', 'an', 'to', 'of', 'in', 'on', 'at', 'from', 'with', 'for', 'and', 'or', 'by', 'into', 'as']);

/** Cuts a text to at most `maxChars`, at a word boundary. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return (space > maxChars / 2 ? cut.slice(0, space) : cut).trimEnd();
}

/**
 * A phrase cleaned into an answer: no leading article, no trailing punctuation, at most
 * `maxWords` words; undefined when nothing specific is left ("it", "this").
 */
export function cleanPhrase(phrase: string, maxWords: number): string | undefined {
  const words = phrase
    .trim()
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/[\s.,;:!?)"'`]+$/, '')
    .replace(/^["'`(]+/, '')
    .replace(/[`"\u201C\u201D]/g, '')
    .split(/\s+/)
    .slice(0, maxWords);
  // A cut phrase must not end on a dangling word: "export the name from".
  while (words.length > 1 && DANGLING.has((words[words.length - 1] ?? '').toLowerCase())) words.pop();
  const text = words.join(' ');
  const hasContent = words.some((w) => /[a-z0-9]{3,}/i.test(w) && !STOPWORDS.has(w.toLowerCase()));
  return text.length >= 3 && hasContent ? text : undefined;
}

/**
 * `\`bash\``: how a question names the tool whose output showed a value. Neither the command line
 * (its words lead a reader to the call rather than to the output) nor words such as "output" or
 * "show", which a session may never use: every word of a question that its evidence lacks makes
 * the evidence harder to find (findable.ts).
 */
export function describeOutput(toolName: string): string {
  return `\`${toolName}\``;
}
