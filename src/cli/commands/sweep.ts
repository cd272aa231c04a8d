import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { ProviderName } from '../../contracts/provider.js';
import { runSweep } from '../../sweep/run.js';
import { renderSweepFiles, renderSweepTerminal } from '../../sweep/render.js';
import { readChartScript } from '../../report/html-chart-script.js';
import { renderReports, reporterNames } from '../../report/index.js';
import { writeReportFiles } from '../../report/write.js';
import { resultForWriting } from '../../redact/result.js';
import { checkOutDir, lockOutDir, refuseHeldOutDir } from '../out-dir.js';
import { DEFAULT_SEED } from '../../scenario/resolve.js';
import { givenPath } from '../../paths.js';
import { GateError, UsageError } from '../../errors.js';
import { loadPriceFile, type PriceFile } from '../../pricing/file.js';
import {
  addExamples,
  bundledSuite,
  addDeprecatedOption,
  parseChoice,
  parseList,
  parsePositiveInt,
  parseStrategyTimeout,
  STRATEGY_TIMEOUT_FLAG,
  STRATEGY_TIMEOUT_HELP,
  addRequestTimeoutOption,
  addMaxRetryWaitOption,
} from '../options.js';
import { createProgress } from '../progress.js';
import { addParallelOptions, cacheDirOf } from '../parallel-options.js';
import { addScenarioOptions, scenarioOverridesOf, type ScenarioFlags } from '../scenario-options.js';
import { addDecisionOptions, decisionOf, type DecisionFlags } from '../decision-options.js';

interface SweepFlags extends ScenarioFlags, DecisionFlags {
  grid?: string[];
  sample?: number;
  sampleSeed?: number;
  seed?: number;
  front: 'cost' | 'tokens';
  provider: 'mock' | ProviderName;
  requestTimeout: number;
  maxRetryWait: number;
  baseUrl?: string;
  out: string;
  reports: string[];
  quiet?: boolean;
  workers: number;
  memo: boolean;
  cache: boolean;
  cacheDir: string;
  prices?: PriceFile;
  strategyTimeout?: number;
}

export function register(program: Command): void {
  const command = program
    .command('sweep')
    .description(
      'run strategies over grids (or a seeded sample) of their options, and full as the reference; write every point ranked, the Pareto front and a recommendation',
    )
    .argument('[paths...]', 'scenario files or folders (default: the bundled suite)')
    .option('--grid <axis>', "strategy.option=values, repeatable: a range 'a..b:step' (inclusive) or a list 'a,b,c'", (value: string, all: string[] = []) => [
      ...all,
      value,
    ])
    .option('--sample <n>', 'run a seeded random sample of n grid points', parsePositiveInt('--sample'))
    .option('--sample-seed <n>', `seed of the sample (default ${DEFAULT_SEED})`, parsePositiveInt('--sample-seed'))
    .option('--front <axis>', "the front's spending axis against recall: cost (default) or tokens", parseChoice('--front', ['cost', 'tokens'] as const), 'cost')
    .option('--provider <name>', 'mock (default), gemini or openai', parseChoice('--provider', ['mock', 'gemini', 'openai'] as const), 'mock')
    .option('--base-url <url>', 'OpenAI-compatible base URL (live openai)')
    .option('--prices <file>', 'USD per million tokens (YAML/JSON) overriding the price table, as run --prices', loadPriceFile)
    .option(STRATEGY_TIMEOUT_FLAG, STRATEGY_TIMEOUT_HELP, parseStrategyTimeout)
    .option('-o, --out <dir>', 'output folder', 'reports/sweep')
    .option('--reports <formats>', `reports of the underlying run besides sweep.* (of ${reporterNames().join(', ')})`, parseList, ['json', 'csv'])
    .option('--quiet', 'print nothing but errors');
  addDeprecatedOption(command, '--seed <n>', '--sample-seed', parsePositiveInt('--seed'));
  addMaxRetryWaitOption(addRequestTimeoutOption(addParallelOptions(addDecisionOptions(addScenarioOptions(command))))).action(sweepCommand);
  addExamples(command, [
    ["ctxbench sweep --grid 'codex-rebuild.trigger=0.5..0.95:0.05'", 'ten points over the bundled suite'],
    [
      "ctxbench sweep log.jsonl --window 100000 --grid 'codex-rebuild.trigger=0.5,0.9' --grid 'observation-masking.keepLast=5,20'",
      'two strategies in one sweep, on a log, with a smaller window',
    ],
    ["ctxbench sweep s.ctx.jsonl --grid 'rolling-window.groups=2,4,8' --min-recall 0.9", 'a transcript, with an absolute recall floor'],
  ]);
}

async function sweepCommand(given: string[] | undefined, flags: SweepFlags): Promise<void> {
  const paths = given ?? [];
  const grid = flags.grid ?? [];
  if (grid.length === 0) throw new UsageError("sweep needs at least one --grid strategy.option=values (e.g. --grid 'codex-rebuild.trigger=0.5..0.95:0.05')");
  const out = resolve(flags.out);
  checkOutDir(out);
  refuseHeldOutDir(out);
  const progress = createProgress({ quiet: flags.quiet === true });
  const live = flags.provider !== 'mock';
  const sampleSeed = flags.sampleSeed ?? flags.seed ?? DEFAULT_SEED;
  const sweep = await runSweep({
    scenarios: paths.length > 0 ? paths : bundledSuite(),
    grid,
    ...(flags.sample !== undefined ? { sample: { count: flags.sample, seed: sampleSeed } } : {}),
    decision: decisionOf(flags),
    front: flags.front,
    mode: live ? 'live' : 'mock',
    overrides: {
      ...scenarioOverridesOf(flags, live ? (flags.provider as ProviderName) : undefined),
      ...(flags.prices !== undefined ? { prices: flags.prices } : {}),
      ...(flags.strategyTimeout !== undefined ? { strategyTimeoutMs: flags.strategyTimeout } : {}),
    },
    ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
    workers: flags.workers,
    ...(flags.memo ? {} : { memo: false }),
    requestTimeoutMs: flags.requestTimeout * 1000,
    maxRetryWaitMs: flags.maxRetryWait * 1000,
    announceWaits: flags.quiet !== true,
    ...cacheDirOf(flags, live),
    onUnit: progress.onUnit,
  });
  progress.done();
  const files = [...renderSweepFiles(sweep, readChartScript()), ...renderReports(resultForWriting(sweep.run, true), flags.reports)];
  const lock = lockOutDir(out);
  let written: string[];
  try {
    written = await writeReportFiles(out, files);
  } finally {
    lock.release();
  }
  if (flags.quiet !== true) {
    process.stdout.write(renderSweepTerminal(sweep));
    process.stdout.write(`wrote ${written.length} files to ${givenPath(flags.out)}/\n`);
  }
  if (sweep.recommendation.strategy === null) throw new GateError(`no recommendation: ${sweep.recommendation.reason}`);
  if (!sweep.recommendation.meetsFloor) throw new GateError(`the floor is not met: ${sweep.recommendation.reason}`);
}
