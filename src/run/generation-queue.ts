import type { Worker } from 'node:worker_threads';
import { generateProbes, type GenerateOptions } from '../probes/generate.js';
import type { Probe, Transcript } from '../transcript/types.js';
import { createMemoStore, withOwnMemos } from '../memo.js';

/** Asks a thread for the probes of one log (`generateProbes`): a pure function of these, so any thread makes the same. */
export interface GenerateRequest {
  type: 'generate';
  id: number;
  transcript: Transcript;
  options: GenerateOptions;
}

/** A thread's answer to a `GenerateRequest`. */
export interface Generated {
  type: 'generated';
  id: number;
  probes: Probe[];
}

/**
 * Makes the probes a request asks for, on the thread that got it, in a memo store of their own
 * (`memo`: its switch, the run's): the probes go to another thread, so what making them memoized
 * serves no later work of this one. In the run's store, a corpus's 477 logs made on two threads
 * grew the run to 1.6 GB before its first log ran (docs/performance.md).
 */
export function generateRequested(request: GenerateRequest, memo: boolean): Generated {
  return withOwnMemos(createMemoStore({ enabled: memo }), () => ({
    type: 'generated',
    id: request.id,
    probes: generateProbes(request.transcript, request.options),
  }));
}

/**
 * The logs whose probes wait to be made on a thread, in the order asked: `give` posts the next to
 * a thread with nothing else to do, `done` settles it with the probes the thread made.
 */
export function createGenerationQueue(): {
  ask(transcript: Transcript, options: GenerateOptions): Promise<Probe[]>;
  give(thread: Worker): boolean;
  done(id: number, probes: Probe[]): void;
} {
  const waiting: { transcript: Transcript; options: GenerateOptions; resolve: (probes: Probe[]) => void }[] = [];
  const posted = new Map<number, (probes: Probe[]) => void>();
  let next = 0;
  return {
    ask: (transcript, options) => new Promise((resolve) => waiting.push({ transcript, options, resolve })),
    give(thread) {
      const task = waiting.shift();
      if (task === undefined) return false;
      const id = next++;
      posted.set(id, task.resolve);
      thread.postMessage({ type: 'generate', id, transcript: task.transcript, options: task.options } satisfies GenerateRequest);
      return true;
    },
    done(id, probes) {
      posted.get(id)?.(probes);
      posted.delete(id);
    },
  };
}
