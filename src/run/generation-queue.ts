import type { Worker } from 'node:worker_threads';
import { generateProbes, type GenerateOptions } from '../probes/generate.js';
import type { Transcript } from '../transcript/types.js';
import { extractNeededUses } from '../probes/needed/extract.js';
import type { GeneratedProbes } from './prepare.js';
import { createMemoStore, withOwnMemos } from '../memo.js';

/** Asks a thread for the probes of one log (`generateProbes`): a pure function of these, so any thread makes the same. */
export interface GenerateRequest {
  type: 'generate';
  id: number;
  transcript: Transcript;
  options: GenerateOptions;
}

/** A thread's answer to a `GenerateRequest`: the log's probes, and its needed facts when there are probes (run/prepare.ts `GeneratedProbes`). */
export interface Generated extends GeneratedProbes {
  type: 'generated';
  id: number;
}

/**
 * Makes the probes a request asks for, on the thread that got it, in a memo store of their own
 * (`memo`: its switch, the run's): the probes go to another thread, so what making them memoized
 * serves no later work of this one. In the run's store, a corpus's 477 logs made on two threads
 * grew the run to 1.6 GB before its first log ran (docs/performance.md).
 */
export function generateRequested(request: GenerateRequest, memo: boolean): Generated {
  return withOwnMemos(createMemoStore({ enabled: memo }), () => {
    const probes = generateProbes(request.transcript, request.options);
    // The needed facts resolve the log's probe set: found here, on the thread that has the log, not on the run's.
    return { type: 'generated', id: request.id, probes, ...(probes.length > 0 ? { needed: extractNeededUses(request.transcript) } : {}) };
  });
}

/**
 * The logs whose probes wait to be made on a thread, in the order asked: `give` posts the next to
 * a thread with nothing else to do, `done` settles it with the probes the thread made.
 */
export function createGenerationQueue(): {
  ask(transcript: Transcript, options: GenerateOptions): Promise<GeneratedProbes>;
  give(thread: Worker): boolean;
  done(id: number, made: GeneratedProbes): void;
} {
  const waiting: { transcript: Transcript; options: GenerateOptions; resolve: (made: GeneratedProbes) => void }[] = [];
  const posted = new Map<number, (made: GeneratedProbes) => void>();
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
    done(id, made) {
      posted.get(id)?.(made);
      posted.delete(id);
    },
  };
}
