import type { CompletionResult } from '../../contracts/provider.js';
import type { Strategy, StrategyEnv } from '../types.js';
import { StrategyFailedError } from './failure.js';

/** How long a strategy hook may run per call when the scenario and the command line do not say. */
export const DEFAULT_STRATEGY_TIMEOUT_MS = 30_000;

/**
 * A strategy module's hooks under a time limit and a return check (docs/strategy-api.md): each
 * call of `observe`, `prepare`, `recover`, `transform` and `dispose` must settle within
 * `timeoutMs` of its own work — the time it waits on a model call it made through `env.model` does
 * not count, as the time a policy process waits for ctxbench's answers does not — else the unit
 * crashes with `strategy-timeout`; `prepare` and `transform` must return a list of messages, else
 * the unit crashes with `strategy` and what they returned. A hook still running past its limit is
 * cut off from the unit: its later actions and model calls are ignored.
 */
export function boundStrategy(strategy: Strategy, timeoutMs: number): Strategy {
  const bounded: Strategy = {
    ...strategy,
    prepare: async (state, env) => messagesOf('prepare', await withinLimit('prepare', timeoutMs, env, (e) => strategy.prepare(state, e)), env.step),
  };
  const { observe, recover, transform, dispose } = strategy;
  if (observe !== undefined) bounded.observe = (event, state, env) => withinLimit('observe', timeoutMs, env, (e) => observe.call(strategy, event, state, e));
  if (recover !== undefined)
    bounded.recover = (failure, state, env) => withinLimit('recover', timeoutMs, env, (e) => recover.call(strategy, failure, state, e));
  if (transform !== undefined) {
    bounded.transform = async (context, state, env) =>
      messagesOf('transform', await withinLimit('transform', timeoutMs, env, (e) => transform.call(strategy, context, state, e)), env.step);
  }
  if (dispose !== undefined) bounded.dispose = (state) => withinLimit('dispose', timeoutMs, undefined, () => dispose.call(strategy, state));
  return bounded;
}

/**
 * Runs one hook call against a timer that stops while the hook waits on `env.model` and starts
 * afresh when the answer comes back. The env the hook gets reads through to the engine's (its
 * `step` stays current) but is disarmed once the time is up.
 */
function withinLimit<T>(hook: string, timeoutMs: number, env: StrategyEnv | undefined, run: (env: StrategyEnv) => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let expired = false;
    const at = env === undefined ? '' : ` at step ${env.step}`;
    const arm = (): void => {
      timer = setTimeout(() => {
        expired = true;
        reject(new StrategyFailedError(`${hook}() did not return within ${timeoutMs} ms (timeoutMs)${at}`, false, 'strategy-timeout'));
      }, timeoutMs);
    };
    const pause = (): void => clearTimeout(timer);
    const limited = env === undefined ? (undefined as unknown as StrategyEnv) : limitedEnv(env, pause, arm, () => expired);
    arm();
    Promise.resolve()
      .then(() => run(limited))
      .then(
        (value) => {
          pause();
          if (!expired) resolve(value);
        },
        (error: unknown) => {
          pause();
          if (!expired) reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
  });
}

function limitedEnv(env: StrategyEnv, pause: () => void, arm: () => void, isExpired: () => boolean): StrategyEnv {
  const late: CompletionResult = { ok: false, failure: { kind: 'strategy-timeout', message: 'the hook ran past its time limit; the unit has ended' } };
  const limited = Object.create(env) as StrategyEnv;
  limited.model = {
    async complete(call) {
      if (isExpired()) return late;
      pause();
      try {
        return await env.model.complete(call);
      } finally {
        if (!isExpired()) arm();
      }
    },
  };
  limited.emit = (action) => {
    if (!isExpired()) env.emit(action);
  };
  return limited;
}

/** The hook's return value when it is a list of messages, else a `strategy` failure saying what it returned. */
function messagesOf(hook: string, value: unknown, step: number): Awaited<ReturnType<Strategy['prepare']>> {
  const problem = listProblem(value);
  if (problem !== undefined) throw new StrategyFailedError(`${hook}() returned ${problem} at step ${step}`);
  return value as Awaited<ReturnType<Strategy['prepare']>>;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** What keeps a value from being a list of messages, in words; undefined when it is one. */
function listProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return describeValue(value);
  for (const [i, item] of (value as unknown[]).entries()) {
    const m = item as { role?: unknown; text?: unknown; id?: unknown } | null;
    if (typeof m !== 'object' || m === null || !ROLES.has(m.role as string) || typeof m.text !== 'string' || typeof m.id !== 'string') {
      return `a list whose item ${i} is not a message (${describeValue(item)}; a message has an id, a role and a text)`;
    }
  }
  return undefined;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return `an object (${jsonOf(value)})`;
  if (typeof value === 'string') return `a string (${JSON.stringify(value.slice(0, 80))})`;
  if (typeof value === 'undefined') return 'undefined';
  if (typeof value === 'function') return 'a function';
  return `${typeof value} ${String(value as number | boolean | bigint)}`;
}

function jsonOf(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? '').slice(0, 80);
  } catch {
    return 'not JSON';
  }
}
