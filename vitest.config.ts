import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their worker's module graph: the project is imported, and the o200k
    // tokenizer built (half a second of CPU), once per worker rather than once per file. Tests that
    // need a clean process (globals, signals, workers) spawn one of their own.
    isolate: false,
  },
});
