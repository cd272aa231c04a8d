import { dirname } from 'node:path';
import { tokenizerForModel } from '../tokens/tokenizer.js';
import type { ProviderMode } from '../contracts/provider.js';
import type { UnitResult } from '../metrics/types.js';
import type { Tokenizer } from '../tokens/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { ScenarioOverrides } from '../scenario/resolve.js';
import type { PreparedLog, PreparedScenario } from './prepared-scenario.js';
import type { Scenario } from '../scenario/types.js';
import { InputError } from '../errors.js';
import type { Transcript } from '../transcript/types.js';
import { importClaudeSidechains } from '../transcript/claude-sidechains.js';
import { displayPath } from '../paths.js';
import { createLogCombiner } from './combine-logs.js';
import { CORPUS_LOGS } from '../metrics/corpus.js';
import { createMemoStore, currentMemoStore, withMemoStore, type MemoStore } from '../memo.js';
import type { PlannedUnit, ScenarioRef } from './plan.js';
import { listTranscriptLogs, loadScenarioFile } from '../scenario/load.js';
import { resolveScenario, scenarioSeed, transcriptSource } from '../scenario/resolve.js';
import { loadTranscript } from '../scenario/load-transcript.js';
import { createProvider } from '../providers/index.js';
import { createSimulator } from '../simulator/transport.js';
import { createResponseCache, type ResponseCache } from '../providers/cache.js';
import { createLiveSleep } from '../providers/live-sleep.js';
import { redactValue } from '../redact/index.js';
import type { RetrySleep } from '../quota/types.js';
import { joinGenerated, loadGivenProbes, loadJudgeRubric, mayClashWithGenerated, withGeneratedProbes } from '../probes/load.js';
import type { GenerateOptions } from '../probes/generate.js';
import type { Probe } from '../transcript/types.js';
import { createProbeObserver } from '../replay/probe-observer.js';
import { prepareProbeSet } from '../probes/probe-set.js';
import { extractNeededUses } from '../probes/needed/extract.js';
import { resolveStrategy } from '../replay/resolve-strategy.js';
import { loadStrategyModules } from '../strategies/external/module-loader.js';
import { runUnit } from '../replay/run-unit.js';
import { scenarioKey } from './plan.js';

/** How units are run; plain data (but `retrySleep`), so a worker thread receives it as it is. */
export interface ExecutorOptions {
  mode: ProviderMode;
  /** OpenAI-compatible base URL (live mode). */
  baseUrl?: string;
  /** Environment for live keys (default: the thread's process.env). */
  env?: Record<string, string | undefined>;
  /** Live mode: folder of the on-disk response cache; absent: no cache. */
  cacheDir?: string;
  /** Live mode: each request's time limit in ms (`--request-timeout`); absent: none. */
  requestTimeoutMs?: number;
  /** Live mode: a retry wait longer than this ends the unit at once, with the reason (`--max-retry-wait`). */
  maxRetryWaitMs?: number;
  /** Live mode: print a line on stderr while a retry waits (not with `--quiet`). */
  announceWaits?: boolean;
  /** False: the run keeps no memo (memo.ts); the results are the same. Default true. */
  memo?: boolean;
  /**
   * Live mode: the run's stop signal, which aborts the requests and retry waits in flight. Not
   * plain data, so never sent to a worker thread (threads are stopped instead).
   */
  signal?: AbortSignal;
  /**
   * Live mode: how retries wait (default: a real, jittered, measured sleep). A function, so never
   * sent to a worker thread: runs given one stay in this thread.
   */
  retrySleep?: RetrySleep;
}

/** Runs planned units one at a time, preparing (once) each scenario it meets. */
export interface UnitExecutor {
  run(unit: PlannedUnit): Promise<UnitResult>;
  /**
   * Every unit of `units` (units of one corpus, in plan order) over that corpus's log `index`,
   * one after another while what they memoize of the log is warm, which is emptied after the last:
   * each result is what `run` of its unit makes of that log, which `createLogCombiner` puts
   * together in log order (run/corpus-units.ts).
   */
  runLog(units: readonly PlannedUnit[], index: number, log: PreparedLog): Promise<UnitResult[]>;
}

/** How a scenario is prepared. */
export interface PrepareOptions {
  /**
   * Leave `probes: generate` for `completeProbes` (run-suite.ts generates them while the first
   * units run): generating is derived work that cannot meet bad input, and it was most of the
   * serial start of a run. A scenario whose own probe ids could clash with generated ones still
   * generates at once, so that the clash stops the run before anything runs.
   */
  deferGenerated?: boolean;
}

/**
 * Generates the probes of one log elsewhere (a worker thread, run/workers.ts): `generateProbes` of
 * the transcript with the scenario's `probes: generate` options, the same probes.
 */
export type ProbeGenerator = (transcript: Transcript, options: GenerateOptions) => Promise<Probe[]>;

/** Scenarios whose generated probes were left for later: what makes them, and the making once begun. */
const deferredProbes = new WeakMap<PreparedScenario, { finish: (generate?: ProbeGenerator) => Promise<void>; done?: Promise<void> }>();

/**
 * Resolves a loaded scenario against its transcript, validates its strategies and resolves its
 * probes: everything a unit of it needs, in memory (but generated probes, with `deferGenerated`).
 */
export async function prepareLoadedScenario(loaded: LoadedScenario, overrides: ScenarioOverrides, options: PrepareOptions = {}): Promise<PreparedScenario> {
  const seed = scenarioSeed(loaded, overrides);
  const source = transcriptSource(loaded, overrides);
  const logFiles = loaded.logFiles ?? (source.kind === 'file' ? await listTranscriptLogs(source.path, loaded.file, source.format) : undefined);
  const withSidechains = loaded.data.sidechains === 'include';
  if (source.kind === 'file' && (logFiles !== undefined || withSidechains)) {
    const logs = await loadLogs(loaded.file, logFiles ?? [source.path], { lenient: source.lenient, withSidechains, format: source.format });
    return prepareLogs(loaded, overrides, logs, options);
  }
  const transcript = await loadTranscript(source, seed);
  const scenario = resolveScenario(loaded, transcript, overrides);
  await loadStrategyModules(scenario.strategies, scenario.file);
  for (const spec of scenario.strategies) resolveStrategy(spec, scenario.file);
  const given = await loadGivenProbes(scenario, transcript);
  const prepared: PreparedScenario = { scenario, transcript, ...(given.length > 0 ? { givenProbes: given } : {}) };
  const finish = async (): Promise<void> => {
    const probes = withGeneratedProbes(scenario, transcript, given);
    if (probes.length === 0) return;
    prepared.probes = prepareProbeSet(transcript, probes, extractNeededUses(transcript));
    if (scenario.judge) prepared.judgeRubric = await loadJudgeRubric();
  };
  return settle(prepared, finish, defers(scenario, [given], options));
}

/** Whether a scenario's generated probes wait for `completeProbes`. */
const defers = (scenario: Scenario, given: readonly Probe[][], options: PrepareOptions): boolean =>
  options.deferGenerated === true && scenario.probesGenerate !== undefined && !given.some(mayClashWithGenerated);

async function settle(prepared: PreparedScenario, finish: (generate?: ProbeGenerator) => Promise<void>, defer: boolean): Promise<PreparedScenario> {
  if (defer) deferredProbes.set(prepared, { finish });
  else await finish();
  return prepared;
}

/**
 * Makes the probes `prepareLoadedScenario` left for later (none: nothing to do), once however many
 * ask; a scenario of several logs yields to the event loop between them, so that a thread waiting
 * for its next unit is not held up. With `generate`, a scenario of several logs has its logs'
 * probes generated there (worker threads, each log as one is free) and resolves them here.
 */
export function completeProbes(prepared: PreparedScenario): Promise<void> {
  return completeProbesWith(prepared, undefined);
}

/** `completeProbes`, a scenario of several logs generating its logs' probes with `generate` (none: here). */
export function completeProbesWith(prepared: PreparedScenario, generate: ProbeGenerator | undefined): Promise<void> {
  const deferred = deferredProbes.get(prepared);
  if (deferred === undefined) return Promise.resolve();
  deferred.done ??= deferred.finish(generate);
  return deferred.done;
}

/**
 * A scenario of several logs: each is loaded and gets its own probes; the first log's header
 * resolves the scenario (provider, model), so the logs of one scenario should come from one agent.
 */
async function prepareLogs(
  loaded: LoadedScenario,
  overrides: ScenarioOverrides,
  loadedLogs: { file: string; transcript: Transcript }[],
  options: PrepareOptions,
): Promise<PreparedScenario> {
  const logs: PreparedLog[] = [];
  const given: Probe[][] = [];
  let scenario: Scenario | undefined;
  for (const { file, transcript } of loadedLogs) {
    scenario ??= resolveScenario(loaded, transcript, overrides);
    if (scenario.probesFile !== undefined) {
      throw new InputError({ file: loaded.file, field: 'probes' }, 'a probe file answers one transcript; a scenario of several logs takes `probes: generate`');
    }
    given.push(await loadGivenProbes(scenario, transcript));
    logs.push({ file, transcript });
  }
  const first = logs[0];
  if (scenario === undefined || first === undefined) throw new InputError({ file: loaded.file, field: 'transcript' }, 'no transcript to replay');
  await loadStrategyModules(scenario.strategies, scenario.file);
  for (const spec of scenario.strategies) resolveStrategy(spec, scenario.file);
  const resolved = scenario;
  const prepared: PreparedScenario = { scenario, transcript: first.transcript, logs };
  const finish = async (generate?: ProbeGenerator): Promise<void> => {
    // Every log's generation is asked for at once (the threads take them in turn); each log's set is resolved here in order.
    const options = resolved.probesGenerate;
    const generated = generate === undefined || options === undefined ? undefined : logs.map((log) => generate(log.transcript, options));
    // A failure is raised where its log is awaited; the logs after it are then not awaited at all.
    for (const pending of generated ?? []) pending.catch(() => undefined);
    for (const [i, log] of logs.entries()) {
      const made = generated?.[i];
      const probes = made === undefined ? withGeneratedProbes(resolved, log.transcript, given[i] ?? []) : joinGenerated(resolved, given[i] ?? [], await made);
      if (probes.length > 0) log.probes = prepareProbeSet(log.transcript, probes, extractNeededUses(log.transcript));
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (resolved.judge && logs.some((log) => log.probes !== undefined)) prepared.judgeRubric = await loadJudgeRubric();
  };
  return settle(prepared, finish, defers(scenario, given, options));
}

/**
 * Each log file's transcript, followed (with `sidechains: include`) by its subagent conversations.
 * The scenario's `format`, when it names one, is the format of every file of a folder or pattern.
 */
async function loadLogs(
  scenarioFile: string,
  files: readonly string[],
  options: { lenient: boolean; withSidechains: boolean; format?: string | undefined },
): Promise<{ file: string; transcript: Transcript }[]> {
  const { lenient, withSidechains, format } = options;
  const logs: { file: string; transcript: Transcript }[] = [];
  for (const file of files) {
    const transcript = await loadTranscript({ kind: 'file', path: file, lenient, ...(format !== undefined ? { format } : {}) }, 0);
    logs.push({ file, transcript });
    if (!withSidechains) continue;
    if (transcript.header.source?.format !== 'claude-code') {
      throw new InputError(
        { file: scenarioFile, field: 'sidechains' },
        `only Claude Code logs have subagent sidechains; ${displayPath(file)} is ${transcript.header.source?.format ?? 'a canonical transcript'}`,
      );
    }
    for (const sidechain of await importClaudeSidechains(file, { lenient })) logs.push({ file, transcript: sidechain });
  }
  return logs;
}

interface ReadyScenario {
  prepared: PreparedScenario;
  tokenizer: Tokenizer;
}

/**
 * An executor with its own cache of prepared scenarios (seeded with `known`, keyed by
 * `scenarioKey`). Every unit gets a fresh provider, observer and, in mocked mode, its own
 * simulator installed for the unit alone: the simulator answers from (seed, call key, request)
 * only, so a unit's result does not depend on which units ran before it in the same thread.
 * Its units run in `memos`, the store of the run it serves (by default the one the caller runs
 * in; outside a run, one of its own with the switch of `options.memo`).
 */
export function createUnitExecutor(
  options: ExecutorOptions,
  known: ReadonlyMap<string, PreparedScenario> = new Map(),
  memos: MemoStore = currentMemoStore() ?? createMemoStore({ enabled: options.memo !== false }),
): UnitExecutor {
  const ready = new Map<string, Promise<ReadyScenario>>();
  const cache = options.mode === 'live' && options.cacheDir !== undefined ? createResponseCache(options.cacheDir, { redact: redactValue }) : undefined;
  // Live retries wait for real (DESIGN.md §7's virtual clock stays for mocked runs only).
  const retrySleep =
    options.mode === 'live' ? (options.retrySleep ?? createLiveSleep(options.signal !== undefined ? { signal: options.signal } : {})) : undefined;
  const readyScenario = (ref: ScenarioRef): Promise<ReadyScenario> => {
    const key = scenarioKey(ref);
    let entry = ready.get(key);
    if (entry === undefined) {
      entry = loadReady(ref, known.get(key));
      ready.set(key, entry);
    }
    return entry;
  };
  return {
    async run(unit) {
      return withMemoStore(memos, async () => {
        const ready = await readyScenario(unit.scenario);
        // A unit of one log after a corpus's logs: the text memos' whole budget again.
        if ((ready.prepared.logs?.length ?? 0) <= CORPUS_LOGS) memos.scaleTextMemos(1);
        return runPlannedUnit(unit, ready, options, memos, cache, retrySleep);
      });
    },
    async runLog(units, index, log) {
      const first = units[0];
      if (first === undefined) return [];
      return withMemoStore(memos, async () => runCorpusLog(units, await readyScenario(first.scenario), index, log, options, memos, cache, retrySleep));
    },
  };
}

async function loadReady(ref: ScenarioRef, known: PreparedScenario | undefined): Promise<ReadyScenario> {
  const prepared =
    known ??
    (await prepareLoadedScenario(await loadScenarioFile(ref.file, ref.overrides.from !== undefined ? { from: ref.overrides.from } : {}), ref.overrides));
  // A synthetic session is written to budgets in o200k_base tokens (toolOutputTokens, ...): its
  // counts are what the generator meant. Logs of real agents are counted as their model counts.
  const calibrate = prepared.scenario.transcript.kind === 'file';
  return { prepared, tokenizer: tokenizerForModel(prepared.scenario.model, { calibrate }) };
}

async function runPlannedUnit(
  unit: PlannedUnit,
  ready: ReadyScenario,
  options: ExecutorOptions,
  memos: MemoStore,
  cache: ResponseCache | undefined,
  retrySleep: RetrySleep | undefined,
): Promise<UnitResult> {
  const { logs } = ready.prepared;
  if (logs === undefined) return runLog(unit, ready, ready.prepared, options, cache, retrySleep, `${unit.spec.label}/`);
  const combiner = createLogCombiner(dirname(ready.prepared.scenario.file));
  const corpus = logs.length > CORPUS_LOGS;
  for (const [i, log] of logs.entries()) {
    const [result] = corpus
      ? await runCorpusLog([unit], ready, i, log, options, memos, cache, retrySleep)
      : [await runLog(unit, ready, log, options, cache, retrySleep, logPrefix(unit, i))];
    combiner.add({ log, result: result as UnitResult });
  }
  return combiner.finish();
}

/**
 * Each log is a session of its own (its own clock, quota and simulator); the prefix keeps the
 * fault draws of one log independent of the others, and of the order the logs run in.
 */
const logPrefix = (unit: PlannedUnit, index: number): string => `${unit.spec.label}/${index}/`;

/**
 * Every unit over one log of a corpus. A corpus's logs share almost no text: what the units
 * memoized of this log is dropped after the last of them, and the text memos run at a sixteenth of
 * their budget (memo.ts `scaleTextMemos`), which holds the log's texts for the next strategy and
 * what every log of the corpus reads (the harness's prompts), not every log's.
 */
async function runCorpusLog(
  units: readonly PlannedUnit[],
  ready: ReadyScenario,
  index: number,
  log: PreparedLog,
  options: ExecutorOptions,
  memos: MemoStore,
  cache: ResponseCache | undefined,
  retrySleep: RetrySleep | undefined,
): Promise<UnitResult[]> {
  memos.scaleTextMemos(CORPUS_TEXT_SCALE);
  try {
    const results: UnitResult[] = [];
    for (const unit of units) results.push(await runLog(unit, ready, log, options, cache, retrySleep, logPrefix(unit, index)));
    return results;
  } finally {
    memos.emptyRun();
  }
}

/** The share of the text memos' budget a corpus's logs run with: one log's texts and what every log reads (50 logs, one thread: 24.1 s CPU and 73 MiB of heap after the last log, against 23.8 s and 153 MiB at a quarter). */
const CORPUS_TEXT_SCALE = 1 / 16;

async function runLog(
  unit: PlannedUnit,
  ready: ReadyScenario,
  log: Pick<PreparedLog, 'transcript' | 'probes'>,
  options: ExecutorOptions,
  cache: ResponseCache | undefined,
  retrySleep: RetrySleep | undefined,
  callKeyPrefix: string,
): Promise<UnitResult> {
  const { scenario, judgeRubric } = ready.prepared;
  const { transcript, probes } = log;
  const { tokenizer } = ready;
  const simulator =
    options.mode === 'mock'
      ? createSimulator({ tokenizer, seed: scenario.seed, ...(scenario.faults !== undefined ? { faults: scenario.faults } : {}) })
      : undefined;
  try {
    const provider = createProvider({
      name: scenario.provider,
      mode: options.mode,
      model: scenario.model,
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
      ...(simulator !== undefined ? { simulator } : {}),
      ...(cache !== undefined ? { cache } : {}),
      ...(options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      guard: true,
      // Faults are drawn per call key: a unit's own prefix keeps them independent of run order.
      callKeyPrefix,
    });
    // A fresh observer per unit: its curves and answers are that unit's alone.
    const reference = options.mode === 'live' ? 'provider' : 'simulated';
    const observer = probes === undefined ? undefined : createProbeObserver(probes, { reference, ...(judgeRubric !== undefined ? { judgeRubric } : {}) });
    return await runUnit({
      scenario,
      transcript,
      spec: unit.spec,
      provider,
      tokenizer,
      ...(observer !== undefined ? { observer } : {}),
      ...(probes?.needed !== undefined ? { needed: probes.needed } : {}),
      ...(retrySleep !== undefined
        ? { retrySleep: options.announceWaits === true ? announceWaits(retrySleep, `${scenario.name} · ${unit.spec.label}`) : retrySleep }
        : {}),
      ...(options.maxRetryWaitMs !== undefined ? { maxRetryWaitMs: options.maxRetryWaitMs } : {}),
    });
  } finally {
    simulator?.uninstall();
  }
}

/** A live wait shorter than this passes without a line. */
const ANNOUNCED_WAIT_MS = 1000;

/**
 * `sleep`, with a line on stderr as a long wait starts (`ctxbench: s · full: the provider refused
 * (rate-limit); retrying in 60 s`), so a live run that waits out a provider is seen waiting, not
 * hung. The line is the unit's: worker threads write it through the process's stderr.
 */
function announceWaits(sleep: RetrySleep, unitName: string): RetrySleep {
  return (delayMs, reason) => {
    if (delayMs >= ANNOUNCED_WAIT_MS) {
      const why = reason === undefined ? '' : ` (${reason})`;
      process.stderr.write(`ctxbench: ${unitName}: the provider refused${why}; retrying in ${Math.round(delayMs / 1000)} s\n`);
    }
    return sleep(delayMs, reason);
  };
}
