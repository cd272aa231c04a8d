import type { RunResult } from '../metrics/types.js';
import type { CheckReport, CheckRules } from './types.js';
import { InputError } from '../errors.js';
import { compareResults } from './compare.js';
import { assertComparable } from './comparable.js';
import { loadCheckConfig, resolveCheckRules } from './config.js';
import { readResultFile } from './load-result.js';
import { findMismatches } from './mismatch.js';
import { repriceResult } from './reprice.js';
import { unmatchedPriceKeys, type PriceFile } from '../pricing/file.js';

export type { CheckReport, CheckRules } from './types.js';
export { compareResults } from './compare.js';
export { DEFAULT_CHECK_RULES } from './config.js';
export { readResultFile } from './load-result.js';
export { renderCheckMarkdown, renderCheckTerminal } from './render.js';
export { renderCheckJunit } from './junit.js';

export interface CheckOptions {
  /** The baseline `result.json` (committed by the user). */
  baseline: string;
  /** A check config file (YAML or JSON); its rules sit between the defaults and `rules`. */
  config?: string;
  /** Rules given directly (the command line); they win over the config file. */
  rules?: Partial<CheckRules>;
  /** Compare even when the results are of different seeds or scenarios (see `findMismatches`). */
  allowMismatch?: boolean;
  /** Re-cost both results at these prices before comparing them (`--prices`). */
  prices?: PriceFile;
}

/**
 * Compares `current` (a run in memory, or the path of its `result.json`) with a baseline file.
 * Anything that prevents comparing is an InputError (exit 2) with the reason: an unreadable or
 * invalid file, another result schema version, a config that does not validate, a shard's
 * result (merge the shards first), results of different seeds or scenarios (unless allowed).
 */
export async function checkRun(current: RunResult | string, options: CheckOptions): Promise<CheckReport> {
  const config = options.config === undefined ? {} : await loadCheckConfig(options.config);
  const rules = resolveCheckRules(config, options.rules);
  const run = typeof current === 'string' ? await readResultFile(current) : current;
  const baseline = await readResultFile(options.baseline);
  refuseShard(run, typeof current === 'string' ? current : '<run>');
  refuseShard(baseline, options.baseline);
  assertComparable(run, typeof current === 'string' ? current : '<run>');
  assertComparable(baseline, options.baseline);
  const mismatches = findMismatches(run, baseline);
  if (mismatches.length > 0 && options.allowMismatch !== true) {
    const shown =
      mismatches
        .slice(0, 3)
        .map((m) => m.text)
        .join('; ') + (mismatches.length > 3 ? `; and ${mismatches.length - 3} more` : '');
    throw new InputError(
      { file: options.baseline, field: mismatches[0]?.field ?? 'scenarios' },
      `cannot compare: the run and the baseline are not the same runs (${shown}); --allow-mismatch compares them anyway`,
    );
  }
  if (options.prices === undefined) return compareResults(run, baseline, rules);
  const report = compareResults(repriceResult(run, options.prices), repriceResult(baseline, options.prices), rules);
  return { ...report, notes: [...report.notes, ...unusedPricesNote(options.prices, [run, baseline])] };
}

/** A note naming the `--prices` models that price no unit of either result (a typo is otherwise silent). */
function unusedPricesNote(prices: PriceFile, results: readonly RunResult[]): string[] {
  const models = [...new Set(results.flatMap((result) => result.scenarios.map((s) => s.model)))].sort();
  const unused = unmatchedPriceKeys(prices, models);
  if (unused.length === 0) return [];
  return [`--prices names models that price no unit of the run or the baseline (not used): ${unused.join(', ')}; their models: ${models.join(', ')}`];
}

function refuseShard(result: RunResult, file: string): void {
  if (result.shard === undefined) return;
  throw new InputError(
    { file, field: 'shard' },
    `is shard ${result.shard.index}/${result.shard.count} of a run: merge the shards first (ctxbench merge), then check the merged result`,
  );
}
