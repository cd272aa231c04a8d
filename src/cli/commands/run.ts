import type { Command } from 'commander';
import { escapeControl } from '../../control-chars.js';
import { join, resolve } from 'node:path';
import { reporterNames, resolveReporter } from '../../report/index.js';
import type { ProviderName } from '../../contracts/provider.js';
import {
  addExamples,
  bundledSuite,
  parseChoice,
  parseList,
  parseScenarioFlag,
  parseStrategyTimeout,
  STRATEGY_TIMEOUT_FLAG,
  STRATEGY_TIMEOUT_HELP,
  addRequestTimeoutOption,
  addMaxRetryWaitOption,
} from '../options.js';
import { GateError, UsageError } from '../../errors.js';
import { deadProviderReasons, providerFaultReasons, strategyCrashReasons } from '../../metrics/crash-reasons.js';
import { isCorpus } from '../../metrics/corpus.js';
import { loadPriceFile, type PriceFile } from '../../pricing/file.js';
import { parseShard, type ShardSpec } from '../../run/shard.js';
import { checkAndReport } from '../check-report.js';
import { addParallelOptions } from '../parallel-options.js';
import { requestOfJournal, runSession, type CliDeps, type RunRequest } from '../run-session.js';
import { describeAdHocScenarios } from '../ad-hoc-note.js';
import { getImporter } from '../../transcript/importers/index.js';
import { addScenarioOptions, scenarioOverridesOf, type ScenarioFlags } from '../scenario-options.js';
import { addDecisionOptions, decisionOf, type DecisionFlags } from '../decision-options.js';
import { parseSettings } from '../../sweep/settings.js';
import { CONTEXT_ROT_NAMES } from '../../scenario/context-rot.js';

interface RunFlags extends ScenarioFlags, DecisionFlags {
  strategies?: string[];
  strategyModule?: string[];
  set?: string[];
  provider: 'mock' | ProviderName;
  seed?: number;
  out: string;
  judge?: boolean;
  contextRot?: string;
  baseUrl?: string;
  reports?: string[];
  quiet?: boolean;
  workers: number;
  memo: boolean;
  shard?: ShardSpec;
  cache: boolean;
  cacheDir: string;
  baseline?: string;
  requireFloor?: boolean;
  checkConfig?: string;
  record?: string;
  replay?: string;
  redact: boolean;
  resume?: string;
  prices?: PriceFile;
  strategyTimeout?: number;
  requestTimeout: number;
  maxRetryWait: number;
}

/** Flags that may go with --resume: how to run and what to do after, not what to run (the journal says). */
const RESUME_FLAGS = new Set([
  'resume',
  'workers',
  'memo',
  'quiet',
  'cache',
  'cacheDir',
  'baseline',
  'requireFloor',
  'checkConfig',
  'requestTimeout',
  'maxRetryWait',
]);

/** `deps.retrySleep`: how a live run's retries wait (tests pass one that records the waits). */
export function register(program: Command, deps: CliDeps = {}): void {
  const command = program
    .command('run')
    .description('replay scenarios through strategies and write reports (default: the bundled suite, mocked providers)')
    .argument('[paths...]', 'scenario files or folders, or transcripts (any log `import` reads): each runs as an ad-hoc scenario, printed first')
    .option('--strategies <names>', 'comma-separated strategy names or labels', parseList)
    .option(
      '--strategy-module <path>',
      'a strategy module of your own (repeatable; docs/strategy-api.md): run beside --strategies, else alone',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--set <strategy.option=value>',
      'a strategy option for the run, repeatable (the --grid grammar of sweep, one value; see ctxbench strategies)',
      (value: string, all: string[] = []) => [...all, value],
    )
    .option(
      '--provider <name>',
      'mock (default), gemini or openai (live: needs GEMINI_API_KEY / OPENAI_API_KEY)',
      parseChoice('--provider', ['mock', 'gemini', 'openai'] as const),
      'mock',
    )
    .option('--seed <n>', "seed for every scenario (default: each scenario's, else 42)", parseScenarioFlag('--seed', 'seed'))
    .option('-o, --out <dir>', 'output folder (locked while the run writes to it)', 'reports/latest')
    .option(STRATEGY_TIMEOUT_FLAG, STRATEGY_TIMEOUT_HELP, parseStrategyTimeout)
    .option('--judge', 'live providers: also score every probe answer with the LLM judge (docs/judge-rubric.md)')
    .option(
      '--context-rot <curve>',
      'a context-length effect on the simulated reader, reported apart as answer_recall_rot: off, nolima, ruler or <benchmark>:<model> (docs/probes.md)',
      parseChoice('--context-rot', ['off', ...CONTEXT_ROT_NAMES]),
    )
    .option('--base-url <url>', 'live providers: another endpoint (an OpenAI-compatible server, a Gemini proxy)')
    .option('--record <file>', "live providers: save the run's HTTP exchanges and waits as a cassette (keys scrubbed)")
    .option('--replay <file>', 'live providers: re-run a recorded cassette offline (no key needed)')
    .option('--reports <formats>', `report formats (default: all of ${reporterNames().join(', ')})`, parseList)
    .option('--quiet', 'print nothing but errors')
    .option(
      '--shard <i/n>',
      'run only the i-th of n slices of the units, a corpus every n-th of its logs (merge the results with ctxbench merge)',
      (value: string) => parseShard(value),
    )
    .option('--baseline <file>', 'after the run, check it against this baseline result.json (exit 1 on a regression)')
    .option('--check-config <file>', 'check config for --baseline')
    .option('--require-floor', 'exit 1 when no strategy meets the recall floor (the answer is still printed); --baseline implies it')
    .option(
      '--prices <file>',
      "USD per million tokens (YAML/JSON) overriding the price table and the scenarios' prices: {input, output, cachedInput?, cacheWrite?} or {models: {<model>: {...}}}",
      loadPriceFile,
    )
    .option('--no-redact', 'write secrets found in transcripts as they are (the reports say so)')
    .option('--resume <dir>', 'finish the interrupted run whose output folder is <dir>: run only its missing units');
  addMaxRetryWaitOption(addRequestTimeoutOption(addParallelOptions(addDecisionOptions(addScenarioOptions(command))))).action(
    (given: string[] | undefined, flags: RunFlags, command: Command) => runCommand(given, flags, command, deps),
  );
  addExamples(command, [
    ['ctxbench run', 'the bundled suite, mocked providers'],
    ['ctxbench run scenarios/published/', 'every scenario under a folder'],
    ['ctxbench run session.ctx.jsonl', 'a transcript: runs as the ad-hoc scenario it prints first'],
    ['ctxbench run ~/.claude/projects/p/s.jsonl --strategies full,rolling-window', 'a raw agent log (format detected as by import)'],
    ['ctxbench run log.json --from openai-messages', 'name the format when detection cannot tell'],
    ['ctxbench run s.ctx.jsonl --set rolling-window.groups=6', 'a strategy option, as sweep --grid writes it'],
    ['ctxbench run s.ctx.jsonl --provider gemini --window 200000 --tpm 1000000', 'live, with a smaller window and a quota'],
  ]);
}

async function runCommand(given: string[] | undefined, flags: RunFlags, command: Command, deps: CliDeps): Promise<void> {
  const paths = given ?? [];
  const quiet = flags.quiet === true;
  const resume = flags.resume !== undefined;
  if (resume) refuseWithResume(paths, command);
  const out = flags.resume ?? flags.out;
  const request = resume ? requestOfJournal(resolve(out)) : requestOf(paths, flags);
  if (!resume && !quiet) process.stdout.write(escapeControl(await describeAdHocScenarios(paths, request.overrides, flags.strategies ?? [])));
  const result = await runSession(request, {
    out,
    workers: flags.workers,
    memo: flags.memo,
    quiet,
    resume,
    requestTimeoutMs: flags.requestTimeout * 1000,
    maxRetryWaitMs: flags.maxRetryWait * 1000,
    ...(deps.retrySleep !== undefined ? { retrySleep: deps.retrySleep } : {}),
  });
  if (flags.baseline !== undefined) {
    if (!quiet) process.stdout.write('\n');
    // A corpus's units came back summary-only: the check pairs steps and answers, so it reads them from result.json.
    const current = isCorpus(result.units) ? join(resolve(out), 'result.json') : result;
    await checkAndReport(current, flags.baseline, { quiet, ...(flags.checkConfig !== undefined ? { config: flags.checkConfig } : {}) });
  }
  // A strategy that failed (threw, hung, built a context the provider refuses) fails the run: CI must see it.
  // So does a live provider that broke mid-run (a malformed body, no answer in time): nothing was measured.
  for (const [reasons, cause] of [
    [strategyCrashReasons(result.units), 'a strategy error'],
    [providerFaultReasons(result.units), 'a provider fault'],
  ] as const) {
    const first = reasons[0];
    if (first === undefined) continue;
    const more = reasons.length > 1 ? ` (and ${reasons.length - 1} more)` : '';
    throw new GateError(
      `${reasons.length} unit${reasons.length === 1 ? '' : 's'} crashed for ${cause}: ${first.strategy} on ${first.scenario}: ${first.text}${more}`,
    );
  }
  // So does a live run whose every unit a provider fault ended (a 500 or a 429 on every call): a dead provider never passes.
  const dead = result.mode === 'live' ? deadProviderReasons(result.units) : [];
  if (dead[0] !== undefined) {
    const more = dead.length > 1 ? ` (and ${dead.length - 1} more)` : '';
    throw new GateError(
      `every unit (${dead.length}) crashed for a provider fault, so nothing was measured: ${dead[0].strategy} on ${dead[0].scenario}: ${dead[0].text}${more}`,
    );
  }
  // A gate (CI) asks that what is shipped meets the floor; a plain run exits 0 with the answer.
  const recommendation = result.recommendation;
  if ((flags.requireFloor === true || flags.baseline !== undefined) && recommendation !== undefined && !recommendation.meetsFloor)
    throw new GateError(`the recall floor is not met: ${recommendation.reason}`);
}

/** --resume runs what the journal says: paths or flags that would change the run are refused. */
function refuseWithResume(paths: string[], command: Command): void {
  if (paths.length > 0) throw new UsageError(`--resume takes the scenarios from the run's journal: drop ${paths.join(' ')}`);
  const given = Object.keys(command.opts()).filter((name) => command.getOptionValueSource(name) === 'cli' && !RESUME_FLAGS.has(name));
  if (given.length > 0)
    throw new UsageError(
      `--resume runs the interrupted run as it was started: drop ${given.map((name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')}`,
    );
}

function requestOf(paths: string[], flags: RunFlags): RunRequest {
  for (const name of flags.reports ?? []) resolveReporter(name);
  if (flags.from !== undefined) getImporter(flags.from);
  parseSettings(flags.set ?? []);
  const live = flags.provider !== 'mock';
  return {
    scenarios: (paths.length > 0 ? paths : bundledSuite()).map((path) => resolve(path)),
    mode: live ? 'live' : 'mock',
    ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
    overrides: {
      ...scenarioOverridesOf(flags, live ? (flags.provider as ProviderName) : undefined),
      ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
      ...(flags.judge === true ? { judge: true } : {}),
      ...(flags.contextRot !== undefined ? { contextRot: flags.contextRot } : {}),
      ...(flags.strategies !== undefined ? { strategies: flags.strategies } : {}),
      ...(flags.prices !== undefined ? { prices: flags.prices } : {}),
      ...(flags.strategyModule !== undefined ? { strategyModules: flags.strategyModule.map((path) => resolve(path)) } : {}),
      ...(flags.strategyTimeout !== undefined ? { strategyTimeoutMs: flags.strategyTimeout } : {}),
    },
    decision: decisionOf(flags),
    ...(flags.set !== undefined && flags.set.length > 0 ? { set: flags.set } : {}),
    ...(flags.shard !== undefined ? { shard: flags.shard } : {}),
    ...(flags.reports !== undefined ? { reports: flags.reports } : {}),
    redact: flags.redact,
    ...(flags.record !== undefined ? { record: resolve(flags.record) } : {}),
    ...(flags.replay !== undefined ? { replay: resolve(flags.replay) } : {}),
    ...(live && flags.cache ? { cacheDir: resolve(flags.cacheDir) } : {}),
  };
}
