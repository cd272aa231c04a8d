import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import type { Strategy, StrategySpec } from '../types.js';
import { InputError } from '../../errors.js';
import { displayPath } from '../../paths.js';
import { optionsSchemaOf } from './options.js';
import { MessageEditedError, StrategyFailedError } from './failure.js';

/**
 * Strategy modules loaded in this thread, by absolute path. Loading is async (`import()`), while
 * resolving a spec is not: every entry point that resolves specs (scenario preparation, which a
 * worker thread runs too, and `runUnit`) loads the modules first with `loadStrategyModules`.
 */
const loaded = new Map<string, Strategy>();

/** Loads (once per thread) every module a spec list names, its pipeline stages included. */
export async function loadStrategyModules(specs: readonly StrategySpec[], file = '<scenario>'): Promise<void> {
  for (const spec of specs) {
    if (spec.source?.kind === 'module' && !loaded.has(spec.source.path)) loaded.set(spec.source.path, await importStrategy(spec.source.path, file, spec.label));
    if (spec.stages !== undefined) await loadStrategyModules(spec.stages, file);
  }
}

/** The strategy of a module loaded earlier by `loadStrategyModules`. */
export function loadedStrategyModule(path: string): Strategy {
  const strategy = loaded.get(path);
  if (strategy === undefined) throw new Error(`strategy module ${path} was resolved before it was loaded (call loadStrategyModules first)`);
  return strategy;
}

/**
 * Imports a module and finds its strategy: the default export, else an export named `strategy`.
 * Its `options` may be a zod schema (anything with `safeParse`) or a plain validate function
 * (docs/strategy-api.md); either way the engine sees a schema.
 */
async function importStrategy(path: string, file: string, label: string): Promise<Strategy> {
  const field = `strategies.${label}.module`;
  if (!existsSync(path)) throw new InputError({ file, field }, `no strategy module at ${displayPath(path)}`);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new InputError({ file, field }, `cannot load ${displayPath(path)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const candidate = exports.default ?? exports.strategy;
  const problem = strategyProblem(candidate);
  if (problem !== undefined) throw new InputError({ file, field }, `${displayPath(path)} ${problem}`);
  const strategy = candidate as Strategy & { options: unknown };
  return guarded({ ...strategy, options: optionsSchemaOf(strategy.options) }, path);
}

/**
 * The strategy with what its hooks throw turned into a `StrategyFailedError`: a bug in a user's
 * module ends that unit with an explanation, as a crashed policy process does, and the run goes on.
 */
function guarded(strategy: Strategy, path: string): Strategy {
  const wrap = <A extends unknown[], R>(hook: string, fn: ((...args: A) => R) | undefined): ((...args: A) => Promise<unknown>) | undefined => {
    if (fn === undefined) return undefined;
    return async (...args: A) => {
      try {
        return (await fn.apply(strategy, args)) as unknown;
      } catch (error) {
        if (error instanceof StrategyFailedError) throw error;
        throw hookFailure(path, hook, error);
      }
    };
  };
  const out: Strategy = { ...strategy, prepare: wrap('prepare', strategy.prepare) as Strategy['prepare'] };
  const observe = wrap('observe', strategy.observe);
  const transform = wrap('transform', strategy.transform);
  const recover = wrap('recover', strategy.recover);
  if (observe !== undefined) out.observe = observe as NonNullable<Strategy['observe']>;
  if (transform !== undefined) out.transform = transform as NonNullable<Strategy['transform']>;
  if (recover !== undefined) out.recover = recover as NonNullable<Strategy['recover']>;
  return out;
}

/** V8's words for a write to a frozen object (modules are strict): a message edited in place. */
const FROZEN_WRITE = /^Cannot (assign to read only property|add property|delete property|define property)|object is not extensible/;

/**
 * What a hook's throw becomes. Messages and events are frozen once they enter a run
 * (transcript/freeze.ts): an edit in place (`m.text = m.text.slice(0, 200)`) throws, and is
 * explained as such rather than as a bare TypeError.
 */
function hookFailure(path: string, hook: string, error: unknown): StrategyFailedError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof TypeError && FROZEN_WRITE.test(message)) {
    return new MessageEditedError(
      `strategy module ${displayPath(path)} edited a message in place in ${hook} (${message}): messages are frozen once they enter a run, so that every count sees what was sent; return a changed copy ({ ...message, text }) instead`,
    );
  }
  return new StrategyFailedError(`strategy module ${displayPath(path)} threw in ${hook}: ${message}`);
}

/** What keeps a value from being a strategy, in words; undefined when it is one. */
function strategyProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'exports no strategy: export it as `default` or as `strategy`';
  const s = value as Record<string, unknown>;
  if (typeof s.name !== 'string' || s.name === '') return 'exports a strategy without a `name`';
  for (const method of ['init', 'prepare'] as const) if (typeof s[method] !== 'function') return `exports a strategy without an \`${method}\` function`;
  if (s.options === undefined) return 'exports a strategy without `options` (a zod schema or a validate function)';
  if (typeof s.options !== 'function' && typeof (s.options as { safeParse?: unknown }).safeParse !== 'function') {
    return 'exports `options` that is neither a zod schema (with safeParse) nor a validate function';
  }
  return undefined;
}
