import { describe, expect, it } from 'vitest';
import { expandScenarioPaths } from '../../src/scenario/load.js';
import { ACTS, acted, idleSeedStrategies, runScenarios, unexplainedIdenticalRows } from './identical-rows.js';

/**
 * The bundled real suite, run as `npm start` runs it (mocked): no two strategies of a scenario
 * have identical summary rows unless the scenario file's `identicalRows` lists them with a reason,
 * the seed strategies that act on any session act on every scenario that runs them (or are listed
 * beside `full`), and every seed strategy with a trigger acts on at least one scenario. One
 * scenario file per test file (the rule is in ./identical-rows.ts), so that vitest runs the
 * suite's minute of CPU on both cores: the two Claude Code sessions below, the compacted one in
 * real-identical-rows.vsla-compacted.test.ts, mini-swe-agent in
 * real-identical-rows.mini-swe-agent.test.ts, the synthetic scenarios in
 * test/report/html.browser.test.ts (whose browser tests render the same run: one run for both).
 */
const REAL = 'scenarios/real';

describe('the bundled real suite', () => {
  it('is the four scenarios its test files run', async () => {
    // A scenario added to scenarios/real/ needs a test file of its own beside these.
    expect((await expandScenarioPaths([REAL])).map((f) => f.slice(f.lastIndexOf('/') + 1))).toEqual([
      'real-claude-code-vibecoding-session.yaml',
      'real-claude-code-vsla-compacted.yaml',
      'real-claude-code-vsla-long.yaml',
      'real-mini-swe-agent.yaml',
    ]);
  });

  it('vibecoding session: no identical rows its file does not explain; every seed strategy with a trigger acts on it', { timeout: 600_000 }, async () => {
    const run = await runScenarios([`${REAL}/real-claude-code-vibecoding-session.yaml`]);
    expect(unexplainedIdenticalRows(run)).toEqual([]);
    expect(idleSeedStrategies(run)).toEqual([]);
    // The session runs every registered strategy (no `strategies:` line), so it is where each seed
    // strategy with a trigger shows that it acts on some scenario of the suite.
    for (const name of Object.keys(ACTS)) expect(run.units.some((u) => u.strategy === name && acted(u)), name).toBe(true);
  });

  it('vsla-long: no identical rows its file does not explain, and its seed strategies act', { timeout: 600_000 }, async () => {
    const run = await runScenarios([`${REAL}/real-claude-code-vsla-long.yaml`]);
    expect(run.byScenario.size).toBe(1);
    expect(unexplainedIdenticalRows(run)).toEqual([]);
    expect(idleSeedStrategies(run)).toEqual([]);
  });
});
