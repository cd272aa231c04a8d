import type { ProviderMode } from '../providers/types.js';
import type { RunResult, ScenarioInfo, UnitResult } from '../metrics/types.js';
import type { Scenario, StrategySpec } from '../scenario/types.js';
import type { Transcript } from '../transcript/types.js';
import { RESULT_SCHEMA_VERSION } from '../metrics/types.js';
import { expandScenarioPaths, loadScenarioFile, type LoadedScenario } from '../scenario/load.js';
import { DEFAULT_SEED, type ScenarioOverrides } from '../scenario/resolve.js';
import { applySavingVsFull } from '../metrics/summarize.js';
import { VERSION } from '../version.js';
import type { ProbeSet } from '../probes/probe-set.js';
import { displayPath } from '../paths.js';
import { formatLocation, UsageError } from '../errors.js';
import { prepareLoadedScenario } from './execute-unit.js';
import { planUnits, scenarioKey, type PlannedUnit } from './plan.js';
import { describeShard, selectShard, type ShardSpec } from './shard.js';
import { runPlannedUnits, type UnitProgress } from './workers.js';
import { preflightLiveProviders } from './preflight.js';
import type { RetrySleep } from '../sim/types.js';

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
  onUnit?: (event: { phase: 'start' | 'end'; scenario: string; strategy: string; index: number; total: number; unit?: UnitResult }) => void;
  /** Worker threads to run units on (default 1: this thread); the result does not depend on it. */
  workers?: number;
  /** Run only this slice of the planned units; the result records it (`shard`), for `merge`. */
  shard?: ShardSpec;
  /** Live mode: folder of the response cache (identical requests answered from disk); absent: none. */
  cacheDir?: string;
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
}

/** One log of a scenario that names a folder or pattern of logs, with its own probes. */
export interface PreparedLog {
  /** Absolute path of the log. */
  file: string;
  transcript: Transcript;
  probes?: ProbeSet;
}

/** A scenario ready to run: resolved, with its transcript and its probes in memory. */
export interface PreparedScenario {
  scenario: Scenario;
  /** The transcript; for a scenario of several logs, the first (its header resolved the scenario). */
  transcript: Transcript;
  /** Inline, side-file and generated probes, resolved against the transcript; none: no recall measured. */
  probes?: ProbeSet;
  /**
   * A scenario whose `transcript` is a folder or a pattern: every log, in order. Each is replayed
   * through each strategy and the unit's result combines them (engine/combine-logs.ts).
   */
  logs?: PreparedLog[];
  /** The LLM judge's rubric, when the scenario asks for the judge and has probes to judge. */
  judgeRubric?: string;
}

/**
 * Loads and validates every scenario, its transcript and its strategies before anything runs, so
 * that bad input stops the run before any work is done (and none is lost).
 */
export async function prepareScenarios(paths: string[], overrides: ScenarioOverrides = {}): Promise<PreparedScenario[]> {
  const files = await expandScenarioPaths(paths);
  const loaded: LoadedScenario[] = [];
  for (const file of files) loaded.push(await loadScenarioFile(file));
  const prepared: PreparedScenario[] = [];
  for (const l of loaded) prepared.push(await prepareLoadedScenario(l, overrides));
  return prepared;
}

/**
 * Runs every scenario × strategy unit (or the units of one shard) and returns the deterministic
 * result. The run is planned first (engine/plan.ts), then the units run on `workers` threads and
 * come back in plan order, so the result is the same whatever the number of workers.
 */
export async function runSuite(options: RunOptions): Promise<RunResult> {
  const mode = options.mode ?? 'mock';
  const overrides = options.overrides ?? {};
  const prepared = await prepareScenarios(options.scenarios, overrides);
  checkJudgeMode(prepared, overrides, mode);
  const planned = planUnits(prepared, overrides, options.specsOf);
  const units = options.shard === undefined ? planned : selectShard(planned, options.shard);
  const byKey = new Map(prepared.map((p) => [scenarioKey({ file: p.scenario.file, overrides }), p]));
  if (mode === 'live') await preflightLiveProviders(units, byKey, options);
  const results = await runPlannedUnits(units, {
    mode,
    workers: options.workers ?? 1,
    prepared: byKey,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    ...(options.retrySleep !== undefined ? { retrySleep: options.retrySleep } : {}),
    ...(options.onUnit !== undefined ? { onProgress: reportProgress(options.onUnit, units, prepared) } : {}),
  });
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    tool: { name: 'ctxbench', version: VERSION },
    seed: options.overrides?.seed ?? DEFAULT_SEED,
    mode,
    scenarios: prepared.map(({ scenario, transcript, logs }) => scenarioInfo(scenario, logs?.map((log) => log.transcript) ?? [transcript])),
    units: applySavingVsFull(results),
    ...(options.shard !== undefined ? { shard: describeShard(options.shard, planned.length, units) } : {}),
  };
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

/** Adapts pool progress to `RunOptions.onUnit`: `index` is the unit's position in this run. */
function reportProgress(onUnit: NonNullable<RunOptions['onUnit']>, units: readonly PlannedUnit[], prepared: readonly PreparedScenario[]): (event: UnitProgress) => void {
  const positions = new Map(units.map((unit, position) => [unit.index, position]));
  const names = new Map(prepared.map(({ scenario }) => [scenario.file, scenario.name]));
  return ({ phase, unit, result }) =>
    onUnit({
      phase,
      scenario: names.get(unit.scenario.file) ?? unit.scenario.file,
      strategy: unit.spec.label,
      index: positions.get(unit.index) ?? 0,
      total: units.length,
      ...(result !== undefined ? { unit: result } : {}),
    });
}

function scenarioInfo(scenario: Scenario, transcripts: readonly Transcript[]): ScenarioInfo {
  const steps = transcripts.reduce((n, t) => n + t.events.filter((e) => e.type === 'message' && e.role === 'assistant').length, 0);
  return {
    name: scenario.name,
    file: displayPath(scenario.file),
    ...(scenario.description !== undefined ? { description: scenario.description } : {}),
    transcript: scenario.transcript.kind === 'file' ? displayPath(scenario.transcript.path) : `synthetic:${JSON.stringify(scenario.transcript.options)}`,
    provider: scenario.provider,
    model: scenario.model,
    window: scenario.window,
    ...scenario.quota,
    steps,
    seed: scenario.seed,
    skippedLines: transcripts.reduce((n, t) => n + t.skipped.length, 0),
    ...(transcripts.length > 1 ? { logs: transcripts.length } : {}),
  };
}
