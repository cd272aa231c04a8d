import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandScenarioPaths, loadScenarioFile } from '../../src/scenario/load.js';
import { resolveRelative } from '../../src/scenario/load.js';
import { prepareScenarios, runSuite } from '../../src/engine/run-suite.js';
import { strategyNames } from '../../src/strategies/index.js';

const FIXTURES = 'fixtures/real';
const SCENARIOS = 'scenarios/real';

/** Every recorded log under fixtures/real/<format>/ (the expected files are another tool's parse). */
const realFiles = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) => readdirSync(join(FIXTURES, dir.name)).filter((name) => !name.endsWith('.expected.json')).map((name) => resolve(FIXTURES, dir.name, name)));

const scenarioFiles = await expandScenarioPaths([SCENARIOS]);

describe('scenarios/real', () => {
  it('has one scenario per real transcript, each asking for generated probes', async () => {
    const loaded = await Promise.all(scenarioFiles.map((file) => loadScenarioFile(file)));
    const transcripts = loaded.map((l) => resolveRelative(l.file, l.data.transcript as string));
    expect(transcripts.sort()).toEqual([...realFiles].sort());
    for (const l of loaded) expect(l.data.probes, l.file).toBe('generate');
  });

  it('chooses the provider by the transcript\'s dialect', async () => {
    for (const { scenario, transcript } of await prepareScenarios([SCENARIOS])) {
      expect(scenario.provider, scenario.name).toBe(transcript.header.dialect === 'gemini' ? 'gemini' : 'openai');
    }
  });
});

/**
 * Every real file replays through every registered strategy (the registry as it is now, not a
 * list kept here) without an exception from the engine. Crashes of the agent are results, and
 * `onCrash: continue` keeps every later step going through the strategy too.
 */
describe.each(scenarioFiles.map((file) => ({ file, name: file.split('/').at(-1) })))('$name', ({ file }) => {
  it('replays through every registered strategy without an engine error; full overflows the window', { timeout: 240_000 }, async () => {
    const names = strategyNames();
    const result = await runSuite({ scenarios: [file], overrides: { strategies: names, onCrash: 'continue' } });
    const steps = result.scenarios[0]?.steps ?? 0;
    expect(steps).toBeGreaterThan(0);
    expect(result.units.map((u) => u.strategy)).toEqual(names);
    for (const unit of result.units) {
      // With onCrash: continue every recorded step is attempted, whatever happened before.
      expect(unit.steps, unit.strategy).toHaveLength(steps);
      for (const step of unit.steps) expect(step.status === 'ok' || step.failure !== undefined, `${unit.strategy} step ${step.step}`).toBe(true);
    }
    const full = result.units.find((u) => u.strategy === 'full');
    expect(full?.summary).toMatchObject({ crashed: true, crash_kind: 'overflow' });
  });
});
