import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One worker per core. vitest's default leaves a core to its main process (cores − 1), which on
    // a 2-core machine runs every file in one worker, one after the other: the main process only
    // hands out files and transforms each module once, so it needs no core of its own.
    maxWorkers: availableParallelism(),
    // Test files share their worker's module graph: the project is imported, and the o200k
    // tokenizer built (half a second of CPU), once per worker rather than once per file. Tests that
    // need a clean process (globals, signals, workers) spawn one of their own.
    isolate: false,
  },
});
