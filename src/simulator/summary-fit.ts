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
 * The fit on the ten real compactions of fixtures/real (claude-code-long/ one, claude-code-compactions/
 * nine; three authors), as `ctxbench calibrate --json` prints it under `fitted`; a test holds it equal to a
 * fresh fit on those logs.
 */
export const FITTED: SummarizerFit = {
  keep: {
    paths: {
      user: [0.3257, 0.1474, 0.5176, 0.3568],
      assistant: [0.3006, 0.2753, 0.306, 0.4202],
      call: [0.081, 0.0693, 0.294, 0.5068],
      tool: [0, 0, 0.0108, 0.0671],
    },
    numbers: {
      user: [0.1558, 0.3338, 0.5561, 0.6671],
      assistant: [0.1718, 0.1162, 0.1682, 0.4287],
      call: [0.0079, 0.0264, 0.0242, 0.089],
      tool: [0.0013, 0, 0.0022, 0.0304],
    },
    identifiers: {
      user: [0.2568, 0.2221, 0.1241, 0.4485],
      assistant: [0.2071, 0.3206, 0.3239, 0.4983],
      call: [0.0168, 0.0398, 0.1415, 0.2731],
      tool: [0.0012, 0.0036, 0.0057, 0.0001],
    },
  },
  length: { scale: 1096, exponent: 0.137 },
};
