import type { Command } from 'commander';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { DEFAULT_CACHE_DIR } from '../providers/cache.js';
import { UsageError } from '../errors.js';
import { parsePositiveInt } from './options.js';

/** Flags `run` and `sweep` share: worker threads, memos and the live response cache. */
export function addParallelOptions(command: Command): Command {
  return command
    .option('--workers <n>', "worker threads (default: the machine's cores); the result does not depend on it", parseWorkers, availableParallelism())
    .option('--no-memo', 'keep no memo: compute every count and index again at each use (slower; the same results)')
    .option('--no-cache', 'live providers: do not answer identical requests from the response cache')
    .option('--cache-dir <dir>', 'live providers: response cache folder', DEFAULT_CACHE_DIR);
}

/** The cache folder to pass to the library: live runs only, unless --no-cache. */
export function cacheDirOf(flags: { cache: boolean; cacheDir: string }, live: boolean): { cacheDir?: string } {
  return live && flags.cache ? { cacheDir: resolve(flags.cacheDir) } : {};
}

function parseWorkers(value: string): number {
  const n = parsePositiveInt('--workers')(value);
  if (n < 1) throw new UsageError(`--workers expects at least 1, got "${value}"`);
  return n;
}
