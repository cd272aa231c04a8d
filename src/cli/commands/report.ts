import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../errors.js';
import { READABLE_SCHEMA_VERSIONS, type RunResult } from '../../metrics/types.js';
import { givenPath } from '../../paths.js';
import { renderReports, reporterNames } from '../../report/index.js';
import { writeReportFiles } from '../../report/write.js';
import { addExamples, addDeprecatedOption, parseList, useColor } from '../options.js';
import { resultForWriting } from '../../redact/result.js';
import { checkOutDir, lockOutDir } from '../out-dir.js';
import { markOutDir } from '../out-owner.js';
import { recommendRun } from '../../run/recommend-run.js';
import { renderTerminalRecommendation } from '../../report/terminal-recommendation.js';
import { addDecisionOptions, decisionOf, type DecisionFlags } from '../decision-options.js';
import { parseInput } from '../../validate.js';
import { copyDetailFiles, holdsSummaryOnly, isDetailFile } from '../result-details.js';

interface ReportFlags extends DecisionFlags {
  reports?: string[];
  /** The old spelling of --reports. */
  format?: string[];
  out?: string;
  quiet?: boolean;
}

/**
 * The shape the renderers rely on. Loose: a result from this schema version may carry fields this
 * build does not know, and the renderers read only these.
 */
const resultShape = z.looseObject({
  schemaVersion: z.number(),
  tool: z.looseObject({ name: z.string(), version: z.string() }),
  seed: z.number(),
  mode: z.enum(['mock', 'live']),
  scenarios: z.array(z.looseObject({ name: z.string(), file: z.string(), provider: z.string(), model: z.string(), window: z.number(), steps: z.number() })),
  units: z.array(
    z.looseObject({
      scenario: z.string(),
      strategy: z.string(),
      summary: z.looseObject({ scenario: z.string(), strategy: z.string(), crashed: z.boolean(), total_tokens: z.number() }),
      steps: z.array(z.looseObject({ step: z.number(), atMs: z.number(), contextTokens: z.number() })),
      events: z.array(z.looseObject({ type: z.string(), step: z.number(), atMs: z.number() })),
    }),
  ),
});

export function register(program: Command): void {
  const command = program
    .command('report')
    .description('re-render reports from a saved result.json, without running anything')
    .argument('<result>', 'a result.json written by `ctxbench run`')
    .option(
      '--reports <formats>',
      `comma-separated formats (default: all but json: ${reporterNames()
        .filter((n) => n !== 'json')
        .join(', ')})`,
      parseList,
    )
    .option('-o, --out <dir>', 'output folder (default: the folder of the result file)')
    .option('--quiet', 'print nothing but errors');
  addDeprecatedOption(command, '--format <formats>', '--reports', parseList);
  addDecisionOptions(command);
  addExamples(command, [
    ['ctxbench report reports/latest/result.json', 'every report again, beside the result'],
    ['ctxbench report result.json --reports html,md -o /tmp/r', 'two formats, elsewhere'],
    ['ctxbench report result.json --objective tokens --min-recall 0.8', 'the recommendation again, under another objective and floor'],
  ]);
  command.action(async (file: string, flags: ReportFlags) => {
    const saved = await readResult(file);
    // The recommendation is made again under the flags given (the defaults when none): a shard's
    // or a stopped run's result has none, as when it was written.
    const whole = saved.shard === undefined && saved.partial === undefined;
    const result = whole ? { ...saved, recommendation: recommendRun(saved.units, decisionOf(flags), saved.scenarios) } : saved;
    // result.json is the input; rewriting it is opt-in (`--reports json`).
    const formats = flags.reports ?? flags.format ?? reporterNames().filter((name) => name !== 'json');
    const out = resolve(flags.out ?? dirname(file));
    checkOutDir(out);
    // A folder a running run holds is refused: its reports would be overwritten under it.
    const lock = lockOutDir(out);
    let written: string[];
    try {
      // A corpus's units are stored summary-only: the files of their steps, events and answers cannot
      // be rendered again from the result; they stay beside it, and are copied to another --out.
      const summaryOnly = holdsSummaryOnly(result);
      const files = renderReports(resultForWriting(result, true), formats).filter((f) => !summaryOnly || !isDetailFile(f.file));
      written = await writeReportFiles(out, files);
      if (summaryOnly) written.push(...copyDetailFiles(file, out, formats));
      // Renderings are added beside the result read: nothing of the earlier files is removed.
      markOutDir(out, written, { prune: false });
    } finally {
      lock.release();
    }
    if (flags.quiet !== true) {
      // The decision first, as a run prints it: remaking it is what `report` is for.
      if (result.recommendation !== undefined)
        process.stdout.write(`${renderTerminalRecommendation(result.recommendation, { color: useColor(process.stdout) })}\n`);
      process.stdout.write(`wrote ${written.length} files to ${givenPath(flags.out ?? dirname(file))}/\n`);
    }
  });
}

/** Reads and checks a saved result; anything unusable is an InputError naming the file. */
async function readResult(file: string): Promise<RunResult> {
  const shown = givenPath(file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError({ file: shown }, `cannot read the result file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const line = jsonErrorLine(text, error);
    throw new InputError({ file: shown, ...(line !== undefined ? { line } : {}) }, `not a JSON result file: ${(error as Error).message}`);
  }
  const version = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).schemaVersion : undefined;
  if (typeof version !== 'number' || !READABLE_SCHEMA_VERSIONS.includes(version)) {
    const found = version === undefined ? 'none' : JSON.stringify(version);
    throw new InputError({ file: shown, field: 'schemaVersion' }, `expected result schema version ${READABLE_SCHEMA_VERSIONS.join(' or ')}, found ${found}`);
  }
  parseInput(resultShape, data, { file: shown, what: 'not a ctxbench result' });
  return data as RunResult;
}

/** The line of a JSON syntax error, from the position V8 reports. */
function jsonErrorLine(text: string, error: unknown): number | undefined {
  const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  if (position === undefined) return undefined;
  return text.slice(0, Number(position)).split('\n').length;
}
