import type { UnitResult } from '../metrics/types.js';
import type { UnitExecutor } from './execute-unit.js';
import { scenarioKey, type PlannedUnit } from './plan.js';
import { byUnit, corpusUnits, logProgress, packLogResults, type CorpusUnits } from './corpus-units.js';
import type { PoolOptions } from './workers.js';

/**
 * Runs units in this thread on `executors` (one, or as many as a simulated pool has workers),
 * taking them in plan order and a corpus's units log after log (corpus-units.ts); the results
 * come back in plan order. The path a worker thread runs, minus the thread.
 */
export async function runInThread(units: readonly PlannedUnit[], executors: readonly UnitExecutor[], options: PoolOptions): Promise<UnitResult[]> {
  const results = new Map<number, UnitResult>();
  const corpora = byUnit(corpusUnits(units, options.prepared, false));
  const ended = (unit: PlannedUnit, result: UnitResult): void => {
    options.onProgress?.({ phase: 'end', unit, result });
    if (options.collect !== false) results.set(unit.index, result);
  };
  for (const [position, unit] of units.entries()) {
    // Mocked units answer in-process and never wait on I/O: yield once per unit so that a signal
    // (Ctrl-C, SIGTERM) is handled between units rather than after the whole run.
    await new Promise((resolve) => setImmediate(resolve));
    if (options.signal?.aborted === true) break;
    const corpus = corpora.get(unit.index);
    // A corpus's units run together, log after log, from its first unit on.
    if (corpus?.started === true) continue;
    await options.complete?.(scenarioKey(unit.scenario));
    if (corpus !== undefined) {
      if (!(await runCorpusInThread(corpus, executors, options))) break;
      options.onCorpusLogs?.(corpus);
      for (const [each, result] of corpus.combined()) ended(each, result);
      continue;
    }
    options.onProgress?.({ phase: 'start', unit });
    const result = await runUnlessStopped((executors[position % executors.length] as UnitExecutor).run(unit), options.signal);
    // Stopped mid-unit (a live request aborted): the unit is dropped, as worker threads drop theirs.
    if (result === undefined) break;
    ended(unit, result);
  }
  return units.flatMap((unit) => results.get(unit.index) ?? []);
}

/** A corpus's units in this thread, log after log; false when the run was stopped first. */
async function runCorpusInThread(corpus: CorpusUnits, executors: readonly UnitExecutor[], options: PoolOptions): Promise<boolean> {
  for (let task = corpus.take(); task !== undefined; task = corpus.take()) {
    if (task.index === 0) for (const unit of corpus.units) options.onProgress?.({ phase: 'start', unit });
    await new Promise((resolve) => setImmediate(resolve));
    if (options.signal?.aborted === true) return false;
    const executor = executors[task.index % executors.length] as UnitExecutor;
    const results = await runUnlessStopped(executor.runLog(task.units, task.index, task.log), options.signal);
    if (results === undefined) return false;
    const complete = corpus.add(task.index, packLogResults(results));
    options.onProgress?.(logProgress(corpus));
    if (complete) return true;
  }
  return false;
}

/** The unit's result, or undefined when `signal` stopped the run before it finished. */
async function runUnlessStopped<T>(running: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (signal === undefined) return running;
  let onAbort: () => void = () => undefined;
  const stopped = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  // A unit whose request the stop aborted throws: dropped like the others the stop cut short.
  const settled = running.catch((error: unknown) => {
    if (signal.aborted) return undefined;
    throw error;
  });
  try {
    return await Promise.race([settled, stopped]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
