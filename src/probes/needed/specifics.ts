import { findNumbersInText } from '../specifics.js';
import { findPathsInText } from '../message-text.js';
import type { NeededKind } from './types.js';

/**
 * The specifics a text holds, as needed facts are made of: paths, identifiers, numbers, quoted
 * strings. Read from their shape only (no word of any language), so a Chinese or French session
 * is read as an English one: a plain word (`return`, `réseau`) is no specific, a name with a
 * shape of its own (`DEBUG_MODE`, `parseArgs`, `os.path`, `v1.2.3`, `250ms`) is.
 */
export interface FoundSpecific {
  readonly value: string;
  readonly kind: NeededKind;
}

/** Below this length a specific is too common to say anything (`id`, `foo`, `1.2`). */
export const MIN_SPECIFIC_LENGTH = 5;

// A JSON or C escape written out (`\n`, `\"`, `\u00e9`): text that was escaped once too often.
// Tokens are read from the text with those escapes as spaces, so `\nDEBUG_MODE` gives
// `DEBUG_MODE`, not `nDEBUG_MODE`.
const ESCAPE = /\\(?:u[0-9a-fA-F]{4}|[nrtbf"'\\])/g;

/** The text with written-out escapes as spaces (`\/` as `/`), of the same shape otherwise. */
export function unescapeForTokens(text: string): string {
  return text.includes('\\') ? text.replace(/\\\//g, '/').replace(ESCAPE, ' ') : text;
}

// Letters of scripts written without spaces between words (Chinese, Japanese, Thai): a name
// never runs into them, so they end a token as a space does.
const UNSPACED = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}`;
const NAME_CHAR = String.raw`(?:(?![${UNSPACED}])[\p{L}\p{N}_])`;
const NAME_CHAR_ALONE = new RegExp(String.raw`^(?:${NAME_CHAR}|\$)$`, 'u');

/**
 * Whether a character is one a name is made of (a letter, digit, underscore or `$`), so that a
 * value it runs into is part of a longer name: a letter of a script written without spaces (`的`
 * of `go mod init的時候`) is no such character, it ends a name as a space does.
 */
export function isNameChar(char: string | undefined): boolean {
  return char !== undefined && NAME_CHAR_ALONE.test(char);
}
const NAME_START = String.raw`(?:(?![${UNSPACED}])[\p{L}_])`;
const NAME_PART = `${NAME_START}${NAME_CHAR}*`;
// A name, possibly qualified (`os.path.join`, `std::vector`, `self->next`).
const NAME = new RegExp(String.raw`(?<!${NAME_CHAR}|[.])${NAME_PART}(?:(?:\.|::|->)${NAME_PART})*(?!${NAME_CHAR})`, 'gu');
// A number with a unit written after it (`250ms`, `16GB`, `2.5s`, `95%`).
const NUMBER_WITH_UNIT = new RegExp(String.raw`(?<!${NAME_CHAR}|[.])\d+(?:\.\d+)?(?:${NAME_START}{1,3}|%)(?!${NAME_CHAR})`, 'gu');
// Text between quotes of any kind a writer uses for a literal: "…", '…', `…`, “…”, 「…」, «…».
const QUOTED = /"([^"\n]{5,80})"|'([^'\n]{5,80})'|`([^`\n]{5,80})`|“([^”\n]{5,80})”|「([^」\n]{5,80})」|«([^»\n]{5,80})»/gu;

/**
 * A word with no shape of its own in any of the ways below (`return`, `Error`, `HTTP`): most names
 * of a session, told apart by one test rather than by all of them.
 */
const PLAIN_WORD = /^(?:[A-Z]?[a-z]+|[A-Z]+)$/;

/**
 * Whether a name has a shape of its own, which a plain word of any language lacks: an underscore
 * or a digit inside, a qualifier (`a.b`), or a lower-case letter followed by a capital (`parseArgs`).
 */
export function isSpecificName(name: string): boolean {
  // A language's own special names (`__init__`, `__name__`) are known before any session.
  if (name.length < MIN_SPECIFIC_LENGTH || PLAIN_WORD.test(name) || /^__\p{L}+__$/u.test(name)) return false;
  if (/[.:>]/.test(name)) return /\p{L}{2}/u.test(name);
  if (/^_[^_]/.test(name) || name.replace(/^_+|_+$/g, '').includes('_')) return true;
  if (/\p{L}/u.test(name) && /\p{N}/u.test(name)) return true;
  return /\p{Ll}\p{Lu}/u.test(name);
}

/** What kind of specific a name is: an error class (`TypeError`, `KeyError`) or an identifier. */
function nameKind(name: string): NeededKind {
  return /(?:Error|Exception)$/.test(name) ? 'error' : 'identifier';
}

/**
 * The specifics of a text, each once, in order of appearance: paths first claim their span (the
 * names inside a path are not specifics apart), then numbers with a unit, numbers, names, and
 * quoted strings (whose inside is also read for the rest).
 */
export function findSpecifics(raw: string): FoundSpecific[] {
  const text = unescapeForTokens(raw);
  const found = new Map<string, NeededKind>();
  const add = (value: string, kind: NeededKind): void => {
    if (value.length >= MIN_SPECIFIC_LENGTH && !found.has(value)) found.set(value, kind);
  };
  // Quotes are read in the text as written: an escape inside (`'s/\\r$//'`) is part of the literal.
  // A quote that holds one word is that word: a name or path found below, or a plain word.
  for (const match of raw.matchAll(QUOTED)) {
    const inner = match.slice(1).find((g) => g !== undefined) ?? '';
    // Space just inside a quote marks the gap between two quoted strings (`"a" -o "b"`), not a literal.
    if (inner !== inner.trim() || inner.includes('\\') || !/[\p{L}\p{N}]/u.test(inner)) continue;
    if (/\s/.test(inner)) add(inner, 'quoted');
  }
  const paths = findPathsInText(text);
  // `./run.sh` is `run.sh`: the prefix says where the shell stood, not which file.
  for (const path of paths) add(path.replace(/^\.\//, ''), 'path');
  const rest = paths.length === 0 ? text : maskAll(text, paths);
  for (const match of rest.matchAll(NUMBER_WITH_UNIT)) add(match[0], 'number');
  for (const number of findNumbersInText(rest)) add(number, 'number');
  for (const match of rest.matchAll(NAME)) if (isSpecificName(match[0]) && !isOptionName(rest, match.index)) add(match[0], nameKind(match[0]));
  return [...found].map(([value, kind]) => ({ value, kind }));
}

/**
 * Whether the name at `index` is written as a command-line option (`-mavx2`, `-D_GNU_SOURCE`,
 * `--max_count`: a dash or two at the start of a word): an option is the command's own
 * vocabulary, as a tool's parameter key is, and the agent knows it without the session.
 */
function isOptionName(text: string, index: number): boolean {
  let at = index;
  while (at > 0 && at > index - 2 && text[at - 1] === '-') at--;
  return at < index && (at === 0 || /\s/.test(text[at - 1] as string));
}

/** The text with every occurrence of the values blanked out (same length, so offsets hold). */
function maskAll(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of [...new Set(values)].sort((a, b) => b.length - a.length)) out = out.split(value).join(' '.repeat(value.length));
  return out;
}
