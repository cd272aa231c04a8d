import { dirname } from 'node:path';
import { tokenizerForModel } from '../tokens/tokenizer.js';
import type { ProviderMode } from '../contracts/provider.js';
import type { UnitResult } from '../metrics/types.js';
import type { Tokenizer } from '../tokens/types.js';
import type { PreparedLog, PreparedScenario } from './prepared-scenario.js';
import { createLogCombiner } from './combine-logs.js';
import { CORPUS_LOGS } from '../metrics/corpus.js';
import { createMemoStore, currentMemoStore, withMemoStore, type MemoStore } from '../memo.js';
import type { PlannedUnit, ScenarioRef } from './plan.js';
import { loadScenarioFile } from '../scenario/load.js';
import { createProvider } from '../providers/index.js';
import { createSimulator } from '../simulator/transport.js';
import { createResponseCache, type ResponseCache } from '../providers/cache.js';
import { createLiveSleep } from '../providers/live-sleep.js';
import { redactValue } from '../redact/index.js';
import type { RetrySleep } from '../quota/types.js';
import { createProbeObserver } from '../replay/probe-observer.js';
import { runUnit } from '../replay/run-unit.js';
import { scenarioKey } from './plan.js';
import { prepareLoadedScenario } from './prepare.js';

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
  const corpus = (ready.prepared.corpusLogs ?? logs.length) > CORPUS_LOGS;
  for (const [position, log] of logs.entries()) {
    const i = log.index ?? position;
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
