import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { ProviderName } from '../../contracts/provider.js';
import { runSweep } from '../../sweep/run.js';
import { renderSweepFiles, renderSweepTerminal } from '../../sweep/render.js';
import { readChartScript } from '../../report/html-chart-script.js';
import { renderReports, reporterNames } from '../../report/index.js';
import { writeReportFiles } from '../../report/write.js';
import { resultForWriting } from '../../redact/result.js';
import { checkOutDir } from '../out-dir.js';
import { DEFAULT_SEED } from '../../scenario/resolve.js';
import { displayPath } from '../../paths.js';
import { GateError, UsageError } from '../../errors.js';
import { loadPriceFile, type PriceFile } from '../../pricing/file.js';
import {
  addExamples,
  bundledSuite,
  parseChoice,
  parseList,
  parsePositiveInt,
  parseStrategyTimeout,
  STRATEGY_TIMEOUT_FLAG,
  STRATEGY_TIMEOUT_HELP,
} from '../options.js';
import { createProgress } from '../progress.js';
import { addParallelOptions, cacheDirOf } from '../parallel-options.js';

interface SweepFlags {
  grid: string[];
  sample?: number;
  seed: number;
  minRecall?: number;
  maxCrashes: number;
  maxTokens?: number;
  provider: 'mock' | ProviderName;
  baseUrl?: string;
  out: string;
  reports: string[];
  quiet?: boolean;
  workers: number;
  cache: boolean;
  cacheDir: string;
  prices?: PriceFile;
  strategyTimeout?: number;
}

export function register(program: Command): void {
  const command = program
    .command('sweep')
    .description('run one strategy over a grid (or a seeded sample) of its options; write every point, the Pareto front and a recommendation')
    .argument('[paths...]', 'scenario files or folders (default: the bundled suite)', [])
    .option(
      '--grid <axis>',
      "strategy.option=values, repeatable: a range 'a..b:step' (inclusive) or a list 'a,b,c'",
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option('--sample <n>', 'run a seeded random sample of n grid points', parsePositiveInt('--sample'))
    .option('--seed <n>', 'seed of the sample', parsePositiveInt('--seed'), DEFAULT_SEED)
    .option('--min-recall <fraction>', 'recommend only points with at least this answer recall (0..1)', parseFraction)
    .option('--max-crashes <n>', 'recommend only points with at most this many crashing scenarios', parsePositiveInt('--max-crashes'), 0)
    .option('--max-tokens <n>', 'recommend only points with at most this many total tokens', parsePositiveInt('--max-tokens'))
    .option('--provider <name>', 'mock (default), gemini or openai', parseChoice('--provider', ['mock', 'gemini', 'openai'] as const), 'mock')
    .option('--base-url <url>', 'OpenAI-compatible base URL (live openai)')
    .option('--prices <file>', 'USD per million tokens (YAML/JSON) overriding the price table, as run --prices', loadPriceFile)
    .option(STRATEGY_TIMEOUT_FLAG, STRATEGY_TIMEOUT_HELP, parseStrategyTimeout)
    .option('-o, --out <dir>', 'output folder', 'reports/sweep')
    .option('--reports <formats>', `reports of the underlying run besides sweep.* (of ${reporterNames().join(', ')})`, parseList, ['json', 'csv'])
    .option('--quiet', 'print nothing but errors');
  addParallelOptions(command).action(sweepCommand);
  addExamples(command, [
    ["ctxbench sweep --grid 'codex-rebuild.trigger=0.5..0.95:0.05'", 'ten points over the bundled suite'],
    ["ctxbench sweep s.ctx.jsonl --grid 'rolling-window.groups=2,4,8' --min-recall 0.9", 'a transcript, with a recall floor'],
  ]);
}

async function sweepCommand(paths: string[], flags: SweepFlags): Promise<void> {
  if (flags.grid.length === 0)
    throw new UsageError("sweep needs at least one --grid strategy.option=values (e.g. --grid 'codex-rebuild.trigger=0.5..0.95:0.05')");
  const progress = createProgress({ quiet: flags.quiet === true });
  const live = flags.provider !== 'mock';
  const sweep = await runSweep({
    scenarios: paths.length > 0 ? paths : bundledSuite(),
    grid: flags.grid,
    ...(flags.sample !== undefined ? { sample: { count: flags.sample, seed: flags.seed } } : {}),
    constraints: {
      maxCrashes: flags.maxCrashes,
      ...(flags.minRecall !== undefined ? { minRecall: flags.minRecall } : {}),
      ...(flags.maxTokens !== undefined ? { maxTokens: flags.maxTokens } : {}),
    },
    mode: live ? 'live' : 'mock',
    overrides: {
      ...(live ? { provider: flags.provider as ProviderName } : {}),
      ...(flags.prices !== undefined ? { prices: flags.prices } : {}),
      ...(flags.strategyTimeout !== undefined ? { strategyTimeoutMs: flags.strategyTimeout } : {}),
    },
    ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
    workers: flags.workers,
    ...cacheDirOf(flags, live),
    onUnit: progress.onUnit,
  });
  progress.done();
  const out = resolve(flags.out);
  checkOutDir(out);
  const files = [...renderSweepFiles(sweep, readChartScript()), ...renderReports(resultForWriting(sweep.run, true), flags.reports)];
  const written = await writeReportFiles(out, files);
  if (flags.quiet !== true) {
    process.stdout.write(renderSweepTerminal(sweep));
    process.stdout.write(`wrote ${written.length} files to ${displayPath(out)}/\n`);
  }
  if (sweep.recommendation.position === null) throw new GateError(`no recommendation: ${sweep.recommendation.reason}`);
}

function parseFraction(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n >= 0 && n <= 1)) throw new UsageError(`--min-recall expects a fraction between 0 and 1, got "${value}"`);
  return n;
}
