import type { ProviderMode } from '../contracts/provider.js';
import type { RunResult, UnitResult } from '../metrics/types.js';
import type { Scenario, StrategySpec } from '../scenario/types.js';
import { RESULT_SCHEMA_VERSION } from '../metrics/types.js';
import { distinctScenarios } from '../scenario/distinct-names.js';
import { expandScenarioPaths, loadScenarioFile, type LoadedScenario } from '../scenario/load.js';
import { DEFAULT_SEED, type ScenarioOverrides } from '../scenario/resolve.js';
import { FinishedUnits } from './finished-units.js';
import type { DecisionOptions } from '../metrics/recommend.js';
import { recommendRun } from './recommend-run.js';
import { VERSION } from '../version.js';
import { displayPath } from '../paths.js';
import { formatLocation, InputError, UsageError } from '../errors.js';
import { completeProbes, completeProbesWith, prepareLoadedScenario, type PrepareOptions } from './prepare.js';
import { planUnits, scenarioKey, type PlannedUnit } from './plan.js';
import { describeShard, planEntry, selectShard, type ShardSpec } from './shard.js';
import { corpusSizes, handShardLogs, takeShardLogs, type ShardLog } from './shard-corpora.js';
import { countSteps, scenarioInfo } from './scenario-info.js';
import { CORPUS_LOGS } from '../metrics/corpus.js';
import { runPlannedUnits, startUnitWorkers, stopUnitWorkers, type StartedWorkers, type UnitProgress } from './workers.js';
import type { ExecutorOptions } from './execute-unit.js';
import { preflightLiveProviders } from './preflight.js';
import type { RetrySleep } from '../quota/types.js';
import { fingerprintRun } from './journal.js';
import type { PreparedScenario } from './prepared-scenario.js';
import { createMemoStore, withOwnMemos } from '../memo.js';

/** A unit starting or ending, or a log of a corpus through every unit of it (`log`), for progress displays. */
export interface UnitProgressEvent {
  phase: 'start' | 'end' | 'log';
  scenario: string;
  strategy: string;
  /** The unit's position in this run (this shard's units). */
  index: number;
  /** Units in this run. */
  total: number;
  /** Units of this run finished so far, those a `--resume` took from the journal included. */
  done: number;
  /** ... of which taken from the journal, not run now. */
  resumed: number;
  /** Units of this unit's scenario in this run, and how many of them are finished. */
  scenarioTotal: number;
  scenarioDone: number;
  unit?: UnitResult;
  /** `log`: the corpus's logs through every unit of it so far, of how many (its units end after the last). */
  logs?: { done: number; total: number };
}

export interface RunOptions {
  /** Scenario files or folders. */
  scenarios: string[];
  overrides?: ScenarioOverrides;
  mode?: ProviderMode;
  /** OpenAI-compatible base URL (live mode). */
  baseUrl?: string;
  /** Environment for live keys (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Called before each unit starts and after it ends (progress display). */
  onUnit?: (event: UnitProgressEvent) => void;
  /** Worker threads to run units on (default 1: this thread); the result does not depend on it. */
  workers?: number;
  /** Run only this slice of the planned units; the result records it (`shard`), for `merge`. */
  shard?: ShardSpec;
  /**
   * A shard (`shard`) of a run with a corpus: called with each log of a corpus the shard replayed,
   * in log order once the corpus's logs are all in, and what each of its units made of it: what
   * `merge` combines the units from (the CLI writes them beside the result, cli/shard-logs.ts).
   */
  onShardLog?: (log: ShardLog) => void;
  /** Live mode: folder of the response cache (identical requests answered from disk); absent: none. */
  cacheDir?: string;
  /** Live mode: each request's time limit in ms (`--request-timeout`); absent: none. */
  requestTimeoutMs?: number;
  /** Live mode: a retry wait longer than this ends its unit at once, with the reason (`--max-retry-wait`); absent: none. */
  maxRetryWaitMs?: number;
  /** Live mode: print a line on stderr as a long retry wait starts. */
  announceWaits?: boolean;
  /**
   * False: keep no memo (`--no-memo`, docs/performance.md): every count, index and request part is
   * computed again at each use. The results are byte-identical; only the time differs. Default true.
   */
  memo?: boolean;
  /**
   * Live mode: how retries wait (default: a real sleep with jitter, measured). Given one, the units
   * run in this thread. Replays of recorded runs pass the recorded waits back here.
   */
  retrySleep?: RetrySleep;
  /**
   * The strategy specs to run on a scenario, in place of its own (a sweep's points). Called while
   * planning, before any unit runs: it may reject bad options by throwing.
   */
  specsOf?: (scenario: Scenario) => StrategySpec[];
  /**
   * Called once the run is planned, before any unit runs (the CLI locks its output folder and
   * opens its journal here). It may return results of units already finished, by plan index
   * (`--resume`): those units are not run again.
   */
  beforeUnits?: (plan: RunPlan) => Promise<ReadonlyMap<number, UnitResult> | undefined>;
  /** Called with each unit's result as soon as it finishes (the CLI journals it). */
  onUnitResult?: (index: number, result: UnitResult) => void;
  /**
   * The caller keeps each unit's whole form (`onUnitResult`, `beforeUnits`): units over a corpus of
   * logs come back summary-only (metrics/summary-only.ts), their summaries the same, so that a
   * benchmark's worth of logs is never all in memory. Default false: every unit whole.
   */
  summaryOnlyCorpus?: boolean;
  /**
   * Aborting stops starting units (worker threads drop the units in flight); the result then
   * holds the finished units and says so in `partial`, with the abort reason.
   */
  signal?: AbortSignal;
  /** What the recommendation is made under (default: metrics/recommend.ts DEFAULT_DECISION); none on a shard or a partial run. */
  decision?: DecisionOptions;
}

function executorOptionsOf(mode: ProviderMode, options: RunOptions): ExecutorOptions {
  return {
    mode,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    ...(options.retrySleep !== undefined ? { retrySleep: options.retrySleep } : {}),
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    ...(options.maxRetryWaitMs !== undefined ? { maxRetryWaitMs: options.maxRetryWaitMs } : {}),
    ...(options.announceWaits !== undefined ? { announceWaits: options.announceWaits } : {}),
    ...(options.memo !== undefined ? { memo: options.memo } : {}),
  };
}

/** The units a run will run, and a fingerprint of everything their results depend on. */
interface RunPlan {
  units: readonly PlannedUnit[];
  fingerprint: string;
}

/**
 * Loads and validates every scenario, its transcript and its strategies before anything runs, so
 * that bad input stops the run before any work is done (and none is lost).
 */
export async function prepareScenarios(paths: string[], overrides: ScenarioOverrides = {}, options: PrepareOptions = {}): Promise<PreparedScenario[]> {
  const files = await expandScenarioPaths(paths, overrides.from);
  if (files.length === 0) throw new UsageError(`nothing to run: no scenario files (.yaml, .yml, .json) in ${paths.map((p) => displayPath(p)).join(', ')}`);
  const loaded: LoadedScenario[] = [];
  for (const file of files) loaded.push(await loadScenarioFile(file, overrides.from !== undefined ? { from: overrides.from } : {}));
  const prepared: PreparedScenario[] = [];
  for (const l of distinctScenarios(loaded)) prepared.push(refuseEmpty(await prepareLoadedScenario(l, overrides, options)));
  return prepared;
}

/**
 * Runs every scenario × strategy unit (or the units of one shard) and returns the deterministic
 * result. The run is planned first (run/plan.ts), then the units run on `workers` threads and
 * come back in plan order, so the result is the same whatever the number of workers.
 */
export async function runSuite(options: RunOptions): Promise<RunResult> {
  // The memos of this thread (probe generation, units run here) are the run's own, whatever other
  // run this thread serves: bound to everything the run does here, dropped when it ends.
  return withOwnMemos(createMemoStore({ enabled: options.memo !== false }), () => startAndRun(options));
}

async function startAndRun(options: RunOptions): Promise<RunResult> {
  const mode = options.mode ?? 'mock';
  const overrides = options.overrides ?? {};
  const started = startUnitWorkers(options.workers ?? 1, executorOptionsOf(mode, options));
  try {
    return await runStarted(options, mode, overrides, started);
  } finally {
    // Threads the run did not take over (it failed before, or needed fewer) end here.
    await stopUnitWorkers(started);
  }
}

async function runStarted(options: RunOptions, mode: ProviderMode, overrides: ScenarioOverrides, started: StartedWorkers | undefined): Promise<RunResult> {
  // Generated probes are made while the first units run, unless the run needs them all first: a
  // live run checks its providers before anything runs. (A resumable run fingerprints the probes
  // given, not those generated from them: run/journal.ts.)
  const early = mode === 'live';
  const prepared = await prepareScenarios(options.scenarios, overrides, {
    deferGenerated: !early,
    ...(options.shard !== undefined ? { shard: options.shard } : {}),
  });
  checkJudgeMode(prepared, overrides, mode);
  checkContextRotMode(prepared, overrides, mode);
  const planned = planUnits(prepared, overrides, options.specsOf);
  if (planned.length === 0) throw new UsageError(`nothing to run: no strategy units in ${options.scenarios.map((p) => displayPath(p)).join(', ')}`);
  const byKey = new Map(prepared.map((p) => [scenarioKey({ file: p.scenario.file, overrides }), p]));
  const units = options.shard === undefined ? planned : selectShard(planned, options.shard, corpusSizes(byKey));
  const plan = planned.map((unit) => planEntry(byKey.get(scenarioKey(unit.scenario))?.scenario.name ?? '', unit.spec));
  // A corpus of logs one file each is known by its files' digests, and a shard read its own logs of it
  // only (steps and skipped lines of those). Of any other scenario every log, before a shard keeps its own:
  // its result describes the whole run's scenarios, and resumes only the run it began.
  const logDigests = new Map<PreparedScenario, string[]>();
  const scenarios = prepared.map((p) => {
    const digests =
      options.shard !== undefined && p.corpusFiles === undefined && (p.logs?.length ?? 0) > CORPUS_LOGS
        ? (each: string[]) => logDigests.set(p, each)
        : undefined;
    const corpus = p.corpusFiles !== undefined ? { files: p.corpusFiles } : undefined;
    return scenarioInfo(p.scenario, p.logs?.map((log) => log.transcript) ?? [p.transcript], { corpus, logDigests: digests });
  });
  const fingerprint = options.beforeUnits !== undefined ? fingerprintRun(prepared, units, mode) : '';
  const corpora = options.shard === undefined ? [] : takeShardLogs(byKey, planned, options.shard, logDigests);
  if (early) await Promise.all(prepared.map(completeProbes));
  if (mode === 'live') await preflightLiveProviders(units, byKey, options);
  const done = (await options.beforeUnits?.({ units, fingerprint })) ?? new Map<number, UnitResult>();
  const finished = new FinishedUnits(options.summaryOnlyCorpus === true);
  for (const [index, result] of done) finished.set(index, result);
  const onProgress = reportProgress(options, units, prepared, finished);
  // From here the pool holds the prepared scenarios (byKey): with worker threads it lets each go
  // once every thread has its copy, so that a corpus's logs and probes are not held once more here.
  prepared.length = 0;
  await runPlannedUnits(
    units.filter((unit) => !done.has(unit.index)),
    {
      ...executorOptionsOf(mode, options),
      workers: options.workers ?? 1,
      prepared: byKey,
      complete: (key, generate) => completeProbesWith(byKey.get(key) as PreparedScenario, generate),
      ...(started !== undefined ? { started } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      onProgress,
      ...(options.onShardLog !== undefined ? { onCorpusLogs: handShardLogs(corpora, options.onShardLog) } : {}),
      collect: false,
      release: true,
    },
  );
  const results = finished.results(units);
  const whole = options.shard === undefined && results.length === units.length;
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    tool: { name: 'ctxbench', version: VERSION },
    seed: options.overrides?.seed ?? DEFAULT_SEED,
    mode,
    scenarios,
    units: results,
    ...(options.shard !== undefined
      ? {
          shard: describeShard(
            options.shard,
            plan,
            units,
            corpora.map(({ corpus }) => corpus),
          ),
        }
      : {}),
    ...(results.length < units.length
      ? { partial: { planned: units.length, completed: results.length, reason: String(options.signal?.reason ?? 'stopped') } }
      : {}),
    ...(whole ? { recommendation: recommendRun(results, options.decision, scenarios) } : {}),
  };
}

/** A transcript without a single step (assistant message) has nothing to replay: bad input. */
function refuseEmpty(prepared: PreparedScenario): PreparedScenario {
  if (countSteps(prepared.transcript) > 0) return prepared;
  const source = prepared.scenario.transcript;
  const file = displayPath(source.kind === 'file' ? source.path : prepared.scenario.file);
  throw new InputError(
    { file, ...(source.kind === 'file' ? {} : { field: 'transcript.generate' }) },
    'the transcript has no steps (no assistant message): nothing to replay',
  );
}

/**
 * The LLM judge grades live answers only: the simulated model refuses to fake one, so a mocked
 * run that asks for it could not run as asked (a usage error, before any unit starts).
 */
function checkJudgeMode(prepared: readonly PreparedScenario[], overrides: ScenarioOverrides, mode: ProviderMode): void {
  if (mode !== 'mock') return;
  const needs = 'needs a live provider (--provider gemini or openai): the mocked simulator has no judge';
  if (overrides.judge === true) throw new UsageError(`--judge ${needs}`);
  const asking = prepared.find(({ scenario }) => scenario.judge);
  if (asking !== undefined) throw new UsageError(`${formatLocation({ file: displayPath(asking.scenario.file), field: 'judge' })}: the LLM judge ${needs}`);
}

/**
 * The context-length effect models the simulated reader (probes/context-rot.ts): a live model
 * already reads a long context as it does, and the curve would be applied on top of that.
 */
function checkContextRotMode(prepared: readonly PreparedScenario[], overrides: ScenarioOverrides, mode: ProviderMode): void {
  if (mode === 'mock') return;
  const why = 'models the simulated reader (mocked runs): a live model already reads long contexts as it does';
  if (overrides.contextRot !== undefined && overrides.contextRot !== 'off') throw new UsageError(`--context-rot ${why}`);
  const asking = prepared.find(({ scenario }) => scenario.contextRot !== undefined);
  if (asking !== undefined)
    throw new UsageError(`${formatLocation({ file: displayPath(asking.scenario.file), field: 'reader.contextRot' })}: the context-length effect ${why}`);
}

/**
 * Adapts pool progress to `RunOptions.onUnit` (`index` is the unit's position in this run) and
 * hands each result to `onUnitResult`.
 */
function reportProgress(
  options: RunOptions,
  units: readonly PlannedUnit[],
  prepared: readonly PreparedScenario[],
  finished: FinishedUnits,
): (event: UnitProgress) => void {
  const positions = new Map(units.map((unit, position) => [unit.index, position]));
  const names = new Map(prepared.map(({ scenario }) => [scenario.file, scenario.name]));
  const resumed = finished.size;
  const scenarioTotal = new Map<string, number>();
  const scenarioDone = new Map<string, number>();
  for (const unit of units) {
    scenarioTotal.set(unit.scenario.file, (scenarioTotal.get(unit.scenario.file) ?? 0) + 1);
    if (finished.has(unit.index)) scenarioDone.set(unit.scenario.file, (scenarioDone.get(unit.scenario.file) ?? 0) + 1);
  }
  return ({ phase, unit, result, logs }) => {
    const file = unit.scenario.file;
    if (result !== undefined) {
      finished.set(unit.index, result);
      scenarioDone.set(file, (scenarioDone.get(file) ?? 0) + 1);
      options.onUnitResult?.(unit.index, result);
    }
    options.onUnit?.({
      phase,
      scenario: names.get(file) ?? file,
      strategy: unit.spec.label,
      index: positions.get(unit.index) ?? 0,
      total: units.length,
      done: finished.size,
      resumed,
      scenarioTotal: scenarioTotal.get(file) ?? 0,
      scenarioDone: scenarioDone.get(file) ?? 0,
      ...(result !== undefined ? { unit: result } : {}),
      ...(logs !== undefined ? { logs } : {}),
    });
  };
}
