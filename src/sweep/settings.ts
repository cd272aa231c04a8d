import type { Scenario, StrategySpec } from '../scenario/types.js';
import { getStrategy } from '../strategies/index.js';
import { HarnessError, UsageError } from '../errors.js';
import { parseOptionAxis, type GridAxis } from './grid.js';
import { mergeOptions, pointOptions } from './points.js';
import { describeSchemaError } from '../validate.js';

/**
 * `run --set strategy.option=value`: one value of a strategy option for the whole run, written
 * as a `--grid` axis of one value (one grammar, one parser: sweep/grid.ts).
 */
export function parseSettings(flags: readonly string[]): GridAxis[] {
  return flags.map((flag) => {
    const axis = parseOptionAxis(flag, '--set');
    if (axis.values.length !== 1) throw new UsageError(`--set '${flag}': one value per option (to try several, use ctxbench sweep --grid '${flag}')`);
    try {
      getStrategy(axis.strategy);
    } catch (error) {
      if (error instanceof HarnessError) throw new UsageError(`--set '${flag}': ${error.message}`);
      throw error;
    }
    return axis;
  });
}

/**
 * The specs a scenario runs with the settings laid on: every spec of the named strategy (or with
 * that label; pipeline stages too) gets the values on top of its own options, validated with the
 * strategy's schema. A setting for a strategy the scenario does not run is an error: a silently
 * ignored option would make the user believe the run used it.
 */
export function specsWithSettings(axes: readonly GridAxis[]): (scenario: Scenario) => StrategySpec[] {
  return (scenario) => {
    for (const axis of axes) {
      if (!scenario.strategies.some((spec) => matches(spec, axis))) {
        throw new UsageError(`--set '${axis.flag}': the scenario ${scenario.name} does not run ${axis.strategy} (add it with --strategies)`);
      }
    }
    return scenario.strategies.map((spec) => applySettings(spec, axes));
  };
}

function matches(spec: StrategySpec, axis: GridAxis): boolean {
  return spec.strategy === axis.strategy || spec.label === axis.strategy || (spec.stages ?? []).some((stage) => matches(stage, axis));
}

function applySettings(spec: StrategySpec, axes: readonly GridAxis[]): StrategySpec {
  const stages = spec.stages?.map((stage) => applySettings(stage, axes));
  let options = spec.options;
  for (const axis of axes) {
    if (spec.strategy !== axis.strategy && spec.label !== axis.strategy) continue;
    if (spec.strategy === 'pipeline') continue;
    options = mergeOptions(options, pointOptions([axis], { index: 0, strategy: axis.strategy, values: { [axis.key]: axis.values[0] as never }, label: '' }));
    const parsed = getStrategy(spec.strategy).options.safeParse(options);
    if (!parsed.success) {
      const { field, message } = describeSchemaError(parsed.error, 'invalid options');
      throw new UsageError(`--set '${axis.flag}': not valid for ${spec.strategy}: ${message}${field !== '' ? ` (option ${field})` : ''}`);
    }
  }
  return { ...spec, options, ...(stages !== undefined ? { stages } : {}) };
}
