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

/** The objective and constraints in words: "cheapest in dollars …, no crash where another strategy completes, recall within 5 points of full". */
export function describeConstraints(options: { objective: Objective; constraints: RecommendationConstraints; aggregate: AggregateRule }): string {
  const { minRecall, maxCrashes } = options.constraints;
  const crashes = maxCrashes === 0 ? 'no crash where another strategy completes' : `at most ${maxCrashes} crash(es) where another strategy completes`;
  const recall =
    minRecall.kind === 'relative'
      ? `recall within ${Math.round(minRecall.points * 1000) / 10} points of full`
      : `recall at least ${percentText(minRecall.value)}`;
  return `${OBJECTIVE_WORDS[options.objective].title}, ${crashes}, ${recall}`;
}

/** Why recall excludes a candidate: "recall 10 % vs full's 85 %", naming the worst scenario when there are several. */
export function describeScenarioFigures(
  worst: { scenario: string; recall: number | null; fullRecall: number | null; fullAnsweredNothing: boolean } | undefined,
  scenarios: number,
  aggregate: AggregateRule,
  recall: number | null,
): string {
  if (worst === undefined || worst.recall === null || worst.fullRecall === null) return `recall ${recall === null ? 'not measured' : percentText(recall)}`;
  const figures = `recall ${percentText(worst.recall)} vs ${referenceWords(worst)}`;
  if (scenarios === 1) return figures;
  return aggregate === 'worst-case'
    ? `${figures} on ${worst.scenario}`
    : `mean recall ${percentText(recall ?? 0)}, falls furthest on ${worst.scenario} (${figures})`;
}

/** `full's 85 %`, or, when `full` crashed before its first ask, what its whole history answers. */
export function referenceWords(figures: { fullRecall: number | null; fullAnsweredNothing: boolean }): string {
  const recall = percentText(figures.fullRecall ?? 0);
  return figures.fullAnsweredNothing ? `${recall} from full's history (full crashed before its first ask)` : `full's ${recall}`;
}

/** A strategy with its settings as the --grid flags write them: `codex-rebuild trigger=0.5`. */
export function describeChoice(choice: { strategy: string; settings: Record<string, unknown> }): string {
  const settings = Object.entries(flatten(choice.settings)).map(
    ([key, value]) => `${key}=${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`,
  );
  return settings.length === 0 ? choice.strategy : `${choice.strategy} ${settings.join(' ')}`;
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
