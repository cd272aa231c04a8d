import { setFlagsFromString } from 'node:v8';

/**
 * The V8 settings ctxbench's own processes run with: the CLI (`src/cli/main.ts`) and the bench's
 * measuring processes (`src/bench/measure.ts`, so that the bench measures what users run, floor
 * included). Flags are the process's: the worker threads it starts run with them too.
 *
 * `--interrupt-budget` (V8 11's default: 67,584 bytes of bytecode run) is how much a function runs
 * before V8 considers optimising it. Most of a run's code is over before it is hot: with the
 * default, TurboFan compiled, on a thread beside the run, many functions that then ran little.
 * At four times the budget the CPU seconds of vsla-5f8cbb78's 21 strategies fell 15–17 % (one
 * worker or two) and a cold `full`'s 14 %, while the run's own thread took 2–8 % longer (its code
 * is optimised later): on a machine with a core to spare for the compiler, a run on one worker
 * can end that much later; where the cores are busy (worker threads on every core, the default,
 * or a shared machine) the CPU saved is time saved (docs/performance.md, "V8 settings of the CLI").
 * Measured on V8 11 (Node 20): other versions tier up differently and keep their defaults.
 */
export const V8_FLAGS: readonly string[] = ['--interrupt-budget=262144'];

/** The V8 whose tiering `V8_FLAGS` were measured on. */
export const TUNED_V8_MAJOR = '11';

/** Whether a V8 of this version (`process.versions.v8`) gets `V8_FLAGS`: the one they were measured on. */
export const tunes = (v8Version: string): boolean => v8Version.split('.')[0] === TUNED_V8_MAJOR;

/** Applies `V8_FLAGS` to this process (and the threads it starts from now on), on the V8 they were measured on. */
export function tuneV8(): void {
  if (!tunes(process.versions.v8)) return;
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}
