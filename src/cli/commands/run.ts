import type { Command } from 'commander';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { runSuite } from '../../engine/run-suite.js';
import { renderReports, reporterNames } from '../../report/index.js';
import { writeReportFiles } from '../../report/write.js';
import { renderTerminalTable } from '../../report/terminal.js';
import type { ProviderName } from '../../providers/types.js';
import { bundledSuite, parseChoice, parseList, parsePositiveInt, useColor } from '../options.js';
import { UsageError } from '../../errors.js';
import { createProgress } from '../progress.js';
import { displayPath } from '../../paths.js';
import { parseShard, type ShardSpec } from '../../engine/shard.js';
import { DEFAULT_CACHE_DIR } from '../../providers/cache.js';
import { checkAndReport } from './check.js';

interface RunFlags {
  strategies?: string[];
  provider: 'mock' | ProviderName;
  providerFormat?: ProviderName;
  model?: string;
  window?: number;
  tpm?: number;
  rpm?: number;
  seed?: number;
  out: string;
  onCrash?: 'stop' | 'continue';
  lenient?: boolean;
  judge?: boolean;
  baseUrl?: string;
  reports?: string[];
  quiet?: boolean;
  workers: number;
  shard?: ShardSpec;
  cache: boolean;
  cacheDir: string;
  baseline?: string;
  checkConfig?: string;
  record?: string;
  replay?: string;
}

/** Flags `run` and `sweep` share: worker threads and the live response cache. */
export function addParallelOptions(command: Command): Command {
  return command
    .option('--workers <n>', 'worker threads (default: the machine\'s cores); the result does not depend on it', parseWorkers, availableParallelism())
    .option('--no-cache', 'live providers: do not answer identical requests from the response cache')
    .option('--cache-dir <dir>', 'live providers: response cache folder', DEFAULT_CACHE_DIR);
}

/** The cache folder to pass to the library: live runs only, unless --no-cache. */
export function cacheDirOf(flags: { cache: boolean; cacheDir: string }, live: boolean): { cacheDir?: string } {
  return live && flags.cache ? { cacheDir: resolve(flags.cacheDir) } : {};
}

function parseWorkers(value: string): number {
  const n = parsePositiveInt('--workers')(value);
  if (n < 1) throw new UsageError(`--workers expects at least 1, got "${value}"`);
  return n;
}

export function register(program: Command): void {
  const command = program
    .command('run')
    .description('replay scenarios through strategies and write reports (default: the bundled suite, mocked providers)')
    .argument('[paths...]', 'scenario files or folders', [])
    .option('--strategies <names>', 'comma-separated strategy names or labels', parseList)
    .option('--provider <name>', 'mock (default), gemini or openai (live: needs GEMINI_API_KEY / OPENAI_API_KEY)', parseChoice('--provider', ['mock', 'gemini', 'openai'] as const), 'mock')
    .option('--provider-format <name>', 'provider format in mocked mode (default: the scenario\'s)', parseChoice('--provider-format', ['gemini', 'openai'] as const))
    .option('--model <name>', 'model name for every scenario')
    .option('--window <tokens>', 'context window for every scenario', parsePositiveInt('--window'))
    .option('--tpm <tokens>', 'tokens-per-minute quota for every scenario', parsePositiveInt('--tpm'))
    .option('--rpm <requests>', 'requests-per-minute quota for every scenario', parsePositiveInt('--rpm'))
    .option('--seed <n>', 'seed for every scenario (default: each scenario\'s, else 42)', parsePositiveInt('--seed'))
    .option('--out <dir>', 'output folder', 'reports/latest')
    .option('--on-crash <mode>', 'stop (default) or continue after an unrecovered crash', parseChoice('--on-crash', ['stop', 'continue'] as const))
    .option('--lenient', 'skip invalid transcript lines and count them')
    .option('--judge', 'live providers: also score every probe answer with the LLM judge (docs/judge-rubric.md)')
    .option('--base-url <url>', 'live providers: another endpoint (an OpenAI-compatible server, a Gemini proxy)')
    .option('--record <file>', 'live providers: save the run\'s HTTP exchanges and waits as a cassette (keys scrubbed)')
    .option('--replay <file>', 'live providers: re-run a recorded cassette offline (no key needed)')
    .option('--reports <formats>', `report formats (default: all of ${reporterNames().join(', ')})`, parseList)
    .option('--quiet', 'print nothing but errors')
    .option('--shard <i/n>', 'run only the i-th of n slices of the units (merge the results with ctxbench merge)', (value: string) => parseShard(value))
    .option('--baseline <file>', 'after the run, check it against this baseline result.json (exit 1 on a regression)')
    .option('--check-config <file>', 'check config for --baseline');
  addParallelOptions(command).action(runCommand);
}

async function runCommand(paths: string[], flags: RunFlags): Promise<void> {
  const started = performance.now();
  const progress = createProgress({ quiet: flags.quiet === true });
  const live = flags.provider !== 'mock';
  const provider = live ? (flags.provider as ProviderName) : flags.providerFormat;
  // Loaded only for --record/--replay: the cassettes use nock, which patches the process's HTTP.
  const cassette =
    flags.record === undefined && flags.replay === undefined ? undefined : await (await import('../cassette.js')).openCassette(flags, live ? provider : undefined, flags.baseUrl);
  const result = await runSuite({
    scenarios: paths.length > 0 ? paths : [bundledSuite()],
    mode: live ? 'live' : 'mock',
    ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
    overrides: {
      ...(provider !== undefined ? { provider } : {}),
      ...(flags.model !== undefined ? { model: flags.model } : {}),
      ...(flags.window !== undefined ? { window: flags.window } : {}),
      ...(flags.tpm !== undefined ? { tpm: flags.tpm } : {}),
      ...(flags.rpm !== undefined ? { rpm: flags.rpm } : {}),
      ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
      ...(flags.onCrash !== undefined ? { onCrash: flags.onCrash } : {}),
      ...(flags.lenient === true ? { lenient: true } : {}),
      ...(flags.judge === true ? { judge: true } : {}),
      ...(flags.strategies !== undefined ? { strategies: flags.strategies } : {}),
    },
    onUnit: progress.onUnit,
    workers: flags.workers,
    ...(flags.shard !== undefined ? { shard: flags.shard } : {}),
    // A recording must see every request, and a replay must not be answered from elsewhere.
    ...(cassette === undefined ? cacheDirOf(flags, live) : {}),
    ...cassette?.runOptions,
  }).catch(async (error: unknown) => {
    await cassette?.close(false);
    throw error;
  });
  progress.done();
  await cassette?.close(true);
  const written = await writeReportFiles(resolve(flags.out), renderReports(result, flags.reports));
  const quiet = flags.quiet === true;
  if (!quiet) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const shard = result.shard === undefined ? '' : ` · shard ${result.shard.index}/${result.shard.count} (${result.units.length} of ${result.shard.planned} units)`;
    process.stdout.write(`ctxbench ${result.tool.version} · seed ${result.seed} · ${result.mode} providers${shard}\n\n`);
    process.stdout.write(renderTerminalTable(result, { color: useColor(process.stdout), width: process.stdout.columns ?? 120 }));
    process.stdout.write(`\n${result.units.length} runs in ${seconds} s · wrote ${written.length} files to ${displayPath(resolve(flags.out))}/\n`);
  }
  if (flags.baseline !== undefined) {
    if (!quiet) process.stdout.write('\n');
    await checkAndReport(result, flags.baseline, { quiet, ...(flags.checkConfig !== undefined ? { config: flags.checkConfig } : {}) });
  }
}
