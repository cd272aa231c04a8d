import { describe, expect, it } from 'vitest';
import { expandScenarioPaths, loadScenarioFile } from '../../src/scenario/load.js';
import { runSuite } from '../../src/engine/run-suite.js';
import type { StrategyAction } from '../../src/strategies/types.js';
import type { UnitResult } from '../../src/metrics/types.js';

/**
 * The bundled real suite, run as `npm start` runs it (mocked): no two strategies of a scenario
 * have identical summary rows unless the scenario file's `identicalRows` lists them with a reason,
 * the seed strategies that act on any session act on every scenario that runs them (or are listed
 * beside `full`), and every seed strategy with a trigger acts on at least one scenario.
 */
const SCENARIOS = 'scenarios/real';
/** What each seed strategy's action log shows when it acts. */
const ACTS: Record<string, StrategyAction['action'][]> = {
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
const EVERYWHERE = ['surgical-eviction', 'rolling-window', 'tiered-truncation', 'state-anchor', 'gatekeeper'];

/** The bundled synthetic scenarios (`npm start` runs them beside the real suite). */
const SYNTHETIC = ['scenarios/overflow-coding.yaml', 'scenarios/recall-fits.yaml', 'scenarios/tpm-limited.yaml'];

const files = await expandScenarioPaths([SCENARIOS]);
const explained = new Map<string, { strategies: string[]; reason: string }[]>();
const realNames = new Set<string>();
for (const file of [...files, ...SYNTHETIC]) {
  const { data } = await loadScenarioFile(file);
  explained.set(data.name, data.identicalRows ?? []);
  if (files.includes(file)) realNames.add(data.name);
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

const isExplained = (scenario: string, labels: string[]): boolean => (explained.get(scenario) ?? []).some((e) => labels.every((l) => e.strategies.includes(l)));
const acted = (unit: UnitResult): boolean => unit.events.some((e) => e.type === 'action' && (ACTS[unit.strategy] ?? []).includes(e.action));

describe('the bundled real suite', () => {
  it('has no identical summary rows that its scenario files do not explain, and its seed strategies act', { timeout: 1_800_000 }, async () => {
    const { units } = await runSuite({ scenarios: [SCENARIOS] });
    const byScenario = new Map<string, UnitResult[]>();
    for (const unit of units) byScenario.set(unit.scenario, [...(byScenario.get(unit.scenario) ?? []), unit]);
    expect([...byScenario.keys()].sort()).toEqual([...realNames].sort());
    const unexplained = [...byScenario].flatMap(([scenario, list]) => identicalGroups(list).filter((g) => !isExplained(scenario, g)).map((g) => `${scenario}: ${g.join(' = ')}`));
    expect(unexplained).toEqual([]);
    const idle = [...byScenario].flatMap(([scenario, list]) =>
      list.filter((u) => EVERYWHERE.includes(u.strategy) && !acted(u) && !isExplained(scenario, ['full', u.strategy])).map((u) => `${scenario}: ${u.strategy}`),
    );
    expect(idle).toEqual([]);
    for (const name of Object.keys(ACTS)) expect(units.some((u) => u.strategy === name && acted(u)), name).toBe(true);
  });

  it('the bundled synthetic scenarios have no identical summary rows that their files do not explain', { timeout: 600_000 }, async () => {
    const { units } = await runSuite({ scenarios: SYNTHETIC });
    const byScenario = new Map<string, UnitResult[]>();
    for (const unit of units) byScenario.set(unit.scenario, [...(byScenario.get(unit.scenario) ?? []), unit]);
    expect(byScenario.size).toBe(SYNTHETIC.length);
    const unexplained = [...byScenario].flatMap(([scenario, list]) => identicalGroups(list).filter((g) => !isExplained(scenario, g)).map((g) => `${scenario}: ${g.join(' = ')}`));
    expect(unexplained).toEqual([]);
  });
});
