import type { Candidate, Recommendation } from '../metrics/recommendation.js';
import { describeChoice } from '../metrics/recommend-words.js';

/** The decision in four short parts, for the head of summary.md and of the terminal. */
export interface RecommendationBlock {
  /** `ship observation-masking`, `ship X (closest: nothing meets the floor)`, or `nothing completes`. */
  headline: string;
  /** Why, with the objective and constraints. */
  why: string;
  runnerUp: string | null;
  /** `name: reason` per excluded candidate, in rank order. */
  excluded: string[];
  /** Candidates whose verdict differs between scenarios: `name: recommended on a, unsafe-recall on b`. */
  disagreements: string[];
}

const EXCLUDED = new Set<Candidate['verdict']>(['unsafe-recall', 'crashes', 'dearer-than-full']);

/** The parts of the block; renderers escape and lay them out. Pure. */
export function recommendationBlock(recommendation: Recommendation): RecommendationBlock {
  const runnerUp = recommendation.runnerUp === null ? undefined : recommendation.candidates.find((c) => sameChoice(c, recommendation.runnerUp));
  const picked = recommendation.candidates.find((c) => c.verdict === 'recommended');
  return {
    headline:
      recommendation.strategy === null
        ? 'nothing completes'
        : `ship ${describeChoice({ strategy: recommendation.strategy, settings: recommendation.settings })}${recommendation.meetsFloor === false ? ' (closest: nothing meets the floor)' : ''}`,
    why: recommendation.reason,
    runnerUp: runnerUp === undefined ? null : `${describeChoice(runnerUp)} (${runnerUp.reason})`,
    excluded: recommendation.candidates.filter((c) => EXCLUDED.has(c.verdict)).map((c) => `${describeChoice(c)}: ${c.reason}`),
    disagreements: [picked, runnerUp].flatMap((c) => (c === undefined ? [] : describeDisagreement(c))),
  };
}

function describeDisagreement(candidate: Candidate): string[] {
  const perScenario = candidate.perScenario ?? [];
  if (new Set(perScenario.map((p) => p.verdict)).size < 2) return [];
  return [`${describeChoice(candidate)}: ${perScenario.map((p) => `${p.verdict} on ${p.scenario}`).join(', ')}`];
}

function sameChoice(candidate: Candidate, choice: { strategy: string; settings: Record<string, unknown> } | null): boolean {
  return choice !== null && candidate.strategy === choice.strategy && JSON.stringify(candidate.settings) === JSON.stringify(choice.settings);
}
