import type { Scenario, StrategySpec } from '../scenario/types.js';
import { getStrategy, strategyNames } from '../strategies/index.js';
import type { Strategy } from '../strategies/types.js';
import { resolveStrategy } from '../replay/resolve-strategy.js';
import { UsageError } from '../errors.js';
import { parseOptionAxis, type GridAxis } from './grid.js';
import { mergeOptions, pointOptions } from './points.js';
import { describeSchemaError } from '../validate.js';

/**
 * `run --set strategy.option=value`: one value of a strategy option for the whole run, written
 * as a `--grid` axis of one value (one grammar, one parser: sweep/grid.ts). The strategy may be a
 * registered one or the label of a module or command strategy (`--strategy-module`, a scenario's
 * `module:`/`command:` entry): which it is, is known once the scenarios are read (specsWithSettings).
 */
export function parseSettings(flags: readonly string[]): GridAxis[] {
  return flags.map((flag) => {
    const axis = parseOptionAxis(flag, '--set');
    if (axis.values.length !== 1) throw new UsageError(`--set '${flag}': one value per option (to try several, use ctxbench sweep --grid '${flag}')`);
    return axis;
  });
}

/**
 * The specs a scenario runs with the settings laid on: every spec of the named strategy (or with
 * that label; pipeline stages too) gets the values on top of its own options, validated with the
 * strategy's schema (a module's own schema or validate function; a policy process checks its
 * options itself, at its handshake). A setting for a strategy the scenario does not run is an
 * error: a silently ignored option would make the user believe the run used it.
 */
export function specsWithSettings(axes: readonly GridAxis[]): (scenario: Scenario) => StrategySpec[] {
  return (scenario) => {
    for (const axis of axes) {
      if (scenario.strategies.some((spec) => matches(spec, axis))) continue;
      if (!strategyNames().includes(axis.strategy)) {
        const own = scenario.strategies.filter((spec) => spec.source !== undefined).map((spec) => spec.label);
        const ownList = own.length > 0 ? `; ${scenario.name}'s own: ${own.join(', ')}` : '';
        throw new UsageError(`--set '${axis.flag}': unknown strategy "${axis.strategy}"; known strategies: ${strategyNames().join(', ')}${ownList}`);
      }
      throw new UsageError(`--set '${axis.flag}': the scenario ${scenario.name} does not run ${axis.strategy} (add it with --strategies)`);
    }
    return scenario.strategies.map((spec) => applySettings(spec, axes, scenario.file));
  };
}

function matches(spec: StrategySpec, axis: GridAxis): boolean {
  return spec.strategy === axis.strategy || spec.label === axis.strategy || (spec.stages ?? []).some((stage) => matches(stage, axis));
}

function applySettings(spec: StrategySpec, axes: readonly GridAxis[], file: string): StrategySpec {
  const stages = spec.stages?.map((stage) => applySettings(stage, axes, file));
  let options = spec.options;
  for (const axis of axes) {
    if (spec.strategy !== axis.strategy && spec.label !== axis.strategy) continue;
    if (spec.strategy === 'pipeline') continue;
    options = mergeOptions(options, pointOptions([axis], { index: 0, strategy: axis.strategy, values: { [axis.key]: axis.values[0] as never }, label: '' }));
    const parsed = strategyOf(spec, file).options.safeParse(options);
    if (!parsed.success) {
      const { field, message } = describeSchemaError(parsed.error, 'invalid options');
      throw new UsageError(`--set '${axis.flag}': not valid for ${spec.strategy}: ${message}${field !== '' ? ` (option ${field})` : ''}`);
    }
  }
  return { ...spec, options, ...(stages !== undefined ? { stages } : {}) };
}

/** The strategy a spec names: registered, or a loaded module or a policy command (spec.source). */
function strategyOf(spec: StrategySpec, file: string): Strategy {
  return spec.source === undefined ? getStrategy(spec.strategy) : resolveStrategy(spec, file).strategy;
}
