import { runTextMemo, runWeakMap } from '../memo.js';
import { factsOf } from './text-facts.js';
import { callArgumentText, findSpecifics, SPECIFIC_KINDS, type SpecificKind } from './specific-kinds.js';
import type { ContextMessage, ToolCall } from '../transcript/types.js';
import { FITTED, MENTION_PLACES, predictedLength, recurrenceClass, type SummarizerFit } from './summary-fit.js';

/**
 * The model of loss of the simulated summarizer: which specifics (simulator/specific-kinds.ts)
 * a summary repeats verbatim, and how the rest is paraphrased.
 *
 * Measured on real compactions (summary-fit.ts), a specific survives with a probability set by
 * where it was named (the user's words, the agent's, a tool call's arguments, or tool output only)
 * and how often it recurs: a path the agent passed to ten tool calls is kept far more often than one
 * a directory listing printed once. A summary keeps the expected number of each kind — the sum of
 * those probabilities over the history's specifics — scaled down when it is shorter than the length
 * the fit predicts for that history; the kept ones are the likeliest, ties going to the most
 * prominent (weighted mentions, later ones heavier). Everything else is paraphrased: a path becomes
 * its file name, an identifier its words (`countTokens` → `count tokens`), a number is dropped.
 */

/** Weight of one mention in a tie, by where it is: the agent's and the user's own words count most. */
const WEIGHT = { user: 3, assistant: 2, call: 2, tool: 0.25 } as const;
/** How much a mention at the end of the history outweighs one at its start. */
const RECENCY = 1;

export type ChosenSpecifics = Record<SpecificKind, Set<string>>;

/** How a history names one specific: its most prominent place, how often, and its weight in a tie. */
interface Mentions {
  /** Index into MENTION_PLACES. */
  place: number;
  count: number;
  score: number;
}

/** Every specific a history names, per kind, with its mentions; and the history's characters (the length model's input). */
export interface HistoryMentions {
  byKind: Record<SpecificKind, Map<string, Mentions>>;
  chars: number;
}

/** The mentions of every specific in a history (system messages are the prompt, not the history). */
export function mentionsOf(messages: readonly ContextMessage[]): HistoryMentions {
  const byKind: Record<SpecificKind, Map<string, Mentions>> = { paths: new Map(), numbers: new Map(), identifiers: new Map() };
  let chars = 0;
  messages.forEach((message, index) => {
    const late = 1 + (RECENCY * index) / Math.max(1, messages.length - 1);
    const named = namedIn(message);
    chars += named.chars;
    for (const { specifics, place } of named.places) {
      const mention = WEIGHT[MENTION_PLACES[place] ?? 'tool'] * late;
      for (const kind of SPECIFIC_KINDS) {
        const found = byKind[kind];
        for (const value of specifics[kind]) {
          const known = found.get(value);
          if (known === undefined) found.set(value, { place, count: 1, score: mention });
          else {
            known.place = Math.min(known.place, place);
            known.count += 1;
            known.score += mention;
          }
        }
      }
    }
  });
  return { byKind, chars };
}

/** The share of specifics like this one (its place and recurrence) that the fit says a summary keeps. */
function keepShare(fit: SummarizerFit, kind: SpecificKind, mentions: Mentions): number {
  return fit.keep[kind][MENTION_PLACES[mentions.place] ?? 'tool'][recurrenceClass(mentions.count)] ?? 0;
}

/** The specifics a summary of `budgetTokens` keeps verbatim. */
export function chooseSpecifics(messages: readonly ContextMessage[], budgetTokens: number, fit: SummarizerFit = FITTED): ChosenSpecifics {
  return chooseAmong(mentionsOf(messages), budgetTokens, fit);
}

/** `chooseSpecifics` on a history's mentions. */
export function chooseAmong({ byKind, chars }: HistoryMentions, budgetTokens: number, fit: SummarizerFit): ChosenSpecifics {
  // A summary shorter than a real one of this history would be names fewer, in proportion.
  const scale = Math.min(1, budgetTokens / Math.max(1, predictedLength(fit, chars)));
  const chosen: ChosenSpecifics = { paths: new Set(), numbers: new Set(), identifiers: new Set() };
  for (const kind of SPECIFIC_KINDS) {
    const ranked = [...byKind[kind]].reverse().map(([value, mentions]) => ({ value, mentions, share: keepShare(fit, kind, mentions) }));
    const expected = ranked.reduce((sum, r) => sum + r.share, 0);
    // The likeliest first; ties to the most prominent, then to the value first seen later (stable sort of the reversed order).
    ranked.sort((a, b) => b.share - a.share || b.mentions.score - a.mentions.score);
    for (const { value } of ranked.slice(0, Math.round(expected * scale))) chosen[kind].add(value);
  }
  return chosen;
}

/** The specifics of a text, per kind, in order. */
export type Specifics = Record<SpecificKind, readonly string[]>;

/** Where a message names specifics (its text, each tool call's arguments), with the place (index into MENTION_PLACES). */
interface Named {
  specifics: Specifics;
  place: number;
}

/** What one message names, and its characters (text and tool-call arguments). */
interface NamedInMessage {
  places: readonly Named[];
  chars: number;
}

/**
 * The specifics each message names, found once: per message object, else per text (a message
 * re-sent at another position is another parsed copy of the same text), else line by line
 * (text-facts.ts); per tool call object. Only the recency of each mention changes from one summary
 * request to the next. Messages and tool calls are never changed once built.
 */
const namedOf = runWeakMap<ContextMessage, NamedInMessage>();
const specificsOfCall = runWeakMap<ToolCall, { specifics: Specifics; chars: number }>();

const PLACE_OF_ROLE = { user: 0, assistant: 1, tool: 3 } as const;
const CALL_PLACE = 2;

function namedIn(message: ContextMessage): NamedInMessage {
  const known = namedOf.get(message);
  if (known !== undefined) return known;
  const places: Named[] = [];
  let chars = 0;
  if (message.role !== 'system') {
    places.push({ specifics: specificsOf(message.text), place: PLACE_OF_ROLE[message.role] });
    chars += message.text.length;
  }
  for (const call of message.toolCalls ?? []) {
    let ofCall = specificsOfCall.get(call);
    if (ofCall === undefined) {
      const text = callArgumentText(call);
      specificsOfCall.set(call, (ofCall = { specifics: specificsOf(text), chars: text.length }));
    }
    places.push({ specifics: ofCall.specifics, place: CALL_PLACE });
    chars += ofCall.chars;
  }
  const named = { places, chars };
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
const paraphrases = runTextMemo<{ last?: Paraphrase }>('summary-paraphrases');

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
