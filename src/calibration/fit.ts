import { fitTheilSen } from '../stats.js';
import { extractSpecifics, SPECIFIC_KINDS, type SpecificKind } from '../simulator/specific-kinds.js';
import { MENTION_PLACES, RECURRENCE_FROM, recurrenceClass, type MentionPlace, type SummarizerFit } from '../simulator/summary-fit.js';
import { mentionsOf } from '../simulator/summary-specifics.js';
import type { ContextMessage } from '../transcript/types.js';

/** One real compaction as the fit reads it: the history it replaced and the summary that replaced it. */
export interface CompactionSample {
  history: readonly ContextMessage[];
  summary: string;
  summaryTokens: number;
  /** Whose log it is (load.ts): each author weighs the same in the length's scale. */
  author?: string;
}

/**
 * Pseudo-count of the shrinkage: a class with few specifics is pulled toward the share of its
 * place (and a place with few toward its kind's), so that one kept path in a class of three does
 * not become a rule that keeps a third of them.
 */
const PRIOR_WEIGHT = 4;

interface Tally {
  kept: number;
  seen: number;
}

function share(t: Tally, prior: number): number {
  return (t.kept + PRIOR_WEIGHT * prior) / (t.seen + PRIOR_WEIGHT);
}

/**
 * Fits the summarizer's rules on real compactions (summary-fit.ts): per kind, place and recurrence
 * class, the pooled share of the history's specifics that the real summaries repeat verbatim,
 * shrunk toward the place's and the kind's; and the summary's length as a power of the history's
 * characters (a Theil–Sen line in log–log, robust to one long summary).
 */
export function fitSummarizer(samples: readonly CompactionSample[]): SummarizerFit {
  const classes = RECURRENCE_FROM.length;
  const tallies = {} as Record<SpecificKind, Record<MentionPlace, Tally[]>>;
  for (const kind of SPECIFIC_KINDS) {
    tallies[kind] = {} as Record<MentionPlace, Tally[]>;
    for (const place of MENTION_PLACES) tallies[kind][place] = Array.from({ length: classes }, () => ({ kept: 0, seen: 0 }));
  }
  const xs: number[] = [];
  const ys: number[] = [];
  const authors: string[] = [];
  for (const sample of samples) {
    authors.push(sample.author ?? '');
    const { byKind, chars } = mentionsOf(sample.history);
    const kept = extractSpecifics(sample.summary);
    for (const kind of SPECIFIC_KINDS) {
      for (const [value, mentions] of byKind[kind]) {
        const tally = tallies[kind][MENTION_PLACES[mentions.place] ?? 'tool'][recurrenceClass(mentions.count)] as Tally;
        tally.seen += 1;
        if (kept[kind].has(value)) tally.kept += 1;
      }
    }
    xs.push(Math.log(Math.max(1, chars / 1000)));
    ys.push(Math.log(Math.max(1, sample.summaryTokens)));
  }
  const keep = {} as SummarizerFit['keep'];
  for (const kind of SPECIFIC_KINDS) {
    const ofKind = MENTION_PLACES.flatMap((place) => tallies[kind][place]);
    const kindShare = share(sum(ofKind), 0);
    keep[kind] = {} as Record<MentionPlace, readonly number[]>;
    for (const place of MENTION_PLACES) {
      const placeShare = share(sum(tallies[kind][place]), kindShare);
      keep[kind][place] = tallies[kind][place].map((t) => share(t, placeShare));
    }
  }
  // One history size (or one sample) gives no slope: the length is then the typical summary's.
  const slope = fitTheilSen(xs, ys)?.slope ?? 0;
  return { keep, length: { scale: lengthScale(xs, ys, authors, slope), exponent: slope } };
}

/**
 * The scale that makes the predicted lengths add up to the real ones (a line through the logs
 * runs below the long summaries, and the size a strategy is charged for is a sum), per author,
 * then averaged over authors: how long a summary is depends on the agent and its settings more
 * than on the history (on fixtures/real one author's 8 summaries run 1.5–2.2k tokens for 48–100k
 * histories, another's 1.2k and 4.3k), so the author with the most compactions must not set it
 * for the authors nobody here has seen. Pooled over samples, it read 0.70× the real size on 16
 * held-out compactions.
 */
function lengthScale(xs: readonly number[], ys: readonly number[], authors: readonly string[], slope: number): number {
  const byAuthor = new Map<string, { real: number; predicted: number }>();
  xs.forEach((x, i) => {
    const key = authors[i] ?? '';
    const tally = byAuthor.get(key) ?? { real: 0, predicted: 0 };
    tally.real += Math.exp(ys[i] as number);
    tally.predicted += Math.exp(slope * x);
    byAuthor.set(key, tally);
  });
  const ratios = [...byAuthor.values()].filter((t) => t.predicted > 0).map((t) => t.real / t.predicted);
  return ratios.length === 0 ? 1000 : ratios.reduce((a, b) => a + b, 0) / ratios.length;
}

function sum(tallies: readonly Tally[]): Tally {
  return tallies.reduce((a, t) => ({ kept: a.kept + t.kept, seen: a.seen + t.seen }), { kept: 0, seen: 0 });
}
