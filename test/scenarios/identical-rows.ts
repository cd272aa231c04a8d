import { loadScenarioFile } from '../../src/scenario/load.js';
import { runSuite } from '../../src/run/run-suite.js';
import type { StrategyAction } from '../../src/strategies/types.js';
import type { RunResult, UnitResult } from '../../src/metrics/types.js';

/**
 * The rule test/scenarios/real-identical-rows*.test.ts (and, for the synthetic scenarios,
 * test/report/html.browser.test.ts) hold the bundled scenarios to, run as
 * `npm start` runs them (mocked): no two strategies of a scenario have identical summary rows
 * unless the scenario file's `identicalRows` lists them with a reason, and the seed strategies
 * that act on any session act on every scenario that runs them (or are listed beside `full`).
 * One scenario per test file, so that vitest spreads the suite over its workers.
 */

/** What each seed strategy's action log shows when it acts. */
export const ACTS: Record<string, StrategyAction['action'][]> = {
  'surgical-eviction': ['evict'],
  'rolling-window': ['drop'],
  'tiered-truncation': ['truncate'],
  'state-anchor': ['anchor'],
  gatekeeper: ['offload'],
  'tri-modal': ['compact', 'cap-thinking'],
  'codex-rebuild': ['compact', 'truncate'],
  'reactive-compress': ['compact', 'truncate'],
  sigma: ['evict', 'compact'],
};
/** Seed strategies that act on any session: each must act on every scenario that runs it. */
const EVERYWHERE = ['surgical-eviction', 'rolling-window', 'tiered-truncation', 'state-anchor', 'gatekeeper'];

interface Explanation {
  strategies: string[];
  reason: string;
}

/** Groups of two or more units of one scenario whose summary rows, label aside, are equal. */
function identicalGroups(units: UnitResult[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const unit of units) {
    const { strategy: _label, ...row } = unit.summary as unknown as Record<string, unknown>;
    const key = JSON.stringify(row);
    groups.set(key, [...(groups.get(key) ?? []), unit.strategy]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

const isExplained = (explained: Explanation[], labels: string[]): boolean => explained.some((e) => labels.every((l) => e.strategies.includes(l)));

/** Whether the unit's action log holds an action its strategy takes when it acts. */
export const acted = (unit: UnitResult): boolean => unit.events.some((e) => e.type === 'action' && (ACTS[unit.strategy] ?? []).includes(e.action));

/** The units of a run of scenario files, grouped by scenario, with each scenario's `identicalRows`. */
export interface RowsByScenario {
  result: RunResult;
  units: UnitResult[];
  byScenario: Map<string, UnitResult[]>;
  explained: Map<string, Explanation[]>;
}

/** Runs the scenario files as the bundled suite runs them (mocked, each with its own settings). */
export async function runScenarios(files: string[]): Promise<RowsByScenario> {
  const explained = new Map<string, Explanation[]>();
  for (const file of files) {
    const { data } = await loadScenarioFile(file);
    explained.set(data.name, data.identicalRows ?? []);
  }
  const result = await runSuite({ scenarios: files });
  const { units } = result;
  const byScenario = new Map<string, UnitResult[]>();
  for (const unit of units) byScenario.set(unit.scenario, [...(byScenario.get(unit.scenario) ?? []), unit]);
  return { result, units, byScenario, explained };
}

/** `scenario: a = b` for every group of identical rows its file does not list in `identicalRows`. */
export function unexplainedIdenticalRows({ byScenario, explained }: RowsByScenario): string[] {
  return [...byScenario].flatMap(([scenario, list]) =>
    identicalGroups(list)
      .filter((g) => !isExplained(explained.get(scenario) ?? [], g))
      .map((g) => `${scenario}: ${g.join(' = ')}`),
  );
}

/** `scenario: strategy` for every EVERYWHERE strategy that did not act and is not listed beside `full`. */
export function idleSeedStrategies({ byScenario, explained }: RowsByScenario): string[] {
  return [...byScenario].flatMap(([scenario, list]) =>
    list
      .filter((u) => EVERYWHERE.includes(u.strategy) && !acted(u) && !isExplained(explained.get(scenario) ?? [], ['full', u.strategy]))
      .map((u) => `${scenario}: ${u.strategy}`),
  );
}
