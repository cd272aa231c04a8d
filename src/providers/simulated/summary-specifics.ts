import { callArgumentText, findSpecifics, SPECIFIC_KINDS, type SpecificKind } from './specific-kinds.js';
import type { ContextMessage } from '../../transcript/types.js';

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
    const parts: { text: string; weight: number }[] = [
      { text: message.text, weight: WEIGHT[message.role] },
      ...(message.toolCalls ?? []).map((call) => ({ text: callArgumentText(call), weight: WEIGHT.call })),
    ];
    for (const { text, weight } of parts) {
      if (weight === 0) continue;
      for (const kind of SPECIFIC_KINDS) {
        for (const { value } of findSpecifics(text, kind)) scores[kind].set(value, (scores[kind].get(value) ?? 0) + weight * late);
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
  let out = replaceKind(text, 'paths', chosen, fileNameOf);
  out = replaceKind(out, 'identifiers', chosen, wordsOfIdentifier);
  out = replaceKind(out, 'numbers', chosen, () => '');
  return out
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/\s+([)\],.;:])/g, '$1')
    .replace(/\(\s*\)|\[\s*\]/g, '')
    .trim();
}

function replaceKind(text: string, kind: SpecificKind, chosen: ChosenSpecifics, rewrite: (value: string) => string): string {
  const found = findSpecifics(text, kind);
  let out = '';
  let from = 0;
  for (const { value, at } of found) {
    out += text.slice(from, at) + (chosen[kind].has(value) ? value : rewrite(value));
    from = at + value.length;
  }
  return out + text.slice(from);
}
