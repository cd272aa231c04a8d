import type { RunResult } from '../metrics/types.js';

/** What a stress-test scenario's header says (docs/scenarios.md): shown, never in the recommendation. */
export const STRESS_LABEL = 'stress test, not in the recommendation';

/** The line the HTML banner, the Markdown summary and the terminal print for a stopped run. */
export function describePartial(partial: NonNullable<RunResult['partial']>): string {
  return `Partial run: ${partial.completed} of ${partial.planned} units finished (stopped by ${partial.reason}); ctxbench run --resume <out> completes it.`;
}

/** Lines a lenient load skipped, per scenario, as one line; undefined when none were. */
export function describeSkipped(result: RunResult): string | undefined {
  const skipped = result.scenarios.filter((s) => s.skippedLines > 0);
  if (skipped.length === 0) return undefined;
  const total = skipped.reduce((sum, s) => sum + s.skippedLines, 0);
  return `--lenient skipped ${total} invalid transcript line${total === 1 ? '' : 's'}: ${skipped.map((s) => `${s.name} ${s.skippedLines}`).join(', ')}`;
}

/**
 * The seed of a run's header: the scenarios' own seeds (each scenario has one, resolved in
 * scenario/resolve.ts), "seed 23" when they agree, else "seeds 23, 42" in scenario order;
 * the run's seed when it lists no scenario.
 */
export function describeSeed(result: RunResult): string {
  const seeds = runSeeds(result);
  return `${seeds.length === 1 ? 'seed' : 'seeds'} ${seeds.join(', ')}`;
}

/** The distinct seeds of a run's scenarios, in scenario order (the run's seed when it lists none). */
export function runSeeds(result: RunResult): number[] {
  const seeds = [...new Set(result.scenarios.map((scenario) => scenario.seed))];
  return seeds.length > 0 ? seeds : [result.seed];
}
