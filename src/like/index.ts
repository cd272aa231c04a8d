import { createRandom, deriveSeed, type Random } from '../random.js';
import type { Transcript } from '../transcript/types.js';
import { loadTranscript } from '../scenario/load-transcript.js';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { parseInput, readDocument } from '../validate.js';
import { likeFitSchema } from './fit-schema.js';
import type { LikeFit } from './fit-types.js';
import { fitLogs } from './fit.js';
import { observeLog } from './observe.js';
import { generateLike } from './session.js';

export type { LikeFit } from './fit-types.js';
export { checkLike, shortfallsOf, seedDependence, unsteadyPasses, CHECK_TOLERANCE, type CheckResult } from './check.js';
export { generateLike } from './session.js';
export { renderCheck } from './render-check.js';

/** Reads real logs (any format `import` reads; damaged lines skipped and counted) and fits them. */
export async function fitLogFiles(files: readonly string[], options: { from?: string } = {}): Promise<LikeFit> {
  if (files.length === 0) throw new UsageError('--like needs at least one log');
  const observations = [];
  for (const file of files) {
    const transcript = await loadTranscript({ kind: 'file', path: file, lenient: true, ...(options.from !== undefined ? { format: options.from } : {}) }, 0);
    observations.push(observeLog(transcript));
  }
  const fit = fitLogs(observations);
  if (fit.steps.length === 0 || (fit.steps.at(-1) ?? 0) === 0) throw new UsageError(`--like: the logs hold no step (assistant message): ${files.join(', ')}`);
  return fit;
}

/** A fit written by `generate --like` (`fit.json`), read back and validated: an error names the file, line and field. */
export async function loadFitFile(file: string): Promise<LikeFit> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--fit ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  const doc = readDocument(text, file);
  return parseInput(likeFitSchema, doc.data, { file, lineOf: doc.lineOf, what: 'not a fit as generate --like writes it' });
}

/** `count` sessions drawn from a fit, the i-th from its own seed derived from `seed`; `steps` fixes their length. */
export function generateLikeSessions(fit: LikeFit, options: { count: number; seed: number; steps?: number }): Transcript[] {
  const order = shuffled(createRandom(deriveSeed(options.seed, 'like:logs')), fit.perLog.length);
  return Array.from({ length: options.count }, (_, i) =>
    generateLike(fit, {
      seed: deriveSeed(options.seed, `like-session-${i + 1}`),
      ...(options.steps !== undefined ? { steps: options.steps } : {}),
      ...(order.length > 0 ? { log: order[i % order.length] } : {}),
    }),
  );
}

/** 0 … n − 1 in a drawn order (Fisher–Yates). */
function shuffled(random: Random, n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = random.int(0, i);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}
