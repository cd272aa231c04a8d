import { type TextMemo, createOwnedTextMemo, runWeakMap } from '../memo.js';
import { SPECIFIC_KINDS } from './specific-kinds.js';
import type { ContextMessage } from '../transcript/types.js';
import { gatherMaterial, type MaterialItem, type MaterialKind } from './summary-material.js';
import { chooseAmong, mentionsOf, paraphraseOf, type ChosenSpecifics, type Paraphrase } from './summary-specifics.js';
import { FITTED, predictedLength, type SummarizerFit } from './summary-fit.js';
import { detectStyle, sectionsOf, type SummarySection, type SummaryStyle } from './summary-style.js';

export interface SummaryOptions {
  /** The summary never exceeds this many tokens (as `count` measures them). */
  budgetTokens: number;
  /** Tokens of a text (never negative; a pure function of the text, so lines are counted once per function). */
  count: (text: string) => number;
  /** The summary prompt (the request's instruction); it decides the style (summary-style.ts). */
  prompt?: string;
  /**
   * A lower bound of `count` that costs no tokenizing (token-floor.ts): a line whose bound does not
   * fit in what is left of its section is passed over uncounted, as counting it would pass it over.
   */
  atLeast?: (text: string) => number;
  /** The model of loss and length (summary-fit.ts); the fit on real compactions unless given. */
  fit?: SummarizerFit;
}

/** Below this budget a summary is plain lines, whatever style the prompt asks for. */
const MIN_SECTIONED_TOKENS = 120;

/** One line of the summary, with the section it belongs to. */
interface Line {
  section: number;
  text: string;
  isData: boolean;
}

/**
 * A deterministic abstractive-looking summary, calibrated on real ones (README, "The simulated
 * model"): it follows the prompt's style, restates the user's requests and the agent's statements
 * in short sentences rather than copying lines, and keeps file paths, numbers and identifiers
 * verbatim only at the rate real summaries do (summary-specifics.ts); the rest is paraphrased.
 * It never exceeds `budgetTokens`, and the same input always gives the same text.
 */
export function summarizeMessages(messages: readonly ContextMessage[], options: SummaryOptions): string {
  const prompt = options.prompt ?? systemText(messages);
  const fit = options.fit ?? FITTED;
  const mentions = mentionsOf(messages);
  // A model writes the summary a history of this size gets, within the budget it is given.
  const budgetTokens = Math.min(options.budgetTokens, Math.round(predictedLength(fit, mentions.chars)));
  // Headings do not pay for themselves in a few dozen tokens: a model writes plain lines.
  const style = budgetTokens < MIN_SECTIONED_TOKENS ? 'map' : detectStyle(prompt);
  const chosen = chooseAmong(mentions, budgetTokens, fit);
  const material = gatherMaterial(messages);
  const lines = composeLines(style, material, chosen, { ...options, budgetTokens });
  let summary = render(style, lines);
  // Line costs are an estimate of the joined text; drop the last prose lines until it fits.
  while (lines.length > 0 && options.count(summary) > budgetTokens) {
    const drop = lines.map((line) => line.isData).lastIndexOf(false);
    lines.splice(drop >= 0 ? drop : lines.length - 1, 1);
    summary = render(style, lines);
  }
  return summary;
}

/** A request without a separate instruction carries the prompt as a system message. */
function systemText(messages: readonly ContextMessage[]): string {
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => m.text)
    .join('\n');
}

/**
 * The count of each candidate line, per count function: successive summaries of one history weigh
 * the same lines again, and the tokenizer's own cache, emptied whenever long request texts fill it,
 * had them tokenized again (61,000 tokenizations of 34,000 distinct lines on the 1000-step
 * synthetic run). Bounded by the characters of its lines.
 */
const lineCounts = runWeakMap<(text: string) => number, TextMemo<number>>();

function lineCounter(count: (text: string) => number): TextMemo<number> {
  let counts = lineCounts.get(count);
  if (counts === undefined) lineCounts.set(count, (counts = createOwnedTextMemo<number>('summary-line-counts')));
  return counts;
}

function composeLines(style: SummaryStyle, material: readonly MaterialItem[], chosen: ChosenSpecifics, options: SummaryOptions): Line[] {
  const sections = sectionsOf(style);
  const counts = lineCounter(options.count);
  const byKind = new Map<MaterialKind, MaterialItem[]>();
  for (const item of material) {
    const ofKind = byKind.get(item.kind);
    if (ofKind === undefined) byKind.set(item.kind, [item]);
    else ofKind.push(item);
  }
  const lines: Line[] = [];
  const seen = new Set<string>();
  let carry = 0;
  // Per prose section, what its pass did not take: lines passed over for their cost, and the rest of its material.
  const untaken: Iterable<Candidate>[] = [];
  sections.forEach((section, index) => {
    let left = carry + section.share * options.budgetTokens - (section.title === undefined ? 0 : options.count(section.title) + 2);
    if (section.isData === true) {
      for (const line of dataLines(chosen).map(candidate)) {
        if (seen.has(line.key)) continue;
        seen.add(line.key);
        lines.push({ section: index, text: line.text, isData: true });
        left -= counts.get(line.text, options.count) + 2;
      }
      carry = Math.max(0, left);
      return;
    }
    const passed: Candidate[] = [];
    const prose = proseOf(section, byKind, chosen);
    for (let next = prose.next(); next.done !== true; next = prose.next()) {
      const line = next.value;
      // A line costs at least 2 (its count and the line break): once less is left, no prose line
      // of this section fits, and the rest need not be paraphrased and counted.
      if (left < 2) {
        passed.push(line);
        break;
      }
      if (seen.has(line.key)) continue;
      // A line whose floor does not fit is passed over uncounted, as its count would pass it over.
      if (options.atLeast !== undefined && floorOf(line, options.atLeast) + 2 > left) {
        passed.push(line);
        continue;
      }
      const cost = counts.get(line.text, options.count) + 2;
      if (cost > left) {
        passed.push(line);
        continue;
      }
      seen.add(line.key);
      lines.push({ section: index, text: line.text, isData: false });
      left -= cost;
    }
    untaken[index] = followedBy(passed, prose);
    carry = Math.max(0, left);
  });
  // What the sections left unspent (a section short of material passes its share on, and the last
  // one has no section after it) goes to more of their material, in their order, as a model writes
  // on until it has said what it had to: each section's untaken lines, in the order first met.
  untaken.forEach((rest, index) => {
    for (const line of rest) {
      if (carry < 2) break;
      if (seen.has(line.key)) continue;
      if (options.atLeast !== undefined && floorOf(line, options.atLeast) + 2 > carry) continue;
      const cost = counts.get(line.text, options.count) + 2;
      if (cost > carry) continue;
      seen.add(line.key);
      lines.push({ section: index, text: line.text, isData: false });
      carry -= cost;
    }
  });
  return lines;
}

/** The lines passed over, then what is left of the generator they came from. */
function* followedBy(passed: readonly Candidate[], rest: Iterator<Candidate>): Generator<Candidate> {
  yield* passed;
  for (let next = rest.next(); next.done !== true; next = rest.next()) yield next.value;
}

/** A candidate line and its identity for de-duplication (case does not matter); its floor, for the function that found it. */
interface Candidate {
  text: string;
  key: string;
  floor?: { of: (text: string) => number; tokens: number };
}

function floorOf(line: Candidate, atLeast: (text: string) => number): number {
  if (line.floor?.of !== atLeast) line.floor = { of: atLeast, tokens: atLeast(line.text) };
  return line.floor.tokens;
}

function candidate(text: string): Candidate {
  return { text, key: text.toLowerCase() };
}

/** The candidate line of each paraphrase, null when it has no word left; paraphrases recur across requests (summary-specifics.ts). */
const candidates = runWeakMap<Paraphrase, Candidate | null>();

/** A section's candidate sentences, paraphrased, in its order of preference (each paraphrased when reached). */
function* proseOf(section: SummarySection, byKind: ReadonlyMap<MaterialKind, MaterialItem[]>, chosen: ChosenSpecifics): Generator<Candidate> {
  const items = section.kinds.flatMap((kind) => {
    const ofKind = byKind.get(kind) ?? [];
    return section.oldestFirst === true ? ofKind : [...ofKind].reverse();
  });
  for (const item of items) {
    const paraphrase = paraphraseOf(item.text, chosen);
    let line = candidates.get(paraphrase);
    if (line === undefined) candidates.set(paraphrase, (line = /\p{L}{3,}/u.test(paraphrase.text) ? candidate(paraphrase.text) : null));
    if (line !== null) yield line;
  }
}

/** The specifics kept verbatim, listed by kind. */
function dataLines(chosen: ChosenSpecifics): string[] {
  const label = { paths: 'Files', numbers: 'Numbers', identifiers: 'Names' } as const;
  return SPECIFIC_KINDS.filter((kind) => chosen[kind].size > 0).map((kind) => `${label[kind]}: ${[...chosen[kind]].join(', ')}`);
}

function render(style: SummaryStyle, lines: readonly Line[]): string {
  const sections = sectionsOf(style);
  const blocks: string[] = [];
  sections.forEach((section, index) => {
    const own = lines.filter((line) => line.section === index).map((line) => (section.title === undefined ? line.text : `- ${line.text}`));
    if (own.length === 0) return;
    blocks.push(section.title === undefined ? own.join('\n') : `${section.title}:\n${own.join('\n')}`);
  });
  return blocks.join('\n\n');
}
