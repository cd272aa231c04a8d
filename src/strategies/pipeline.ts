import { z } from 'zod';
import { UsageError } from '../errors.js';
import type { ContextMessage } from '../transcript/types.js';
import type { RecoverDecision, Strategy, StrategyEnv } from './types.js';
import type { Failure } from '../contracts/provider.js';
import { tieredTruncation } from './tiered-truncation.js';
import { rollingWindow } from './rolling-window.js';
import { describeSchemaError } from '../validate.js';

const stageSchema = z.strictObject({
  strategy: z.string().min(1),
  options: z.record(z.string(), z.unknown()).default(() => ({})),
});

const options = z.strictObject({
  stages: z
    .array(stageSchema)
    .min(1)
    .default(() => [
      { strategy: 'tiered-truncation', options: {} },
      { strategy: 'rolling-window', options: {} },
    ])
    .describe('the stages in order, each {strategy, options}; each stage works on the context the previous one prepared'),
});

export type Options = z.infer<typeof options>;
type StageSpec = Options['stages'][number];

/** One stage at run time: its strategy, its validated options and, when it keeps one, its state. */
interface Stage {
  strategy: Strategy;
  options: unknown;
  state: unknown;
  /**
   * Every stage keeps its state across steps. The first stage, and every stage with `transform`,
   * observe every transcript event. A later stage without `transform` observes the transcript's
   * other events and, of the context it is given, each message it has not seen yet (`fed`).
   */
  observesTranscript: boolean;
  fed: Set<string>;
}

export interface State {
  stages: Stage[];
}

/** Finds a stage's strategy by name; the engine passes the registry's `getStrategy`. */
export type StageLookup = (name: string) => Strategy;

function initStage(strategy: Strategy, spec: StageSpec, index: number, context: { sessionId: string; window: number }): Stage {
  const parsed = strategy.options.safeParse(spec.options);
  if (!parsed.success) {
    const { field, message } = describeSchemaError(parsed.error);
    throw new UsageError(`pipeline stage ${index} (${spec.strategy}): invalid options: ${message}${field !== '' ? ` (option ${field})` : ''}`);
  }
  const observesTranscript = index === 0 || strategy.transform !== undefined;
  return { strategy, options: parsed.data, state: strategy.init(parsed.data, context), observesTranscript, fed: new Set() };
}

/**
 * A later stage without `transform`: its own state, kept across steps, is fed the messages of
 * the context it has not seen before, then prepares. What it did at earlier steps (recaps,
 * locks, counters) stays; a message an earlier stage later rewrites under a new id reaches it
 * as a new message.
 */
async function runFed(stage: Stage, context: ContextMessage[], env: StrategyEnv): Promise<ContextMessage[]> {
  for (const message of context) {
    if (stage.fed.has(message.id)) continue;
    stage.fed.add(message.id);
    await stage.strategy.observe?.(message, stage.state, env);
  }
  return stage.strategy.prepare(stage.state, env);
}

/** Runs stages on a context, each on the output of the previous one. */
async function runStages(stages: readonly Stage[], context: ContextMessage[], env: StrategyEnv): Promise<ContextMessage[]> {
  let current = context;
  for (const stage of stages) {
    current = stage.strategy.transform !== undefined ? await stage.strategy.transform(current, stage.state, env) : await runFed(stage, current, env);
  }
  return current;
}

/** Asks the stages to recover, in order, until one retries. */
async function recoverStages(stages: readonly Stage[], failure: Failure, env: StrategyEnv): Promise<RecoverDecision> {
  for (const stage of stages) {
    if (stage.strategy.recover === undefined) continue;
    if ((await stage.strategy.recover(failure, stage.state, env)) === 'retry') return 'retry';
  }
  return 'give-up';
}

/**
 * Builds the pipeline strategy over a stage lookup. Stage 1 observes the transcript and prepares
 * a context as it would alone; each later stage receives that context through `transform`
 * (types.ts), keeping its own state across steps, or, lacking `transform`, as the messages of
 * it that its own (kept) state has not seen yet. `recover` goes to the stages in order until one retries; the thresholds are
 * the union of the stages'.
 */
export function createPipeline(lookup: StageLookup): Strategy<Options, State> {
  const find = (name: string): Strategy => (name === 'pipeline' ? self : lookup(name));
  const self: Strategy<Options, State> = {
    name: 'pipeline',
    description:
      'Chains strategies: the first prepares the context from the transcript, each next one works on the context the previous one prepared; default tiered-truncation then rolling-window.',
    options,
    init: (opts, context) => ({ stages: opts.stages.map((spec, i) => initStage(find(spec.strategy), spec, i, context)) }),
    async observe(event, state, env) {
      for (const stage of state.stages) {
        if (stage.observesTranscript || event.type !== 'message') await stage.strategy.observe?.(event, stage.state, env);
      }
    },
    async prepare(state, env) {
      const [first, ...rest] = state.stages;
      if (first === undefined) return [];
      return runStages(rest, await first.strategy.prepare(first.state, env), env);
    },
    transform: (context, state, env) => runStages(state.stages, context, env),
    recover: (failure, state, env) => recoverStages(state.stages, failure, env),
    thresholds(opts, window) {
      const union = new Map<string, { label: string; tokens: number }>();
      for (const spec of opts.stages) {
        const strategy = find(spec.strategy);
        for (const t of strategy.thresholds?.(strategy.options.parse(spec.options), window) ?? []) {
          const line = { label: `${spec.strategy}: ${t.label}`, tokens: t.tokens };
          union.set(`${line.label}@${line.tokens}`, line);
        }
      }
      return [...union.values()];
    },
  };
  return self;
}

const DEFAULT_STAGES: Record<string, Strategy> = { 'tiered-truncation': tieredTruncation, 'rolling-window': rollingWindow };

/**
 * The registered pipeline knows its default stages only: this file cannot import the registry
 * (the registry imports it). Scenarios are resolved by src/replay/resolve-strategy.ts, which
 * builds `createPipeline(getStrategy)` so that any registered strategy can be a stage.
 */
export const pipeline = createPipeline((name) => {
  const found = DEFAULT_STAGES[name];
  if (found === undefined) {
    throw new UsageError(
      `the registered pipeline only knows its default stages (${Object.keys(DEFAULT_STAGES).join(', ')}); resolve "${name}" through resolveStrategy, which looks stages up in the registry`,
    );
  }
  return found;
});
