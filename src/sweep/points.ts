import type { Scenario, StrategySpec } from '../scenario/types.js';
import type { Strategy } from '../strategies/types.js';
import type { AxisValue, GridAxis, GridPoint } from './grid.js';
import { getStrategy, strategyNames } from '../strategies/index.js';
import { resolveStrategy } from '../replay/resolve-strategy.js';
import { HarnessError, UsageError } from '../errors.js';
import { describeSchemaError } from '../validate.js';

type Options = Record<string, unknown>;

/**
 * The strategy a sweep varies; an unknown name is a usage error naming the --grid flag, or, with
 * `maybeExternal`, undefined (it may label a scenario's module or command strategy).
 */
export function sweptStrategy(axes: readonly GridAxis[]): Strategy;
export function sweptStrategy(axes: readonly GridAxis[], maybeExternal: true): Strategy | undefined;
export function sweptStrategy(axes: readonly GridAxis[], maybeExternal = false): Strategy | undefined {
  const axis = axes[0] as GridAxis;
  if (maybeExternal && !strategyNames().includes(axis.strategy)) return undefined;
  try {
    return getStrategy(axis.strategy);
  } catch (error) {
    if (error instanceof HarnessError) throw new UsageError(`--grid '${axis.flag}': ${error.message}`);
    throw error;
  }
}

/**
 * The points of a sweep over a scenario's own module or command strategy (named by its label):
 * each point is that entry with the point's values laid on its options, validated by the
 * strategy's own schema. A scenario without such an entry is a usage error naming the flag.
 */
export function specsForExternalPoints(label: string, axes: readonly GridAxis[], points: readonly GridPoint[]): (scenario: Scenario) => StrategySpec[] {
  return (scenario) => {
    const base = scenario.strategies.find((spec) => spec.label === label && spec.source !== undefined);
    const axis = axes[0] as GridAxis;
    if (base === undefined)
      throw new UsageError(
        `--grid '${axis.flag}': "${label}" is neither a registered strategy nor the label of a module or command strategy of ${scenario.name}; known strategies: ${strategyNames().join(', ')}`,
      );
    return points.map((point) => {
      const options = mergeOptions(base.options, pointOptions(axes, point));
      const { strategy } = resolveStrategy(base, scenario.file);
      validatePoint(strategy, axes, point, options, ` (with ${scenario.name}'s options)`);
      return { ...base, label: point.label, options };
    });
  };
}

/** The options a point sets: each axis's value at its path. */
export function pointOptions(axes: readonly GridAxis[], point: GridPoint): Options {
  const options: Options = {};
  for (const axis of axes) if (axis.strategy === point.strategy) setPath(options, axis.path, point.values[axis.key] as AxisValue);
  return options;
}

function setPath(target: Options, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = isPlainObject(next) ? next : (node[key] = {});
  }
  node[path[path.length - 1] as string] = value;
}

/** `over` laid on `base`, nested objects merged, everything else replaced. */
export function mergeOptions(base: Options, over: Options): Options {
  const out: Options = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = isPlainObject(below) && isPlainObject(value) ? mergeOptions(below, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Options {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates a point's options with the strategy's own schema. A failure is a usage error that
 * names the --grid flag of the offending option (`where` adds the scenario whose base options
 * were merged in), so it is clear which axis to fix.
 */
export function validatePoint(strategy: Strategy, axes: readonly GridAxis[], point: GridPoint, options: Options, where = ''): void {
  const parsed = strategy.options.safeParse(options);
  if (parsed.success) return;
  const { field: at, message } = describeSchemaError(parsed.error, 'invalid options');
  const axis = axes.find((a) => at !== '' && (a.key === at || at.startsWith(`${a.key}.`) || a.key.startsWith(`${at}.`)));
  if (axis === undefined)
    throw new UsageError(`--grid: the point ${point.label}${where} is not valid for ${strategy.name}: ${message}${at !== '' ? ` (option ${at})` : ''}`);
  throw new UsageError(`--grid '${axis.flag}': ${axis.key}=${String(point.values[axis.key])}${where} is not valid for ${strategy.name}: ${message}`);
}

/**
 * The specs a sweep runs on a scenario: one per point, labelled with the point, its options the
 * scenario's own options for the strategy (when it lists it) with the point's values laid on
 * top. Each is validated before it is returned, so a bad point stops the sweep before any unit
 * runs.
 */
export function specsForPoints(strategy: Strategy, axes: readonly GridAxis[], points: readonly GridPoint[]): (scenario: Scenario) => StrategySpec[] {
  return (scenario) => {
    const base = scenario.strategies.find((spec) => spec.strategy === strategy.name)?.options ?? {};
    return points.map((point) => {
      const options = mergeOptions(base, pointOptions(axes, point));
      validatePoint(strategy, axes, point, options, Object.keys(base).length > 0 ? ` (with ${scenario.name}'s options)` : '');
      return { label: point.label, strategy: strategy.name, options };
    });
  };
}
