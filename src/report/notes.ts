import type { RunResult } from '../metrics/types.js';

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
