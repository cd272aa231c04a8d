import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { GenerateOptions } from '../probes/generate.js';
import type { Probe, Transcript } from '../transcript/types.js';
import type { ProbeGenerator } from './prepare.js';
import { generateRequested, type GenerateRequest, type Generated } from './generation-queue.js';

/**
 * A run on one thread makes a scenario's generated probes on a helper thread, while its own
 * thread does what the scenario's first unit needs no probes for (the hidden-prefix estimate,
 * which tokenizes the whole log: run/in-thread.ts). Generating is a pure function of the
 * transcript and its options (generation-queue.ts), so the probes are those this thread would
 * make. The helper loads only probe generation (about a fifth of what a unit thread loads). It
 * starts on the first request, or at once with `startNow` (a run on one thread starts it with the
 * run, run/workers.ts `startUnitWorkers`, so that its start-up overlaps the reading of the logs).
 */
export interface ProbeHelper {
  generate: ProbeGenerator;
  /** Ends the thread (if it was started); the run's requests are all answered by then. */
  stop(): Promise<void>;
}

type FromHelper = Generated | { type: 'failed'; id: number; name: string; message: string; stack?: string };

/** Marks the workerData of the helper, so that importing this module elsewhere starts nothing. */
const HELPER_MARK = 'ctxbench-probe-helper';

/** A helper whose thread makes the probes in memos of their own, on or off as `memo` says (the run's switch). */
export function createProbeHelper(memo: boolean, startNow = false): ProbeHelper {
  let thread: Worker | undefined;
  let next = 0;
  const waiting = new Map<number, { resolve: (probes: Probe[]) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error): void => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  const start = (): Worker => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { [HELPER_MARK]: { memo } } });
    worker.on('message', (message: FromHelper) => {
      const entry = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.type === 'generated') return entry?.resolve(message.probes);
      const error = new Error(`in the probe helper thread: ${message.message}`);
      if (message.stack !== undefined) error.stack = message.stack;
      entry?.reject(error);
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the probe helper thread stopped unexpectedly (exit code ${code})`)));
    // Referenced: while a request waits, the thread's answer is what keeps this process running.
    return worker;
  };
  if (startNow) thread = start();
  return {
    generate(transcript: Transcript, options: GenerateOptions): Promise<Probe[]> {
      thread ??= start();
      const id = next++;
      const made = new Promise<Probe[]>((resolve, reject) => waiting.set(id, { resolve, reject }));
      thread.postMessage({ type: 'generate', id, transcript, options } satisfies GenerateRequest);
      return made;
    },
    async stop() {
      const running = thread;
      thread = undefined;
      if (running === undefined) return;
      running.removeAllListeners('exit');
      await running.terminate();
    },
  };
}

/** The helper's side: each request's probes, or its failure, posted back. */
function serveRequests(memo: boolean): void {
  const port = parentPort;
  if (port === null) return;
  port.on('message', (request: GenerateRequest) => {
    try {
      port.postMessage(generateRequested(request, memo) satisfies FromHelper);
    } catch (error) {
      const { name, message, stack } = error instanceof Error ? error : { name: 'Error', message: String(error), stack: undefined };
      port.postMessage({ type: 'failed', id: request.id, name, message, ...(stack !== undefined ? { stack } : {}) } satisfies FromHelper);
    }
  });
}

const marked = (workerData as Record<string, { memo: boolean }> | null)?.[HELPER_MARK];
if (!isMainThread && marked !== undefined) serveRequests(marked.memo);
