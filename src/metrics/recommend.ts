import type { SummaryRow } from './types.js';
import type { AggregateRule, Candidate, Objective, Recommendation, RecommendationConstraints, Verdict } from './recommendation.js';
import {
  describeConstraints,
  describeScenarioFigures,
  formatObjective,
  OBJECTIVE_WORDS,
  percentText,
  referenceWords,
  summarizeExclusions,
} from './recommend-words.js';

/** What the user asks the recommendation for: the objective, the constraints and the aggregation rule. */
export interface DecisionOptions {
  objective: Objective;
  constraints: RecommendationConstraints;
  aggregate: AggregateRule;
}

/**
 * The default decision (issue 27): the cheapest in dollars, net of prompt cache, that does not
 * crash where another strategy completes and keeps answer recall within 5 points of `full`; over several
 * scenarios, a strategy must pass on every one (worst case).
 */
export const DEFAULT_DECISION: DecisionOptions = {
  objective: 'cost',
  constraints: { minRecall: { kind: 'relative', points: 0.05 }, maxCrashes: 0 },
  aggregate: 'worst-case',
};

/** One candidate's result on one scenario: its summary row (and, over several logs, each log's). */
export interface DecisionRow {
  /** The unit's label: what identifies the candidate across scenarios (`full` is the reference). */
  label: string;
  strategy: string;
  settings: Record<string, unknown>;
  summary: SummaryRow;
  /** The per-log rows of a scenario of several logs, in replay order (the same for every label). */
  logs?: readonly SummaryRow[];
}

/** The label of the reference every relative constraint is measured against. */
export const REFERENCE = 'full';

/** Figures below this are rounding, not a difference (fractions: 0.05 % of recall or of cost). */
const EPSILON = 5e-4;

/** A candidate's figures on one scenario, against that scenario's `full`. */
interface Figures {
  scenario: string;
  row: DecisionRow;
  crashes: number;
  /** Crashes (units or logs) where some candidate completed; for `full` itself, its own. */
  excess: number;
  units: number;
  /** Of `excess`, the units (logs) `full` crashed on too. */
  excessWhereFullCrashed: number;
  recall: number | null;
  fullRecall: number | null;
  /** `full` crashed before its first ask: the reference is its whole history's recall (1). */
  fullAnsweredNothing: boolean;
  /** The objective's change against `full`, paired over the steps both completed (+0.12 = 12 % dearer). */
  change: number | null;
}

/**
 * The strategy (with settings) to ship under `options`, from the summary rows of a run or sweep.
 * Every candidate gets a verdict and a reason in words. Pure: the same rows give the same object.
 *
 * - Crashes count where another candidate completed (per log over several logs): shipping a
 *   strategy that stops where another goes on is a choice, even when `full` stops there too.
 *   Where every candidate crashed they are excused; `full` is held to its own. Recall is answer recall; a relative floor is measured against `full` of the same scenario.
 * - Dearer than `full`: the objective's paired change against `full` is above zero.
 * - Over several scenarios (`aggregate`): `worst-case` takes each figure's worst scenario (largest
 *   recall gap, dearest change), `mean` their mean; crashes and the objective are summed (peak: max).
 * - The pick: among candidates passing everything, fewest crashes (those excused because every
 *   candidate crashed there), then the objective, then input order.
 */
export function recommend(rows: readonly DecisionRow[], options: DecisionOptions = DEFAULT_DECISION): Recommendation {
  const objective = options.objective === 'cost' && rows.some((row) => row.summary.cost_usd === null) ? 'tokens' : options.objective;
  const scenarios = [...new Set(rows.map((row) => row.summary.scenario))];
  const decided = decide(rows, { ...options, objective });
  const perScenario =
    scenarios.length < 2
      ? undefined
      : new Map(
          scenarios.map((name) => [
            name,
            decide(
              rows.filter((row) => row.summary.scenario === name),
              { ...options, objective },
            ),
          ]),
        );
  const candidates = decided.candidates.map((candidate) => {
    if (perScenario === undefined) return candidate;
    const entries = scenarios.flatMap((name) => {
      const there = perScenario.get(name)?.candidates.find((c) => c.label === candidate.label);
      return there === undefined
        ? []
        : [{ scenario: name, verdict: there.verdict, costUsd: there.costUsd, answerRecall: there.answerRecall, crashed: there.crashes > 0 }];
    });
    return { ...candidate, perScenario: entries };
  });
  const notes = [...(objective !== options.objective ? ['the model has no price: ranked by total tokens instead of dollars'] : []), ...decided.notes];
  return {
    objective,
    constraints: options.constraints,
    aggregate: options.aggregate,
    strategy: decided.pick?.strategy ?? null,
    settings: decided.pick?.settings ?? {},
    reason: [decided.reason, ...notes].join('; '),
    runnerUp: decided.runnerUp === undefined ? null : { strategy: decided.runnerUp.strategy, settings: decided.runnerUp.settings },
    candidates: candidates.map(({ label: _label, ...candidate }) => candidate),
  };
}

type LabelledCandidate = Candidate & { label: string };

interface Decided {
  candidates: LabelledCandidate[];
  pick: LabelledCandidate | undefined;
  runnerUp: LabelledCandidate | undefined;
  reason: string;
  notes: string[];
}

function decide(rows: readonly DecisionRow[], options: DecisionOptions): Decided {
  const labels = [...new Set(rows.map((row) => row.label))];
  const hasFull = labels.includes(REFERENCE);
  const figures = new Map(labels.map((label) => [label, rows.filter((row) => row.label === label).map((row) => figuresOf(row, rows, options.objective))]));
  const judged = labels.map((label) => judge(figures.get(label) ?? [], options));
  const order = judged
    .map((candidate, i) => ({ candidate, i }))
    .sort((a, b) => compareValues(objectiveValue(a.candidate, options.objective), objectiveValue(b.candidate, options.objective)) || a.i - b.i);
  order.forEach(({ candidate }, rank) => (candidate.rank = rank + 1));
  const passing = judged
    .filter((c) => c.verdict === 'acceptable')
    .sort((a, b) => a.crashes - b.crashes || compareValues(objectiveValue(a, options.objective), objectiveValue(b, options.objective)) || a.rank - b.rank);
  const [pick, runnerUp] = passing;
  if (pick !== undefined) {
    pick.verdict = 'recommended';
    pick.reason = pickReason(pick, judged, options);
  }
  const notes: string[] = [];
  if (!hasFull && options.constraints.minRecall.kind === 'relative') notes.push('no full run: recall and cost were not compared with full');
  if (judged.every((c) => c.answerRecall === null)) notes.push('answer recall not measured (no probes): the recall floor was not checked');
  return {
    candidates: order.map(({ candidate }) => candidate),
    pick,
    runnerUp,
    reason:
      pick !== undefined ? pick.reason : `no strategy passes (${describeConstraints(options)}): ${summarizeExclusions(judged)}${closestNote(judged, options)}`,
    notes,
  };
}

/**
 * When nothing passes, the candidate that came closest: among those that complete (no counted
 * crash) and are not dearer than `full`, the highest answer recall, then the objective.
 */
function closestNote(judged: readonly LabelledCandidate[], options: DecisionOptions): string {
  const closest = judged
    .filter((c) => c.label !== REFERENCE && (c.verdict === 'unsafe-recall' || c.verdict === 'dearer-than-full') && c.answerRecall !== null)
    .sort(
      (a, b) =>
        Number(a.verdict === 'dearer-than-full') - Number(b.verdict === 'dearer-than-full') ||
        (b.answerRecall as number) - (a.answerRecall as number) ||
        compareValues(objectiveValue(a, options.objective), objectiveValue(b, options.objective)) ||
        a.rank - b.rank,
    )[0];
  return closest === undefined ? '' : `; closest: ${closest.strategy} (${closest.reason})`;
}

function figuresOf(row: DecisionRow, all: readonly DecisionRow[], objective: Objective): Figures {
  const full = all.find((other) => other.label === REFERENCE && other.summary.scenario === row.summary.scenario);
  const isFull = row.label === REFERENCE;
  const logs = row.logs ?? [];
  const crashes = logs.length > 0 ? logs.filter((log) => log.crashed).length : row.summary.crashed ? 1 : 0;
  // A crash counts where some candidate of the scenario completed that log: there, shipping one
  // that stops is a choice. Where every candidate crashed (a quota nothing survives), it is
  // excused, but still counted for the pick. `full` is held to its own crashes.
  const rivals = all.filter((other) => other.summary.scenario === row.summary.scenario);
  const counted = (crashed: (other: DecisionRow) => boolean): boolean => !isFull && !rivals.every(crashed);
  const excessUnits: boolean[] = isFull
    ? logs.length > 0
      ? logs.map((log) => log.crashed)
      : [row.summary.crashed]
    : logs.length > 0
      ? logs.map((log, i) => log.crashed && counted((other) => other.logs?.[i]?.crashed === true))
      : [row.summary.crashed && counted((other) => other.summary.crashed)];
  const fullCrashed = (i: number): boolean => (logs.length > 0 ? full?.logs?.[i]?.crashed === true : full?.summary.crashed === true);
  const excess = excessUnits.filter(Boolean).length;
  return {
    scenario: row.summary.scenario,
    row,
    crashes,
    excess,
    units: Math.max(1, logs.length),
    excessWhereFullCrashed: isFull ? 0 : excessUnits.filter((crashed, i) => crashed && fullCrashed(i)).length,
    recall: row.summary.answer_recall,
    fullRecall: referenceRecall(full),
    fullAnsweredNothing: full?.summary.answer_recall === null && referenceRecall(full) !== null,
    change: isFull ? 0 : full === undefined ? null : changeAgainstFull(row.summary, full.summary, objective),
  };
}

/**
 * `full`'s answer recall, the reference of a relative floor. A probe is valid at an ask point only
 * where the reader answers it from `full`'s whole history there (probes/reference.ts), so the
 * whole history answers every valid ask: when `full` crashed before its first ask, the reference
 * is 1, not "unmeasured" (that let a strategy at 25 % recall pass the floor unchecked).
 */
function referenceRecall(full: DecisionRow | undefined): number | null {
  if (full === undefined) return null;
  if (full.summary.answer_recall !== null) return full.summary.answer_recall;
  return full.summary.crashed && (full.summary.unanswered ?? 0) > 0 ? 1 : null;
}

/** The objective's change against `full`: paired cost and tokens (summary.ts); the peak as it is. */
function changeAgainstFull(row: SummaryRow, full: SummaryRow, objective: Objective): number | null {
  if (objective === 'cost') return row.cost_vs_full;
  if (objective === 'tokens') return row.saving_vs_full === null ? null : -row.saving_vs_full;
  return full.peak_context_tokens === 0 ? null : row.peak_context_tokens / full.peak_context_tokens - 1;
}

function judge(figures: readonly Figures[], options: DecisionOptions): LabelledCandidate {
  const first = figures[0] as Figures;
  const worst = options.aggregate === 'worst-case';
  const recalls = figures.filter((f) => f.recall !== null);
  const gaps = figures.flatMap((f) => (f.recall !== null && f.fullRecall !== null ? [{ f, gap: f.fullRecall - f.recall }] : []));
  const changes = figures.flatMap((f) => (f.change !== null ? [f.change] : []));
  const worstGap = gaps.reduce<(typeof gaps)[number] | undefined>((w, g) => (w === undefined || g.gap > w.gap ? g : w), undefined);
  const candidate: LabelledCandidate = {
    label: first.row.label,
    strategy: first.row.strategy,
    settings: first.row.settings,
    verdict: 'acceptable',
    reason: '',
    rank: 0,
    costUsd: figures.some((f) => f.row.summary.cost_usd === null) ? null : sum(figures.map((f) => f.row.summary.cost_usd ?? 0)),
    totalTokens: sum(figures.map((f) => f.row.summary.total_tokens)),
    peakContextTokens: worst ? Math.max(...figures.map((f) => f.row.summary.peak_context_tokens)) : mean(figures.map((f) => f.row.summary.peak_context_tokens)),
    answerRecall: recalls.length === 0 ? null : worst ? Math.min(...recalls.map((f) => f.recall as number)) : mean(recalls.map((f) => f.recall as number)),
    crashes: sum(figures.map((f) => f.crashes)),
    crashesBeyondFull: sum(figures.map((f) => f.excess)),
  };
  const gap = gaps.length === 0 ? null : worst ? (worstGap?.gap ?? null) : mean(gaps.map((g) => g.gap));
  const change = changes.length === 0 ? null : worst ? Math.max(...changes) : mean(changes);
  const [verdict, reason] = verdictOf(candidate, figures, { gap, change, worstGap: worstGap?.f }, options);
  candidate.verdict = verdict;
  candidate.reason = reason;
  return candidate;
}

function verdictOf(
  candidate: LabelledCandidate,
  figures: readonly Figures[],
  aggregated: { gap: number | null; change: number | null; worstGap: Figures | undefined },
  options: DecisionOptions,
): [Verdict, string] {
  const isFull = candidate.label === REFERENCE;
  const units = sum(figures.map((f) => f.units));
  const excess = candidate.crashesBeyondFull ?? 0;
  if (excess > options.constraints.maxCrashes) {
    const where = isFull
      ? 'crashes itself'
      : figures.some((f) => f.excessWhereFullCrashed > 0)
        ? 'crashes where others complete'
        : 'crashes where full does not';
    return ['crashes', `${where}: ${describeCrashes(figures, excess, units)}`];
  }
  const floor = options.constraints.minRecall;
  if (floor.kind === 'relative' && aggregated.gap !== null && aggregated.gap > floor.points + EPSILON) {
    return ['unsafe-recall', describeScenarioFigures(aggregated.worstGap, figures.length, options.aggregate, candidate.answerRecall)];
  }
  if (floor.kind === 'absolute' && candidate.answerRecall !== null && candidate.answerRecall < floor.value - EPSILON) {
    return ['unsafe-recall', `recall ${percentText(candidate.answerRecall)}, below the floor of ${percentText(floor.value)}`];
  }
  if (!isFull && aggregated.change !== null && aggregated.change > EPSILON) {
    return ['dearer-than-full', `${percentText(aggregated.change)} ${OBJECTIVE_WORDS[options.objective].more} than full`];
  }
  if (isFull) return ['acceptable', 'the reference: never compacts'];
  const crashed = candidate.crashes > 0 ? `; crashes only where every strategy does (${candidate.crashes})` : '';
  return ['acceptable', `${describeSaving(aggregated.change, options.objective)}${recallNote(candidate, figures)}${crashed}`];
}

function describeCrashes(figures: readonly Figures[], excess: number, units: number): string {
  const single = figures.length === 1 && figures[0]?.units === 1 ? figures[0].row.summary : undefined;
  if (single !== undefined) return `${single.crash_kind ?? 'crash'} at step ${single.crash_step ?? '?'} of ${single.steps}`;
  return `crashed on ${excess} of ${units} ${figures.some((f) => f.units > 1) ? 'logs' : 'scenarios'}`;
}

function describeSaving(change: number | null, objective: Objective): string {
  if (change === null) return `${OBJECTIVE_WORDS[objective].noun} not compared with full`;
  if (Math.abs(change) <= EPSILON) return `as ${OBJECTIVE_WORDS[objective].adjective} as full`;
  return `${percentText(-change)} ${OBJECTIVE_WORDS[objective].less} than full`;
}

function recallNote(candidate: Candidate, figures: readonly Figures[]): string {
  if (candidate.answerRecall === null) return ', recall not measured';
  const reference = figures.find((f) => f.fullRecall !== null);
  return figures.length === 1 && reference !== undefined
    ? `, recall ${percentText(candidate.answerRecall)} vs ${referenceWords(reference)}`
    : `, recall ${percentText(candidate.answerRecall)}`;
}

function pickReason(pick: LabelledCandidate, judged: readonly LabelledCandidate[], options: DecisionOptions): string {
  const passing = judged.filter((c) => c.verdict === 'acceptable' || c.verdict === 'recommended').length;
  const lead =
    pick.label !== REFERENCE
      ? `${formatObjective(pick, options.objective)}, ${pick.reason}`
      : judged.length === 1
        ? 'the only candidate'
        : passing === 1
          ? 'nothing else passes'
          : 'no strategy is cheaper while passing';
  return `${lead} (${describeConstraints(options)})`;
}

function objectiveValue(candidate: Candidate, objective: Objective): number | null {
  return objective === 'cost' ? candidate.costUsd : objective === 'tokens' ? candidate.totalTokens : candidate.peakContextTokens;
}

/** Ascending, unmeasured last. */
function compareValues(a: number | null, b: number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a - b;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : sum(values) / values.length;
}
