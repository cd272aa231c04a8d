import type { StrategySpec } from '../scenario/types.js';
import type { Strategy } from '../strategies/types.js';
import { getStrategy } from '../strategies/index.js';
import { createPipeline } from '../strategies/pipeline.js';
import { InputError } from '../errors.js';
import { loadedStrategyModule } from '../strategies/external/module-loader.js';
import { createProcessStrategy } from '../strategies/external/process-strategy.js';
import { boundStrategy, DEFAULT_STRATEGY_TIMEOUT_MS } from '../strategies/external/bounded.js';
import { parseInput } from '../validate.js';

/** A strategy with its options validated and defaults filled. */
export interface ResolvedStrategy {
  strategy: Strategy;
  options: Record<string, unknown>;
}

/**
 * Resolves a scenario's strategy spec against the registry, a loaded strategy module or a policy
 * command (spec.source), or `override`, a strategy given
 * directly, e.g. by a test) and validates its options with the strategy's own schema (defaults
 * filled). A pipeline resolves each stage the same way, with the stage's own schema, and runs
 * over the whole registry.
 */
export function resolveStrategy(spec: StrategySpec, file = '<scenario>', override?: Strategy): ResolvedStrategy {
  if (override !== undefined) return { strategy: override, options: parseOptions(override, spec.options, file, ['strategies', spec.label]) };
  return resolveAt(spec, file, ['strategies', spec.label]);
}

function resolveAt(spec: StrategySpec, file: string, path: string[]): ResolvedStrategy {
  if (spec.source !== undefined) {
    // A module was loaded (loadStrategyModules) before any spec is resolved; a command starts per unit.
    // A module's hooks run under a time limit and must return message lists; a process answers under its own.
    const strategy =
      spec.source.kind === 'module'
        ? boundStrategy(loadedStrategyModule(spec.source.path), spec.source.timeoutMs ?? DEFAULT_STRATEGY_TIMEOUT_MS)
        : createProcessStrategy(spec.label, spec.source);
    return { strategy, options: parseOptions(strategy, spec.options, file, path) };
  }
  if (spec.strategy === 'pipeline') return resolvePipeline(spec, file, path);
  const strategy = getStrategy(spec.strategy);
  return { strategy, options: parseOptions(strategy, spec.options, file, path) };
}

function parseOptions(strategy: Strategy, options: Record<string, unknown>, file: string, path: string[]): Record<string, unknown> {
  return parseInput(strategy.options, options, { file, at: [...path, 'options'] }) as Record<string, unknown>;
}

/**
 * The stages come from a scenario's `pipeline:` list (spec.stages) or, for a plain
 * `strategy: pipeline` entry, from its `stages` option (default: tiered-truncation, then
 * rolling-window). The resolved options list every stage with its filled options.
 */
function resolvePipeline(spec: StrategySpec, file: string, path: string[]): ResolvedStrategy {
  const pipeline = createPipeline(getStrategy);
  if (spec.stages !== undefined && spec.options.stages !== undefined) {
    throw new InputError({ file, field: [...path, 'options', 'stages'].join('.') }, 'give the stages either as `pipeline:` or as options.stages, not both');
  }
  const own = parseOptions(pipeline, spec.options, file, path) as { stages: { strategy: string; options: Record<string, unknown> }[] };
  const fromList = spec.stages !== undefined;
  const stageSpecs: StrategySpec[] = spec.stages ?? own.stages.map((s) => ({ label: s.strategy, strategy: s.strategy, options: s.options }));
  const stages = stageSpecs.map((stage, i) => {
    const at = fromList ? [...path, 'pipeline', String(i)] : [...path, 'options', 'stages', String(i)];
    return { strategy: stage.strategy, options: resolveAt(stage, file, at).options };
  });
  return { strategy: pipeline, options: { stages } };
}
