import { createTextMemo } from '../../memo.js';
import { factsOf } from './text-facts.js';
import { callArgumentText, findSpecifics, SPECIFIC_KINDS, type SpecificKind } from './specific-kinds.js';
import type { ContextMessage, ToolCall } from '../../transcript/types.js';

/**
 * The model of loss of the simulated summarizer: which specifics (providers/simulated/specific-kinds.ts)
 * a summary repeats verbatim, and how the rest is paraphrased.
 *
 * Measured on real compactions, a summary names a number of specifics that grows with its own
 * length, not with the history's: a model that writes 2,000 tokens names a handful of files, a
 * few identifiers and almost no numbers, whether the history held 50 paths or 300. So a summary
 * of B tokens keeps about B / `TOKENS_PER_SPECIFIC[kind]` of each kind (never more than the
 * history has), the most prominent ones: named in the user's and the agent's own words and in
 * tool-call arguments rather than only in tool output, named often, and named late. Everything
 * else is paraphrased: a path becomes its file name, an identifier its words (`countTokens` →
 * `count tokens`), a number is dropped.
 */

/** Summary tokens per verbatim specific of each kind (fitted on a real Claude Code compaction; see README). */
const TOKENS_PER_SPECIFIC: Record<SpecificKind, number> = { paths: 360, numbers: 720, identifiers: 310 };

/** Weight of one mention, by where it is: the agent's and the user's own words count most. */
const WEIGHT = { user: 3, assistant: 2, call: 2, tool: 0.25, system: 0 } as const;
/** How much a mention at the end of the history outweighs one at its start. */
const RECENCY = 1;

export type ChosenSpecifics = Record<SpecificKind, Set<string>>;

/** The specifics a summary of `budgetTokens` keeps verbatim. */
export function chooseSpecifics(messages: readonly ContextMessage[], budgetTokens: number): ChosenSpecifics {
  const scores: Record<SpecificKind, Map<string, number>> = { paths: new Map(), numbers: new Map(), identifiers: new Map() };
  messages.forEach((message, index) => {
    const late = 1 + (RECENCY * index) / Math.max(1, messages.length - 1);
    for (const { specifics, weight } of namedIn(message)) {
      const mention = weight * late;
      for (const kind of SPECIFIC_KINDS) {
        const scored = scores[kind];
        for (const value of specifics[kind]) scored.set(value, (scored.get(value) ?? 0) + mention);
      }
    }
  });
  const chosen: ChosenSpecifics = { paths: new Set(), numbers: new Set(), identifiers: new Set() };
  for (const kind of SPECIFIC_KINDS) {
    const keep = Math.round(budgetTokens / TOKENS_PER_SPECIFIC[kind]);
    // Ties go to the value first seen later (Map keeps insertion order; the sort is stable).
    const ranked = [...scores[kind]].reverse().sort((a, b) => b[1] - a[1]);
    for (const [value] of ranked.slice(0, keep)) chosen[kind].add(value);
  }
  return chosen;
}

/** The specifics of a text, per kind, in order. */
export type Specifics = Record<SpecificKind, readonly string[]>;

/** Where a message names specifics (its text, each tool call's arguments), with the weight of that place. */
interface Named {
  specifics: Specifics;
  weight: number;
}

/**
 * The specifics each message names, found once: per message object, else per text (a message
 * re-sent at another position is another parsed copy of the same text), else line by line
 * (text-facts.ts); per tool call object. Only the recency of each mention changes from one summary
 * request to the next. Messages and tool calls are never changed once built.
 */
const namedOf = new WeakMap<ContextMessage, readonly Named[]>();
const specificsOfCall = new WeakMap<ToolCall, Specifics>();

function namedIn(message: ContextMessage): readonly Named[] {
  const known = namedOf.get(message);
  if (known !== undefined) return known;
  const named: Named[] = [];
  if (WEIGHT[message.role] !== 0) named.push({ specifics: specificsOf(message.text), weight: WEIGHT[message.role] });
  for (const call of message.toolCalls ?? []) {
    let specifics = specificsOfCall.get(call);
    if (specifics === undefined) specificsOfCall.set(call, (specifics = specificsOf(callArgumentText(call))));
    named.push({ specifics, weight: WEIGHT.call });
  }
  namedOf.set(message, named);
  return named;
}

/**
 * The specifics of a text, from those of its lines. No specific spans a line break (no pattern
 * matches one, and a break stands where they look for a boundary), so a text's specifics are its
 * lines' in order.
 */
function specificsOf(text: string): Specifics {
  const facts = factsOf(text);
  if (facts.specifics !== undefined) return facts.specifics;
  const specifics = { paths: [] as string[], numbers: [] as string[], identifiers: [] as string[] };
  for (const line of facts.lines) {
    line.specifics ??= specificsOfLine(line.text);
    if (line.specifics === NONE) continue;
    for (const kind of SPECIFIC_KINDS) for (const value of line.specifics[kind]) specifics[kind].push(value);
  }
  facts.specifics = specifics;
  return specifics;
}

/** The specifics of a line that names none (most lines), shared. */
const NONE: Specifics = { paths: [], numbers: [], identifiers: [] };

function specificsOfLine(line: string): Specifics {
  const specifics = { paths: findValues(line, 'paths'), numbers: findValues(line, 'numbers'), identifiers: findValues(line, 'identifiers') };
  return SPECIFIC_KINDS.some((kind) => specifics[kind].length > 0) ? specifics : NONE;
}

function findValues(text: string, kind: SpecificKind): string[] {
  return findSpecifics(text, kind).map(({ value }) => value);
}

/** A file name for a path (`src/a/b.ts` → `b.ts`), with its extension's dot kept. */
function fileNameOf(path: string): string {
  const parts = path.split('/').filter((part) => part !== '');
  return parts[parts.length - 1] ?? 'the file';
}

/** An identifier as words: `countTokens` → `count tokens`, `read_file` → `read file`. */
function wordsOfIdentifier(identifier: string): string {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .toLowerCase()
    .trim();
}

/**
 * Paraphrases a text: every specific not chosen is rewritten (paths to file names, identifiers
 * to words, numbers dropped), so that only the chosen ones survive verbatim.
 */
export function paraphraseSpecifics(text: string, chosen: ChosenSpecifics): string {
  return paraphraseOf(text, chosen).text;
}

/** A text paraphrased under one choice of specifics, with every question it asked of the choice. */
export interface Paraphrase {
  readonly text: string;
  readonly asked: readonly Asked[];
}

/** Whether the choice keeps `value` verbatim. */
interface Asked {
  kind: SpecificKind;
  value: string;
  kept: boolean;
}

/**
 * The latest paraphrase of each text. A paraphrase is a function of the text and of the answers to
 * the questions it asks of the choice alone (each question follows from the text and the answers
 * before it), so when a later choice answers them the same, the paraphrase is the same object:
 * successive summaries of one history restate the same sentences under nearly the same choice, and
 * a sentence that names no specific asks nothing.
 */
const paraphrases = createTextMemo<{ last?: Paraphrase }>(8_000_000);

/** `paraphraseSpecifics`, as the object kept for the text (the same object while the answers stay the same). */
export function paraphraseOf(text: string, chosen: ChosenSpecifics): Paraphrase {
  const known = paraphrases.get(text, () => ({}));
  const { last } = known;
  if (last?.asked.every(({ kind, value, kept }) => chosen[kind].has(value) === kept) === true) return last;
  const asked: Asked[] = [];
  const keeps = (kind: SpecificKind, value: string): boolean => {
    const kept = chosen[kind].has(value);
    asked.push({ kind, value, kept });
    return kept;
  };
  let out = replaceKind(text, 'paths', keeps, fileNameOf);
  out = replaceKind(out, 'identifiers', keeps, wordsOfIdentifier);
  out = replaceKind(out, 'numbers', keeps, () => '');
  out = out
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/\s+([)\],.;:])/g, '$1')
    .replace(/\(\s*\)|\[\s*\]/g, '')
    .trim();
  known.last = { text: out, asked };
  return known.last;
}

function replaceKind(text: string, kind: SpecificKind, keeps: (kind: SpecificKind, value: string) => boolean, rewrite: (value: string) => string): string {
  const found = findSpecifics(text, kind);
  let out = '';
  let from = 0;
  for (const { value, at } of found) {
    out += text.slice(from, at) + (keeps(kind, value) ? value : rewrite(value));
    from = at + value.length;
  }
  return out + text.slice(from);
}
