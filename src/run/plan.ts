import type { Scenario, StrategySpec } from '../scenario/types.js';
import type { ScenarioOverrides } from '../scenario/resolve.js';

/**
 * Where a unit's scenario comes from. Serialisable: a worker thread prepares the scenario again
 * from it (transcript, probes), so nothing but this crosses the thread boundary.
 */
export interface ScenarioRef {
  /** Absolute path of the scenario file. */
  file: string;
  /** The run's overrides, exactly as the scenario was prepared with them. */
  overrides: ScenarioOverrides;
}

/**
 * One unit of work: one scenario × one strategy spec. A sweep point is a spec whose options are
 * the point's values. Plain data, so it can be posted to a worker thread as it is.
 */
export interface PlannedUnit {
  /** Position in the plan; results are put back in this order whoever ran them. */
  index: number;
  scenario: ScenarioRef;
  spec: StrategySpec;
}

/** What planning needs of a prepared scenario. */
export interface PlannableScenario {
  scenario: Scenario;
}

/**
 * The deterministic, ordered list of units of a run: scenarios in the order given (files sorted
 * within folders, see scenario/load.ts), and within a scenario the specs `specsOf` returns (by
 * default the scenario's own strategies). The same inputs always give the same plan, which is
 * what makes results independent of the number of workers and of the shard a unit lands in.
 */
export function planUnits(
  prepared: readonly PlannableScenario[],
  overrides: ScenarioOverrides,
  specsOf: (scenario: Scenario) => readonly StrategySpec[] = (scenario) => scenario.strategies,
): PlannedUnit[] {
  const units: PlannedUnit[] = [];
  for (const { scenario } of prepared) {
    for (const spec of specsOf(scenario)) {
      units.push({ index: units.length, scenario: { file: scenario.file, overrides }, spec });
    }
  }
  return units;
}

/** The cache key of a scenario reference: equal keys prepare the same scenario. */
export function scenarioKey(ref: ScenarioRef): string {
  return JSON.stringify([ref.file, ref.overrides]);
}
