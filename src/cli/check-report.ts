import { resolve } from 'node:path';
import { escapeControlDeep } from '../control-chars.js';
import { writeFileAtomic } from '../report/write.js';
import type { RunResult } from '../metrics/types.js';
import { checkRun, renderCheckJunit, renderCheckMarkdown, renderCheckTerminal, type CheckReport, type CheckRules } from '../check/index.js';
import { GateError } from '../errors.js';
import { useColor } from './options.js';
import type { PriceFile } from '../pricing/file.js';

/** The check flags `run --baseline` shares with `check`. */
export interface CheckFlags {
  config?: string;
  maxTokenIncrease?: number;
  maxCostIncrease?: number;
  maxRecallDrop?: number;
  maxRetentionDrop?: number;
  decision?: CheckRules['decision'];
  md?: string;
  junit?: string;
  /** Print nothing (the exit code and the files still tell). */
  quiet?: boolean;
  allowMismatch?: boolean;
  /** Re-cost both results at these prices before comparing. */
  prices?: PriceFile;
}

/**
 * Runs the check, prints the diff table, writes the Markdown and JUnit files asked for, and fails
 * with exit 1 (GateError) when there is a regression.
 */
export async function checkAndReport(current: RunResult | string, baseline: string, flags: CheckFlags): Promise<CheckReport> {
  const report = await checkRun(current, {
    baseline,
    ...(flags.allowMismatch === true ? { allowMismatch: true } : {}),
    ...(flags.prices !== undefined ? { prices: flags.prices } : {}),
    ...(flags.config !== undefined ? { config: flags.config } : {}),
    rules: {
      ...(flags.maxTokenIncrease !== undefined ? { maxTokenIncrease: flags.maxTokenIncrease } : {}),
      ...(flags.maxCostIncrease !== undefined ? { maxCostIncrease: flags.maxCostIncrease } : {}),
      ...(flags.maxRecallDrop !== undefined ? { maxRecallDrop: flags.maxRecallDrop } : {}),
      ...(flags.maxRetentionDrop !== undefined ? { maxRetentionDrop: flags.maxRetentionDrop } : {}),
      ...(flags.decision !== undefined ? { decision: flags.decision } : {}),
    },
  });
  // A price nothing uses is a typo until shown otherwise: said on stderr too, so --quiet and a CI log show it.
  for (const note of report.notes) if (note.startsWith('--prices ')) process.stderr.write(`ctxbench: warning: ${note}\n`);
  if (flags.quiet !== true) process.stdout.write(renderCheckTerminal(escapeControlDeep(report), { color: useColor(process.stdout) }));
  if (flags.md !== undefined) await writeText(flags.md, renderCheckMarkdown(report));
  if (flags.junit !== undefined) await writeText(flags.junit, renderCheckJunit(report));
  const n = report.regressions.length;
  if (n > 0) throw new GateError(`check failed: ${n} regression${n === 1 ? '' : 's'} against ${baseline}`);
  return report;
}

async function writeText(file: string, text: string): Promise<void> {
  await writeFileAtomic(resolve(file), text);
}
