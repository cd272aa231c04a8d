import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandScenarioPaths, loadScenarioFile } from '../../src/scenario/load.js';
import { runSuite } from '../../src/run/run-suite.js';
import { preparedBundled } from './bundled-prepared.js';
import { strategyNames } from '../../src/strategies/index.js';
import { writeFiles } from '../helpers/temp.js';

const SCENARIOS = 'scenarios/real';

const scenarioFiles = await expandScenarioPaths([SCENARIOS]);
const prepared = await preparedBundled(SCENARIOS);

/** Steps and probes of a prepared scenario, over all of its logs. */
function sizeOf(p: (typeof prepared)[number]): { steps: number; probes: number } {
  const logs = p.logs ?? [{ transcript: p.transcript, probes: p.probes }];
  const steps = logs.reduce((n, log) => n + log.transcript.events.filter((e) => e.type === 'message' && e.role === 'assistant').length, 0);
  const probes = logs.reduce((n, log) => n + (log.probes?.probes.length ?? 0), 0);
  return { steps, probes };
}

describe('scenarios/real', () => {
  it('replays the long Claude Code sessions, the Claude Code session with a huge tool output, and the mini-swe-agent folder', () => {
    expect(prepared.map((p) => [p.scenario.name, p.scenario.transcript.kind === 'file' ? p.scenario.transcript.path : ''])).toEqual([
      ['real-claude-code-vibecoding-session', resolve('fixtures/real/claude-code/vibecoding-session.jsonl')],
      ['real-claude-code-vsla-compacted', resolve('fixtures/real/claude-code-long/vsla-0a725fb5.jsonl')],
      ['real-claude-code-vsla-long', resolve('fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl')],
      ['real-mini-swe-agent', resolve('fixtures/real/mini-swe-agent')],
    ]);
    expect(prepared.find((p) => p.scenario.name === 'real-mini-swe-agent')?.logs).toHaveLength(23);
  });

  it('gives every scenario at least 30 steps and generated probes', async () => {
    expect(prepared.map((p) => [p.scenario.name, sizeOf(p)])).toEqual([
      // Its prose is Chinese: decisions and next steps from Chinese phrasing (cjk-decision-facts.ts).
      ['real-claude-code-vibecoding-session', { steps: 32, probes: 11 }],
      ['real-claude-code-vsla-compacted', { steps: 201, probes: 20 }],
      ['real-claude-code-vsla-long', { steps: 119, probes: 20 }],
      ['real-mini-swe-agent', { steps: 1019, probes: 69 }],
    ]);
    for (const file of scenarioFiles) {
      const { data } = await loadScenarioFile(file);
      expect(JSON.stringify(data.probes), file).toMatch(/generate/);
      // Each file says which window it uses and why, relative to the agent's real one.
      expect(data.description ?? '', file).toMatch(/window/);
    }
  });

  it("chooses the provider by the transcript's dialect", () => {
    for (const { scenario, transcript } of prepared) {
      expect(scenario.provider, scenario.name).toBe(transcript.header.dialect === 'gemini' ? 'gemini' : 'openai');
    }
  });
});

/**
 * Every registered strategy replays real logs without an engine error (the registry as it is now,
 * not a list kept here): the Claude Code session with its huge tool output, and two mini-swe-agent
 * runs whose tool calls and results are sent as plain text. Crashes of the agent are results, and
 * `onCrash: continue` keeps every later step going through the strategy too.
 */
describe('every registered strategy on real logs', () => {
  const miniSweAgent = (): string => {
    const dir = writeFiles({ 'two.yaml': 'name: two\ntranscript: logs/\nprobes: generate\nwindow: 8000\n' });
    mkdirSync(join(dir, 'logs'));
    for (const name of ['django__django-11163.traj.json', 'django__django-10999.traj.json']) copyFileSync(join('fixtures/real/mini-swe-agent', name), join(dir, 'logs', name));
    return join(dir, 'two.yaml');
  };

  it.each([
    { name: 'real-claude-code-vibecoding-session', file: () => join(SCENARIOS, 'real-claude-code-vibecoding-session.yaml') },
    { name: 'two mini-swe-agent runs in an 8k window', file: miniSweAgent },
  ])('$name', { timeout: 240_000 }, async ({ file }) => {
    const names = strategyNames();
    const result = await runSuite({ scenarios: [file()], overrides: { strategies: names, onCrash: 'continue' } });
    const steps = result.scenarios[0]?.steps ?? 0;
    expect(steps).toBeGreaterThan(30);
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
