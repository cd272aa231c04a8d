import { setFlagsFromString } from 'node:v8';

/**
 * The V8 settings ctxbench's own processes run with: the CLI (`src/cli/main.ts`) and the bench's
 * measuring processes (`src/bench/measure.ts`, so that the bench measures what users run, floor
 * included). Flags are the process's: the worker threads it starts run with them too.
 *
 * `--interrupt-budget` (V8's default 67,584 bytes of bytecode run) is how much a function runs
 * before V8 considers optimising it. A run's code is mostly short-lived: a cold `full` or the 21
 * strategies of a long log are over before much of it is hot, and TurboFan compiled, on a thread
 * beside the run, functions that ran little afterwards. Four times the budget cut the CPU seconds
 * of the 21 strategies of vsla-5f8cbb78 by 15–20 % at the same main-thread time, and of a cold
 * `full` by about 12 % (docs/performance.md, "V8 settings of the CLI"). Set once the process has
 * started, it applies to every function's next budget; an unknown flag would only print a warning
 * (test/v8-tuning.test.ts checks that this Node knows each).
 */
export const V8_FLAGS: readonly string[] = ['--interrupt-budget=262144'];

/** Applies `V8_FLAGS` to this process (and the threads it starts from now on). */
export function tuneV8(): void {
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}
