import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { watchWorkerPolicies } from '../strategies/external/policy-process.js';
import type { UnitResult } from '../metrics/types.js';
import type { PreparedScenario } from './prepared-scenario.js';
import { scenarioKey, type PlannedUnit } from './plan.js';
import { completionOrder, unitQueue } from './unit-order.js';
import { HarnessError } from '../errors.js';
import { createMemoStore } from '../memo.js';
import { createUnitExecutor, type ExecutorOptions } from './execute-unit.js';
import type { ProbeGenerator } from './prepare.js';
import { createGenerationQueue, generateRequested, type GenerateRequest, type Generated } from './generation-queue.js';
import { byUnit, corpusUnits, logProgress, packLogResults, type CorpusUnits, type LogTask } from './corpus-units.js';
import { runInThread } from './in-thread.js';
import type { PreparedLog } from './prepared-scenario.js';

/**
 * Progress of one unit: sent when it starts and when it ends (with its result); for a corpus's
 * units, also each time a log is through every one of them (`log`, with the corpus's first unit).
 */
export interface UnitProgress {
  phase: 'start' | 'end' | 'log';
  unit: PlannedUnit;
  result?: UnitResult;
  /** `log`: the corpus's logs through every unit so far, of how many. */
  logs?: { done: number; total: number };
}

export interface PoolOptions extends ExecutorOptions {
  /** Worker threads to use; 1 (or a single unit) runs in this thread. */
  workers: number;
  /** Scenarios this thread has prepared already, by `scenarioKey`; reused when running in-process. */
  prepared?: ReadonlyMap<string, PreparedScenario>;
  onProgress?: (event: UnitProgress) => void;
  /**
   * Worker threads: delete each scenario from `prepared` once every thread has been sent it (the
   * caller keeps no other reference, run-suite.ts), so that this thread lets its copy go.
   */
  release?: boolean;
  /**
   * `false`: each result goes to `onProgress` only and none is kept here (the call returns none),
   * so that a run which keeps less of each (a corpus's units, run-suite.ts) never holds them all.
   */
  collect?: boolean;
  /**
   * Finishes a prepared scenario (its generated probes, run-suite.ts) before a unit of it runs
   * or it crosses to a thread. With threads, this thread finishes them one after another while
   * the threads run the units of those already finished; it is handed `generate`, which makes a
   * log's probes on a thread that has no unit to run (a corpus's logs, while every thread waits).
   */
  complete?: (key: string, generate?: ProbeGenerator) => Promise<void>;
  /**
   * Called once every log of a corpus is in, before its units are combined (`CorpusUnits.packedLogs`
   * reads what each unit made of each log): a shard of a corpus hands them to `merge` (run-suite.ts).
   */
  onCorpusLogs?: (corpus: CorpusUnits) => void;
  /** Threads started ahead of the run (`startUnitWorkers`); taken over, or stopped when not needed. */
  started?: StartedWorkers;
  /**
   * Once aborted, no unit starts; worker threads are stopped and the units they were running
   * dropped. The returned results then cover only the units that finished (see `onProgress`).
   */
  signal?: AbortSignal;
}

/** Marks the workerData of our own workers, so that importing this module elsewhere starts nothing. */
const WORKER_MARK = 'ctxbench-unit-worker';

type ToWorker =
  | {
      type: 'run';
      unit: PlannedUnit;
      /** The unit's scenario as this thread prepared it, sent with the first unit of it a thread gets. */
      prepared?: PreparedScenario;
    }
  | {
      /** One log of a corpus through `units` (corpus-units.ts). */
      type: 'log';
      key: string;
      index: number;
      units: readonly PlannedUnit[];
      log: PreparedLog;
      /** The corpus's scenario without its logs, sent with the first log of it a thread gets. */
      prepared?: PreparedScenario;
    }
  | GenerateRequest;
type FromWorker =
  | { type: 'start'; index: number }
  | Generated
  | { type: 'done'; index: number; result: UnitResult }
  | { type: 'log-done'; key: string; index: number; packed: Uint8Array[] }
  | { type: 'error'; name: string; message: string; exitCode?: number; stack?: string };

/**
 * Runs planned units and returns their results in plan order, whoever ran them: with
 * `workers > 1` on that many worker threads (each gets the scenarios this thread prepared, and has its own
 * simulator), else in this thread. Every unit's result depends only on the unit, so the
 * results are the same whatever the number of workers.
 *
 * Worker threads run this module's compiled JavaScript. When this module is TypeScript source
 * (tests run under vitest, which compiles in-process and cannot hand a .ts file to a worker), the
 * pool is simulated in this thread: as many executors as workers, taking units in turn — the code
 * path a worker runs, minus the thread. They reuse the scenarios this thread prepared already, so
 * running from source costs no more than running with one worker; test/run/workers.test.ts
 * compiles the sources to exercise the real threads.
 */
export async function runPlannedUnits(units: readonly PlannedUnit[], options: PoolOptions): Promise<UnitResult[]> {
  // A custom retry sleep is a function, which cannot cross to a thread: such runs stay here.
  const workers = options.retrySleep !== undefined ? 1 : Math.max(1, Math.min(options.workers, units.length));
  if (workers === 1 || isSourceModule()) {
    await stopUnitWorkers(options.started);
    if (workers === 1) return runInThread(units, [createUnitExecutor(inThreadOptions(options), options.prepared)], options);
    return runInThread(
      units,
      Array.from({ length: workers }, () => createUnitExecutor(executorOptions(options), options.prepared)),
      options,
    );
  }
  return runOnWorkers(units, workers, options);
}

/** Unit threads started before the run was planned, with what happened to them meanwhile. */
export interface StartedWorkers {
  threads: Worker[];
  /** A thread that failed or stopped before the run took it over. */
  early: { error?: Error; exitCode?: number };
}

/**
 * Starts the threads a run on `workers` threads will use, when it will use threads at all: their
 * start-up (loading ctxbench and the SDKs, half a second each) then overlaps the preparation of
 * the scenarios in this thread. `runPlannedUnits` takes them over; `stopUnitWorkers` ends them
 * when the run stops before it gets there.
 */
export function startUnitWorkers(workers: number, options: ExecutorOptions): StartedWorkers | undefined {
  if (workers <= 1 || options.retrySleep !== undefined || isSourceModule()) return undefined;
  const started: StartedWorkers = { threads: [], early: {} };
  for (let i = 0; i < workers; i++) {
    const thread = spawnWorker(options);
    // Until the run takes it over, a failure is kept for it to see (an 'error' nobody listens to would crash the process).
    thread.on('error', (error) => (started.early.error ??= error));
    thread.on('exit', (code) => (started.early.exitCode ??= code));
    started.threads.push(thread);
  }
  return started;
}

export async function stopUnitWorkers(started: StartedWorkers | undefined): Promise<void> {
  if (started !== undefined) await Promise.all(started.threads.map((thread) => thread.terminate()));
}

function spawnWorker(options: ExecutorOptions): Worker {
  // A policy process a worker starts must not outlive ctxbench when it exits under the worker.
  watchWorkerPolicies();
  return new Worker(new URL(import.meta.url), { workerData: { [WORKER_MARK]: executorOptions(options) } });
}

/** Whether this module runs from TypeScript source rather than from the built JavaScript. */
function isSourceModule(): boolean {
  return import.meta.url.endsWith('.ts');
}

/** The options a worker thread receives: plain data only (no `retrySleep`). */
function executorOptions(options: ExecutorOptions): ExecutorOptions {
  return {
    mode: options.mode,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    ...(options.maxRetryWaitMs !== undefined ? { maxRetryWaitMs: options.maxRetryWaitMs } : {}),
    ...(options.announceWaits !== undefined ? { announceWaits: options.announceWaits } : {}),
    ...(options.memo !== undefined ? { memo: options.memo } : {}),
  };
}

function inThreadOptions(options: PoolOptions): ExecutorOptions {
  return {
    ...executorOptions(options),
    ...(options.retrySleep !== undefined ? { retrySleep: options.retrySleep } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };
}

/**
 * A queue served by `count` threads: each takes the next unit when it is free, so a long unit
 * does not hold up the others. The first failure stops every worker and is raised here, with its
 * exit code when it is a harness error (bad input in a scenario a worker prepared, say).
 */
function runOnWorkers(units: readonly PlannedUnit[], count: number, options: PoolOptions): Promise<UnitResult[]> {
  const byIndex = new Map<number, UnitResult>();
  let ended = 0;
  const positions = new Map(units.map((unit, position) => [unit.index, position]));
  // A corpus's units go log by log (corpus-units.ts); the others unit by unit.
  const corpora = corpusUnits(units, options.prepared, options.release === true);
  const inCorpus = byUnit(corpora);
  const queue = unitQueue(
    units.filter((unit) => !inCorpus.has(unit.index)),
    options.prepared,
  );
  let settled = false;
  const started = options.started?.threads ?? [];
  void Promise.all(started.slice(count).map((thread) => thread.terminate()));
  const threads = Array.from({ length: count }, (_, i) => started[i] ?? spawnWorker(options));
  return new Promise<UnitResult[]>((resolve, reject) => {
    const finish = (error: Error | undefined): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', stop);
      void Promise.all(threads.map((thread) => thread.terminate())).then(() => {
        if (error !== undefined) reject(error);
        else resolve(units.flatMap((unit) => byIndex.get(unit.index) ?? []));
      });
    };
    const stop = (): void => finish(undefined);
    if (options.signal?.aborted === true) return stop();
    options.signal?.addEventListener('abort', stop, { once: true });
    // A scenario crosses to a thread once, as data (a structured clone takes milliseconds; reading
    // the log and generating its probes again took most of a second per thread).
    const sent = new Map<Worker, Set<string>>(threads.map((thread) => [thread, new Set()]));
    // Scenarios finished (`options.complete`) and so ready to run; threads that found none wait for the next.
    const keys = completionOrder(units, options.prepared);
    const ready = new Set(options.complete === undefined ? keys : []);
    const idle: Worker[] = [];
    const generating = createGenerationQueue();
    const settleUnit = (unit: PlannedUnit, result: UnitResult): void => {
      if (options.collect !== false) byIndex.set(unit.index, result);
      ended += 1;
      options.onProgress?.({ phase: 'end', unit, result });
    };
    const feed = (thread: Worker): void => {
      const known = sent.get(thread) as Set<string>;
      const task = nextLogTask(corpora, ready, options);
      if (task !== undefined) {
        const prepared = known.has(task.key) ? undefined : task.scenario;
        known.add(task.key);
        const { key, index, units: taskUnits, log } = task;
        return thread.postMessage({ type: 'log', key, index, units: taskUnits, log, ...(prepared !== undefined ? { prepared } : {}) } satisfies ToWorker);
      }
      const unit = queue.next(known, ready);
      if (unit === undefined) {
        // No unit is ready: make a log's probes for the scenario being finished, if one waits.
        if (generating.give(thread)) return;
        if (ready.size < keys.length) idle.push(thread);
        return;
      }
      const key = scenarioKey(unit.scenario);
      const prepared = known.has(key) ? undefined : options.prepared?.get(key);
      known.add(key);
      thread.postMessage({ type: 'run', unit, ...(prepared !== undefined ? { prepared } : {}) } satisfies ToWorker);
      if (options.release === true && [...sent.values()].every((keys) => keys.has(key)))
        (options.prepared as Map<string, PreparedScenario> | undefined)?.delete(key);
    };
    for (const thread of threads) {
      thread.on('message', (message: FromWorker) => {
        if (message.type === 'error') return finish(reviveError(message));
        if (message.type === 'generated') {
          generating.done(message.id, message);
          return feed(thread);
        }
        if (message.type === 'log-done') {
          const corpus = corpora.find((each) => each.key === message.key) as CorpusUnits;
          const complete = corpus.add(message.index, message.packed);
          options.onProgress?.(logProgress(corpus));
          // The thread takes its next work before this thread combines the corpus's units.
          feed(thread);
          if (!complete) return;
          options.onCorpusLogs?.(corpus);
          for (const [unit, result] of corpus.combined()) settleUnit(unit, result);
          if (ended === units.length) finish(undefined);
          return;
        }
        const unit = units[positions.get(message.index) ?? -1] as PlannedUnit;
        if (message.type === 'start') return options.onProgress?.({ phase: 'start', unit });
        settleUnit(unit, message.result);
        if (ended === units.length) return finish(undefined);
        feed(thread);
      });
      thread.on('error', (error) => finish(error));
      thread.on('exit', (code) => finish(settled ? undefined : new Error(`a unit worker stopped unexpectedly (exit code ${code})`)));
      feed(thread);
    }
    const { complete } = options;
    if (complete !== undefined) {
      const generate: ProbeGenerator = (transcript, generateOptions) => {
        const made = generating.ask(transcript, generateOptions);
        for (const thread of idle.splice(0)) feed(thread);
        return made;
      };
      void (async () => {
        for (const key of keys) {
          await complete(key, generate);
          if (settled) return;
          ready.add(key);
          for (const thread of idle.splice(0)) feed(thread);
        }
      })().catch(finish);
    }
    const early = options.started?.early;
    if (early?.error !== undefined) finish(early.error);
    else if (early?.exitCode !== undefined) finish(new Error(`a unit worker stopped unexpectedly (exit code ${early.exitCode})`));
  });
}

/**
 * The next log of a corpus whose probes are made, with the corpus's scenario (without its logs) as
 * a thread that has none is sent it; the corpus's units start with its first log.
 */
function nextLogTask(
  corpora: readonly CorpusUnits[],
  ready: ReadonlySet<string>,
  options: PoolOptions,
): (LogTask & { scenario: PreparedScenario }) | undefined {
  for (const corpus of corpora) {
    if (!ready.has(corpus.key)) continue;
    const task = corpus.take();
    if (task === undefined) continue;
    if (task.index === 0) for (const unit of corpus.units) options.onProgress?.({ phase: 'start', unit });
    return { ...task, scenario: corpus.scenario() };
  }
  return undefined;
}

function reviveError(message: Extract<FromWorker, { type: 'error' }>): Error {
  if (message.exitCode === 0 || message.exitCode === 1 || message.exitCode === 2) return new HarnessError(message.message, message.exitCode);
  const error = new Error(`in a unit worker: ${message.message}`);
  if (message.stack !== undefined) error.stack = message.stack;
  return error;
}

/** The worker side: run each unit the parent posts and post its result back. */
function serveUnits(options: ExecutorOptions): void {
  const port = parentPort;
  if (port === null) return;
  // The thread lives for one run: its memos are the run's, dropped when the thread ends.
  const memos = createMemoStore({ enabled: options.memo !== false });
  const prepared = new Map<string, PreparedScenario>();
  const executor = createUnitExecutor(options, prepared, memos);
  port.on('message', (message: ToWorker) => {
    if (message.type === 'generate') return generateFor(port, message, memos.enabled);
    if (message.type === 'log') {
      const { key, index } = message;
      if (message.prepared !== undefined) prepared.set(key, message.prepared);
      executor.runLog(message.units, index, message.log).then(
        (results) => port.postMessage({ type: 'log-done', key, index, packed: packLogResults(results) } satisfies FromWorker),
        (error: unknown) => port.postMessage(describeError(error)),
      );
      return;
    }
    const { unit } = message;
    if (message.prepared !== undefined) prepared.set(scenarioKey(unit.scenario), message.prepared);
    port.postMessage({ type: 'start', index: unit.index } satisfies FromWorker);
    executor.run(unit).then(
      (result) => port.postMessage({ type: 'done', index: unit.index, result } satisfies FromWorker),
      (error: unknown) => port.postMessage(describeError(error)),
    );
  });
}

function generateFor(port: NonNullable<typeof parentPort>, request: GenerateRequest, memo: boolean): void {
  try {
    port.postMessage(generateRequested(request, memo) satisfies FromWorker);
  } catch (error) {
    port.postMessage(describeError(error));
  }
}

function describeError(error: unknown): FromWorker {
  if (error instanceof HarnessError) return { type: 'error', name: error.name, message: error.message, exitCode: error.exitCode };
  if (error instanceof Error) return { type: 'error', name: error.name, message: error.message, ...(error.stack !== undefined ? { stack: error.stack } : {}) };
  return { type: 'error', name: 'Error', message: String(error) };
}

const marked = (workerData as Record<string, unknown> | null)?.[WORKER_MARK];
if (!isMainThread && marked !== undefined) serveUnits(marked as ExecutorOptions);
