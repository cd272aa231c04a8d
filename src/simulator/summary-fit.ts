import { SPECIFIC_KINDS, type SpecificKind } from './specific-kinds.js';

/**
 * The parameters of the simulated summarizer's model of loss and length, fitted on real
 * compactions by `ctxbench calibrate` (src/calibration/fit.ts; docs/simulator.md). Two rules:
 *
 * - *What a summary keeps.* A specific (specific-kinds.ts) of the replaced history is repeated
 *   verbatim with a probability that depends on where it was named — in the user's words, in the
 *   agent's, in a tool call's arguments, or only in tool output — and on how often it recurs.
 * - *How long a summary is.* Its tokens grow with the history it replaces, as a power of the
 *   history's characters.
 */

/** Where a specific is named, most prominent first; a specific named in several places takes the first. */
export const MENTION_PLACES = ['user', 'assistant', 'call', 'tool'] as const;
export type MentionPlace = (typeof MENTION_PLACES)[number];

/** Lower bounds of the recurrence classes: named once, 2–3 times, 4–9 times, 10 times or more. */
export const RECURRENCE_FROM = [1, 2, 4, 10] as const;

/** The recurrence class of a specific named `mentions` times. */
export function recurrenceClass(mentions: number): number {
  let index = 0;
  RECURRENCE_FROM.forEach((from, i) => {
    if (mentions >= from) index = i;
  });
  return index;
}

export interface SummarizerFit {
  /** Per kind and place, per recurrence class: the share of such specifics a real summary repeats verbatim. */
  keep: Record<SpecificKind, Record<MentionPlace, readonly number[]>>;
  /** A summary's tokens ≈ `scale` × (characters of the replaced history / 1000) ^ `exponent`. */
  length: { scale: number; exponent: number };
}

/** The summary length the fit predicts for a history of `historyChars` characters. */
export function predictedLength(fit: SummarizerFit, historyChars: number): number {
  return fit.length.scale * Math.max(1, historyChars / 1000) ** fit.length.exponent;
}

/** A fit rounded to the digits it is printed and kept with. */
export function roundFit(fit: SummarizerFit): SummarizerFit {
  const keep = {} as SummarizerFit['keep'];
  for (const kind of SPECIFIC_KINDS) {
    keep[kind] = {} as Record<MentionPlace, readonly number[]>;
    for (const place of MENTION_PLACES) keep[kind][place] = fit.keep[kind][place].map((p) => Math.round(p * 10_000) / 10_000);
  }
  return { keep, length: { scale: Math.round(fit.length.scale), exponent: Math.round(fit.length.exponent * 1000) / 1000 } };
}

/**
 * The fit on every real compaction of fixtures/real: eleven, from three authors (mclaude 2,
 * swordintel 8, vsla 1; all Claude Code, under claude-code-compactions/ and claude-code-long/), as
 * `ctxbench calibrate --json` prints it under `fitted`. A test holds it equal to a fresh fit on every
 * log of fixtures/real, so a compaction added there fails it until this is refitted.
 */
export const FITTED: SummarizerFit = {
  keep: {
    paths: {
      user: [0.217, 0.1106, 0.4279, 0.3564],
      assistant: [0.1158, 0.2408, 0.2463, 0.357],
      call: [0.0364, 0.0742, 0.2438, 0.4534],
      tool: [0, 0, 0.0104, 0.0628],
    },
    numbers: {
      user: [0.1207, 0.2173, 0.2644, 0.7056],
      assistant: [0.1387, 0.1018, 0.1916, 0.373],
      call: [0.0064, 0.0223, 0.036, 0.1264],
      tool: [0.0012, 0.0006, 0.0037, 0.0284],
    },
    identifiers: {
      user: [0.24, 0.22, 0.0991, 0.4542],
      assistant: [0.136, 0.2749, 0.2408, 0.4613],
      call: [0.0027, 0.0159, 0.1165, 0.2435],
      tool: [0.0012, 0.0034, 0.0055, 0.0001],
    },
  },
  length: { scale: 1096, exponent: 0.137 },
};
