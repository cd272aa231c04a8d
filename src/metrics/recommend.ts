import type { AggregateRule, Candidate, Objective, Recommendation, RecommendationConstraints, Verdict } from './recommendation.js';
import { answerReferences, figuresOf, REFERENCE, type AnswerReference, type DecisionRow, type Figures } from './recommend-figures.js';
import {
  describeConstraints,
  describeNothingMeets,
  describeScenarioFigures,
  formatObjective,
  OBJECTIVE_WORDS,
  percentText,
  referenceWords,
  summarizeExclusions,
} from './recommend-words.js';

export { REFERENCE, type DecisionRow } from './recommend-figures.js';

/** What the user asks the recommendation for: the objective, the constraints and the aggregation rule. */
export interface DecisionOptions {
  objective: Objective;
  constraints: RecommendationConstraints;
  aggregate: AggregateRule;
}

/**
 * The default decision (issues 27, 34): the cheapest in dollars, net of prompt cache, that does
 * not crash where another strategy completes and loses at most 5 % of the needed facts (those
 * the session's own future used) beyond recovery; over several scenarios, a strategy must pass on
 * every one (worst case). Where needed facts were not measured, answer recall within 5 points of
 * the reference stands in (docs/decision.md).
 */
export const DEFAULT_DECISION: DecisionOptions = {
  objective: 'cost',
  constraints: { minRecall: { kind: 'needed', maxLost: 0.05 }, maxCrashes: 0 },
  aggregate: 'worst-case',
};

/** The answer-recall floor a needed floor falls back to where needed facts were not measured. */
const FALLBACK_FLOOR: RecommendationConstraints['minRecall'] = { kind: 'relative', points: 0.05 };

/** Figures below this are rounding, not a difference (fractions: 0.05 % of recall or of cost). */
const EPSILON = 5e-4;

/**
 * The strategy (with settings) to ship under `options`, from the summary rows of a run or sweep.
 * Every candidate gets a verdict and a reason in words. Pure: the same rows give the same object.
 *
 * - Crashes count where another candidate completed (per log over several logs): shipping a
 *   strategy that stops where another goes on is a choice, even when `full` stops there too.
 *   Where every candidate crashed they are excused; `full` is held to its own.
 * - The floor: needed facts lost beyond recovery (default), or answer recall against a reference
 *   that exists when `full` crashed (the best strategy that completes).
 * - Dearer than `full`: only where `full` completed, over the whole session.
 * - Always an answer when anything completes: the pick among those passing, else the one losing
 *   the fewest needed facts (`meetsFloor: false`), never one another completing strategy beats on
 *   both cost and facts kept.
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
    meetsFloor: decided.pick !== undefined && decided.meetsFloor,
    settings: decided.pick?.settings ?? {},
    reason: [decided.reason, ...notes].join('; '),
    runnerUp: decided.runnerUp === undefined ? null : { strategy: decided.runnerUp.strategy, settings: decided.runnerUp.settings },
    candidates: candidates.map(({ label: _label, ...candidate }) => candidate),
  };
}

type LabelledCandidate = Candidate & { label: string; neededLost: number | null };

interface Decided {
  candidates: LabelledCandidate[];
  pick: LabelledCandidate | undefined;
  runnerUp: LabelledCandidate | undefined;
  meetsFloor: boolean;
  reason: string;
  notes: string[];
}

/** What every verdict of one decision is judged under: the floor in force and the answer references. */
interface Judging extends DecisionOptions {
  floor: RecommendationConstraints['minRecall'];
  references: Map<string, AnswerReference>;
  /** Whether `full` ran every scenario to the end, crashed on one, or did not run. */
  full: 'completed' | 'crashed' | 'absent';
}

function decide(rows: readonly DecisionRow[], options: DecisionOptions): Decided {
  const labels = [...new Set(rows.map((row) => row.label))];
  const figures = new Map(labels.map((label) => [label, rows.filter((row) => row.label === label).map((row) => figuresOf(row, rows, options.objective))]));
  const all = [...figures.values()].flat();
  const completes = (f: Figures): boolean => f.excess <= options.constraints.maxCrashes;
  const neededMeasured = all.some((f) => f.neededLost !== null && completes(f));
  const floor = options.constraints.minRecall.kind === 'needed' && !neededMeasured ? FALLBACK_FLOOR : options.constraints.minRecall;
  const fullFigures = figures.get(REFERENCE);
  const full = fullFigures === undefined ? 'absent' : fullFigures.some((f) => f.crashes > 0) ? 'crashed' : 'completed';
  const judging: Judging = { ...options, floor, references: answerReferences(all, completes), full };
  const judged = labels.map((label) => judge(figures.get(label) ?? [], judging));
  const order = judged
    .map((candidate, i) => ({ candidate, i }))
    .sort((a, b) => compareValues(objectiveValue(a.candidate, options.objective), objectiveValue(b.candidate, options.objective)) || a.i - b.i);
  order.forEach(({ candidate }, rank) => (candidate.rank = rank + 1));
  const byObjective = (a: LabelledCandidate, b: LabelledCandidate): number =>
    compareValues(objectiveValue(a, options.objective), objectiveValue(b, options.objective)) || a.rank - b.rank;
  const passing = judged.filter((c) => c.verdict === 'acceptable').sort((a, b) => a.crashes - b.crashes || byObjective(a, b));
  const notes = floorNotes(judged, options, floor, full !== 'absent');
  const [pick, runnerUp] = passing;
  if (pick !== undefined) {
    pick.verdict = 'recommended';
    pick.reason = pickReason(pick, judged, judging);
    return { candidates: order.map(({ candidate }) => candidate), pick, runnerUp, meetsFloor: true, reason: pick.reason, notes };
  }
  const closest = closestFirst(
    judged.filter((c) => c.verdict !== 'crashes'),
    floor,
    byObjective,
  );
  const [fallback] = closest;
  const excluded = `${describeConstraints({ ...options, constraints: { ...options.constraints, minRecall: floor } })}: ${summarizeExclusions(judged)}`;
  if (fallback === undefined) {
    return {
      candidates: order.map(({ candidate }) => candidate),
      pick: undefined,
      runnerUp: undefined,
      meetsFloor: false,
      reason: `nothing completes (${excluded})`,
      notes,
    };
  }
  const cheaper = cheaperAlternative(fallback, closest, options.objective);
  fallback.verdict = 'recommended';
  fallback.reason = describeNothingMeets({ pick: fallback, cheaper, floor, objective: options.objective, window: rows[0]?.window, excluded });
  return { candidates: order.map(({ candidate }) => candidate), pick: fallback, runnerUp: cheaper, meetsFloor: false, reason: fallback.reason, notes };
}

/** Candidates that complete, closest to the floor first: fewest needed facts lost (else highest answer recall), then the objective. */
function closestFirst(
  candidates: LabelledCandidate[],
  floor: RecommendationConstraints['minRecall'],
  byObjective: (a: LabelledCandidate, b: LabelledCandidate) => number,
): LabelledCandidate[] {
  const loss = (c: LabelledCandidate): number | null => (floor.kind === 'needed' ? c.neededLost : c.answerRecall === null ? null : 1 - c.answerRecall);
  return [...candidates].sort((a, b) => compareValues(loss(a), loss(b)) || byObjective(a, b));
}

/**
 * The cheaper trade a reader may prefer to the closest: among the candidates cheaper than it
 * (under the objective), the one closest to the floor — the next point down the front.
 */
function cheaperAlternative(pick: LabelledCandidate, closest: readonly LabelledCandidate[], objective: Objective): LabelledCandidate | undefined {
  const mine = objectiveValue(pick, objective);
  if (mine === null) return undefined;
  return closest.find((c) => c !== pick && c.label !== REFERENCE && (objectiveValue(c, objective) ?? Infinity) < mine - Math.abs(mine) * EPSILON);
}

function floorNotes(judged: readonly LabelledCandidate[], options: DecisionOptions, floor: RecommendationConstraints['minRecall'], hasFull: boolean): string[] {
  const notes: string[] = [];
  if (!hasFull) notes.push('no full run: cost was not compared with full');
  if (options.constraints.minRecall.kind === 'needed' && floor.kind !== 'needed')
    notes.push('needed facts not measured: the floor is answer recall within 5 points of the reference');
  if (floor.kind !== 'needed' && judged.every((c) => c.answerRecall === null))
    notes.push('answer recall not measured (no probes): the recall floor was not checked');
  return notes;
}

function judge(figures: readonly Figures[], judging: Judging): LabelledCandidate {
  const first = figures[0] as Figures;
  const worst = judging.aggregate === 'worst-case';
  const recalls = figures.filter((f) => f.recall !== null);
  const gaps = figures.flatMap((f) => {
    const reference = judging.references.get(f.scenario);
    return f.recall !== null && reference !== undefined ? [{ f, reference, gap: reference.recall - f.recall }] : [];
  });
  const losses = figures.flatMap((f) => (f.neededLost !== null ? [f.neededLost] : []));
  const kept = figures.flatMap((f) => (f.neededRecall !== null ? [f.neededRecall] : []));
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
    neededLost: losses.length === 0 ? null : worst ? Math.max(...losses) : mean(losses),
    neededRecall: kept.length === 0 ? null : worst ? Math.min(...kept) : mean(kept),
    crashes: sum(figures.map((f) => f.crashes)),
    crashesBeyondFull: sum(figures.map((f) => f.excess)),
  };
  const gap = gaps.length === 0 ? null : worst ? (worstGap?.gap ?? null) : mean(gaps.map((g) => g.gap));
  const change = changes.length === 0 ? null : worst ? Math.max(...changes) : mean(changes);
  const [verdict, reason] = verdictOf(candidate, figures, { gap, change, worstGap }, judging);
  const neverActs = figures.find((f) => f.row.neverActs !== undefined)?.row.neverActs;
  candidate.verdict = verdict;
  candidate.reason = neverActs === undefined ? reason : `${reason}; never acts: ${neverActs}`;
  return candidate;
}

interface Aggregated {
  gap: number | null;
  change: number | null;
  worstGap: { f: Figures; reference: AnswerReference } | undefined;
}

function verdictOf(candidate: LabelledCandidate, figures: readonly Figures[], aggregated: Aggregated, judging: Judging): [Verdict, string] {
  const isFull = candidate.label === REFERENCE;
  const units = sum(figures.map((f) => f.units));
  const excess = candidate.crashesBeyondFull ?? 0;
  if (excess > judging.constraints.maxCrashes) {
    const where = isFull
      ? 'crashes itself'
      : figures.some((f) => f.excessWhereFullCrashed > 0)
        ? 'crashes where others complete'
        : 'crashes where full does not';
    return ['crashes', `${where}: ${describeCrashes(figures, excess, units)}`];
  }
  const below = belowFloor(candidate, aggregated, judging);
  if (below !== undefined) return ['unsafe-recall', below];
  if (!isFull && aggregated.change !== null && aggregated.change > EPSILON) {
    return ['dearer-than-full', `${percentText(aggregated.change)} ${OBJECTIVE_WORDS[judging.objective].more} than full`];
  }
  if (isFull) return ['acceptable', 'the reference: never compacts'];
  const crashed = candidate.crashes > 0 ? `; crashes only where every strategy does (${candidate.crashes})` : '';
  return ['acceptable', `${describeSaving(aggregated.change, judging)}${recallNote(candidate, aggregated, judging)}${crashed}`];
}

/** Why the candidate is below the floor in force, in words; undefined when it is not. */
function belowFloor(candidate: LabelledCandidate, aggregated: Aggregated, judging: Judging): string | undefined {
  const floor = judging.floor;
  if (floor.kind === 'needed') {
    if (candidate.neededLost === null || candidate.neededLost <= floor.maxLost + EPSILON) return undefined;
    return `loses ${percentText(candidate.neededLost)} of the needed facts beyond recovery (floor: ${percentText(floor.maxLost)})`;
  }
  if (floor.kind === 'relative' && aggregated.gap !== null && aggregated.gap > floor.points + EPSILON) {
    const worst = aggregated.worstGap;
    return describeScenarioFigures(
      worst === undefined ? undefined : { scenario: worst.f.scenario, recall: worst.f.recall, reference: worst.reference },
      new Set(judging.references.keys()).size,
      judging.aggregate,
      candidate.answerRecall,
    );
  }
  if (floor.kind === 'absolute' && candidate.answerRecall !== null && candidate.answerRecall < floor.value - EPSILON) {
    return `recall ${percentText(candidate.answerRecall)}, below the floor of ${percentText(floor.value)}`;
  }
  return undefined;
}

function describeCrashes(figures: readonly Figures[], excess: number, units: number): string {
  const single = figures.length === 1 && figures[0]?.units === 1 ? figures[0].row.summary : undefined;
  if (single !== undefined) return `${single.crash_kind ?? 'crash'} at step ${single.crash_step ?? '?'} of ${single.steps}`;
  const perLog = figures.flatMap((f) =>
    (f.row.logs ?? []).flatMap((log, i) => {
      const name = f.row.logNames?.[i];
      return log.crashed && name !== undefined ? [`${name} at step ${log.crash_step ?? '?'} of ${log.steps}`] : [];
    }),
  );
  const where = perLog.length > 0 ? ` (${perLog.slice(0, 3).join(', ')}${perLog.length > 3 ? `, and ${perLog.length - 3} more` : ''})` : '';
  return `crashed on ${excess} of ${units} ${figures.some((f) => f.units > 1) ? 'logs' : 'scenarios'}${where}`;
}

function describeSaving(change: number | null, judging: Judging): string {
  const objective = judging.objective;
  if (change === null) {
    return judging.full === 'crashed'
      ? `${OBJECTIVE_WORDS[objective].noun} ranked among the strategies that complete (full does not)`
      : `${OBJECTIVE_WORDS[objective].noun} not compared with full`;
  }
  if (Math.abs(change) <= EPSILON) return `as ${OBJECTIVE_WORDS[objective].adjective} as full`;
  return `${percentText(-change)} ${OBJECTIVE_WORDS[objective].less} than full`;
}

function recallNote(candidate: LabelledCandidate, aggregated: Aggregated, judging: Judging): string {
  if (judging.floor.kind === 'needed' && candidate.neededLost !== null) return `, ${neededWords(candidate.neededRecall ?? null, candidate.neededLost)}`;
  if (candidate.answerRecall === null) return ', recall not measured';
  const reference = aggregated.worstGap?.reference;
  return judging.references.size === 1 && reference !== undefined
    ? `, recall ${percentText(candidate.answerRecall)} vs ${referenceWords(reference)}`
    : `, recall ${percentText(candidate.answerRecall)}`;
}

/** `needed facts: 72 % held, 28 % recoverable, none lost`. */
function neededWords(held: number | null, lost: number): string {
  const recoverable = held === null ? null : Math.max(0, 1 - held - lost);
  const parts = [
    ...(held !== null ? [`${percentText(held)} held`] : []),
    ...(recoverable !== null && recoverable > EPSILON ? [`${percentText(recoverable)} recoverable`] : []),
    lost <= EPSILON ? 'none lost' : `${percentText(lost)} lost`,
  ];
  return `needed facts: ${parts.join(', ')}`;
}

function pickReason(pick: LabelledCandidate, judged: readonly LabelledCandidate[], judging: Judging): string {
  const passing = judged.filter((c) => c.verdict === 'acceptable' || c.verdict === 'recommended').length;
  const lead =
    pick.label !== REFERENCE
      ? `${formatObjective(pick, judging.objective)}, ${pick.reason}`
      : judged.length === 1
        ? 'the only candidate'
        : passing === 1
          ? 'nothing else passes'
          : 'no strategy is cheaper while passing';
  return `${lead} (${describeConstraints({ ...judging, constraints: { ...judging.constraints, minRecall: judging.floor } })})`;
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
