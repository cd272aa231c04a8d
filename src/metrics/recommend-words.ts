import type { AggregateRule, Candidate, Objective, RecommendationConstraints } from './recommendation.js';

/** How each objective reads in a sentence. */
export const OBJECTIVE_WORDS: Record<Objective, { noun: string; more: string; less: string; adjective: string; title: string }> = {
  cost: { noun: 'cost', more: 'dearer', less: 'cheaper', adjective: 'cheap', title: 'the cheapest in dollars net of prompt cache' },
  tokens: { noun: 'tokens', more: 'more tokens', less: 'fewer tokens', adjective: 'many tokens', title: 'the fewest total tokens' },
  peak: { noun: 'peak context', more: 'larger peak', less: 'smaller peak', adjective: 'large a peak', title: 'the smallest peak context' },
};

/** `85 %`, `3.5 %`: a fraction as a percentage, one decimal only under 10. */
export function percentText(fraction: number): string {
  const pct = fraction * 100;
  const shown = Math.abs(pct) < 10 && Math.round(pct) !== pct ? pct.toFixed(1) : String(Math.round(pct));
  return `${shown} %`;
}

/** The candidate's figure under the objective: `$0.41`, `1.2M tokens`, `peak 81k`. */
export function formatObjective(candidate: Candidate, objective: Objective): string {
  if (objective === 'cost' && candidate.costUsd !== null)
    return candidate.costUsd < 1 ? `$${candidate.costUsd.toFixed(4)}` : `$${candidate.costUsd.toFixed(2)}`;
  if (objective === 'peak') return `peak ${count(candidate.peakContextTokens)} tokens`;
  return `${count(candidate.totalTokens)} tokens`;
}

function count(n: number): string {
  if (n < 10_000) return String(Math.round(n));
  if (n < 999_950) return `${Number((n / 1000).toFixed(1))}k`;
  return `${Number((n / 1_000_000).toFixed(2))}M`;
}

/** The recall floor in words: "at most 5 % of needed facts lost beyond recovery", "recall within 5 points of the reference". */
export function describeFloor(minRecall: RecommendationConstraints['minRecall']): string {
  if (minRecall.kind === 'needed') return `at most ${percentText(minRecall.maxLost)} of the needed facts lost beyond recovery`;
  if (minRecall.kind === 'relative') return `recall within ${Math.round(minRecall.points * 1000) / 10} points of the reference`;
  return `recall at least ${percentText(minRecall.value)}`;
}

/** The objective and constraints in words: "cheapest in dollars …, no crash where another strategy completes, at most 5 % of needed facts lost". */
export function describeConstraints(options: { objective: Objective; constraints: RecommendationConstraints; aggregate: AggregateRule }): string {
  const { minRecall, maxCrashes } = options.constraints;
  const crashes = maxCrashes === 0 ? 'no crash where another strategy completes' : `at most ${maxCrashes} crash(es) where another strategy completes`;
  return `${OBJECTIVE_WORDS[options.objective].title}, ${crashes}, ${describeFloor(minRecall)}`;
}

/** Why recall excludes a candidate: "recall 10 % vs full's 85 %", naming the worst scenario when there are several. */
export function describeScenarioFigures(
  worst: { scenario: string; recall: number | null; reference: AnswerReferenceWords } | undefined,
  scenarios: number,
  aggregate: AggregateRule,
  recall: number | null,
): string {
  if (worst === undefined || worst.recall === null) return `recall ${recall === null ? 'not measured' : percentText(recall)}`;
  const figures = `recall ${percentText(worst.recall)} vs ${referenceWords(worst.reference)}`;
  if (scenarios === 1) return figures;
  return aggregate === 'worst-case'
    ? `${figures} on ${worst.scenario}`
    : `mean recall ${percentText(recall ?? 0)}, falls furthest on ${worst.scenario} (${figures})`;
}

/** What the words of an answer-recall reference need (metrics/recommend-figures.ts AnswerReference). */
interface AnswerReferenceWords {
  recall: number;
  by: string | null;
  fullMissing?: 'crashed' | 'absent';
}

/** `full's 85 %`, or, where `full` crashed or did not run, the best strategy that completes. */
export function referenceWords(reference: AnswerReferenceWords): string {
  const recall = percentText(reference.recall);
  if (reference.by === null) return `full's ${recall}`;
  const why = reference.fullMissing === 'absent' ? 'no full run' : 'full crashed';
  return `${recall} of ${reference.by}, the best that completes (${why})`;
}

/**
 * When no strategy meets the floor: "nothing meets the floor (…) at a 100k window: X keeps 94 %
 * of the needed facts for $2.87; Z is 30 % cheaper at 80 %".
 */
export function describeNothingMeets(parts: {
  pick: Candidate;
  cheaper: Candidate | undefined;
  floor: RecommendationConstraints['minRecall'];
  objective: Objective;
  window: number | undefined;
  excluded: string;
}): string {
  const { pick, cheaper, floor, objective } = parts;
  const at = parts.window === undefined ? '' : ` at a ${windowWords(parts.window)} window`;
  const kept = (c: Candidate): string =>
    floor.kind === 'needed'
      ? `${percentText(1 - (c.neededLost ?? 0))}${c === pick ? ' of the needed facts (held or recoverable)' : ''}`
      : `${c.answerRecall === null ? 'unmeasured' : percentText(c.answerRecall)}${c === pick ? ' answer recall' : ''}`;
  const verb = floor.kind === 'needed' ? 'keeps' : 'has';
  const alternative = cheaper === undefined ? '' : `; ${describeChoice(cheaper)} is ${cheaperWords(pick, cheaper, objective)} at ${kept(cheaper)}`;
  return `nothing meets the floor (${describeFloor(floor)})${at}: ${describeChoice(pick)} ${verb} ${kept(pick)} for ${formatObjective(pick, objective)}${alternative} (${parts.excluded})`;
}

function cheaperWords(pick: Candidate, cheaper: Candidate, objective: Objective): string {
  const value = (c: Candidate): number | null => (objective === 'cost' ? c.costUsd : objective === 'tokens' ? c.totalTokens : c.peakContextTokens);
  const mine = value(pick);
  const theirs = value(cheaper);
  if (mine === null || theirs === null || mine === 0) return OBJECTIVE_WORDS[objective].less;
  return `${percentText(1 - theirs / mine)} ${OBJECTIVE_WORDS[objective].less}`;
}

/** `100k`, `1M`, `32768`: a window as a reader says it. */
function windowWords(window: number): string {
  if (window % 1_000_000 === 0) return `${window / 1_000_000}M`;
  if (window % 1000 === 0) return `${window / 1000}k`;
  return String(window);
}

/** A strategy with its settings as the --grid flags write them: `codex-rebuild trigger=0.5`. */
export function describeChoice(choice: { strategy: string; settings: Record<string, unknown> }): string {
  const settings = Object.entries(flatten(choice.settings)).map(([key, value]) => `${key}=${settingText(value)}`);
  return settings.length === 0 ? choice.strategy : `${choice.strategy} ${settings.join(' ')}`;
}

/** The longest object value written out whole; a longer one is named by its parts. */
const SHORT_JSON = 40;

/**
 * A setting's value as a reader takes it in: a list of stages (`[{strategy: …}, …]`, a pipeline's)
 * as their strategies in order, `observation-masking→tiered-truncation`; another short object as
 * its JSON; a long one as how many items it holds.
 */
function settingText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof (item as { strategy?: unknown } | null)?.strategy === 'string'))
    return value.map((item) => (item as { strategy: string }).strategy).join('→');
  const json = JSON.stringify(value);
  if (json.length <= SHORT_JSON) return json;
  return Array.isArray(value) ? `[${value.length} items]` : `{${Object.keys(value).length} keys}`;
}

/** `{a: {b: 1}}` → `{'a.b': 1}`: settings as the --grid flags write them. */
function flatten(settings: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) Object.assign(out, flatten(value as Record<string, unknown>, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = value;
  }
  return out;
}

/** `3 crash, 2 lose recall`: why nothing passes. */
export function summarizeExclusions(judged: readonly Candidate[]): string {
  const count = (verdict: Candidate['verdict']): number => judged.filter((c) => c.verdict === verdict).length;
  const parts = [
    [count('crashes'), 'crash'],
    [count('unsafe-recall'), 'lose recall'],
    [count('dearer-than-full'), 'cost more than full'],
  ] as const;
  return parts.flatMap(([n, what]) => (n > 0 ? [`${n} ${what}`] : [])).join(', ') || 'no candidate';
}
