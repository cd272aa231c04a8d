import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runSuite } from '../../src/run/run-suite.js';
import { cli } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

/** A real Claude Code session of 119 steps whose context grows past 100k tokens. */
const log = resolve(import.meta.dirname, '../../fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl');
const base = ['run', log, '--window', '200000', '--strategies', 'full,codex-rebuild', '--quiet', '--reports', 'json,csv'];

function readCsv(dir: string, file: string): { columns: string[]; rows: Record<string, string>[] } {
  const [header = '', ...lines] = readFileSync(join(dir, file), 'utf8').trim().split('\n');
  const columns = header.split(',');
  return { columns, rows: lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i], cell]))) };
}

/** result.json without what the context-rot option adds: what the run would be without it. */
function withoutRot(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRot);
  if (value === null || typeof value !== 'object') return value;
  const kept = Object.entries(value).filter(([key]) => !['rot', 'withContextRot', 'answer_recall_rot', 'contextRot'].includes(key));
  return Object.fromEntries(kept.map(([key, v]) => [key, withoutRot(v)]));
}

interface RotResult {
  scenarios: { contextRot?: { name: string } }[];
  units: { probes: { answers: { correct: boolean; unanswered?: true; rot?: { correct: boolean } }[] } }[];
}

afterEach(() => vi.restoreAllMocks());

describe('run --context-rot on a long real log', () => {
  it('reports recall under rot apart; full loses reads, codex-rebuild (shorter contexts) beats it there; off changes nothing', async () => {
    const on = tempDir();
    const off = tempDir();
    const none = tempDir();
    expect((await cli([...base, '--out', on, '--context-rot', 'nolima:llama-3.1-8b'])).code).toBe(0);
    expect((await cli([...base, '--out', off, '--context-rot', 'off'])).code).toBe(0);
    expect((await cli([...base, '--out', none])).code).toBe(0);

    const summary = readCsv(on, 'summary.csv');
    expect(summary.columns.at(-1)).toBe('answer_recall_rot');
    const row = (strategy: string) => summary.rows.find((r) => r.strategy === strategy) as Record<string, string>;
    const full = row('full');
    const codex = row('codex-rebuild');
    // full reads everything plainly, but its long contexts cost it reads under the published curve.
    expect(Number(full.answer_recall)).toBe(1);
    expect(Number(full.answer_recall_rot)).toBeLessThan(Number(full.answer_recall));
    // codex-rebuild cuts tool output as it enters the history: a shorter context at the same asks.
    expect(Number(codex.answer_recall)).toBeLessThan(Number(full.answer_recall));
    expect(Number(codex.answer_recall_rot)).toBeGreaterThan(Number(full.answer_recall_rot));

    expect(readCsv(on, 'probes.csv').columns.slice(-2)).toEqual(['correct_rot', 'rot_probability']);
    const result = JSON.parse(readFileSync(join(on, 'result.json'), 'utf8')) as RotResult;
    expect(result.scenarios[0]?.contextRot?.name).toBe('nolima:llama-3.1-8b');
    const answers = result.units.flatMap((unit) => unit.probes.answers);
    // Under rot a read is lost, never found: rot.correct only where correct; every asked point graded.
    expect(answers.filter((a) => a.rot?.correct === true && !a.correct)).toEqual([]);
    expect(answers.filter((a) => a.unanswered !== true && a.rot === undefined)).toEqual([]);

    // Off (the default, or said) adds no column, and everything else is what the run gave with it on.
    for (const file of ['summary.csv', 'probes.csv', 'steps.csv', 'events.csv', 'result.json'])
      expect(readFileSync(join(off, file)), file).toEqual(readFileSync(join(none, file)));
    expect(readCsv(none, 'summary.csv').columns).not.toContain('answer_recall_rot');
    expect(readCsv(none, 'probes.csv').columns).not.toContain('correct_rot');
    expect(JSON.parse(readFileSync(join(none, 'result.json'), 'utf8'))).toEqual(withoutRot(JSON.parse(readFileSync(join(on, 'result.json'), 'utf8'))));
  });

  it("takes a scenario's own curve (custom points), which --context-rot off turns off", async () => {
    const dir = writeFiles({
      's.yaml': [
        'name: rot-custom',
        'transcript:',
        '  generate: { steps: 24, toolOutputTokens: 600, facts: 4 }',
        'window: 60000',
        'strategies: [full]',
        'reader:',
        '  contextRot: { points: [[1000, 1], [4000, 0.3]] }',
      ].join('\n'),
    });
    const on = tempDir();
    const off = tempDir();
    expect((await cli(['run', dir, '--out', on, '--quiet', '--reports', 'json,csv'])).code).toBe(0);
    expect((await cli(['run', dir, '--out', off, '--quiet', '--reports', 'json,csv', '--context-rot', 'off'])).code).toBe(0);
    const [row] = readCsv(on, 'summary.csv').rows;
    expect(Number(row?.answer_recall_rot)).toBeLessThan(Number(row?.answer_recall));
    const result = JSON.parse(readFileSync(join(on, 'result.json'), 'utf8')) as { scenarios: { contextRot?: { name: string; points: number[][] } }[] };
    expect(result.scenarios[0]?.contextRot).toEqual({
      name: 'custom',
      points: [
        [1000, 1],
        [4000, 0.3],
      ],
    });
    expect(readCsv(off, 'summary.csv').columns).not.toContain('answer_recall_rot');
  });

  it('is a usage error (exit 2) in a live run, before any call, asked by the flag or by the scenario', async () => {
    const dir = writeFiles({
      's.yaml': [
        'name: rot-live',
        'transcript:',
        '  generate: { steps: 6 }',
        'provider: openai',
        'model: gpt-4.1',
        'strategies: [full]',
        'reader: { contextRot: ruler }',
      ].join('\n'),
      'plain.yaml': ['name: plain-live', 'transcript:', '  generate: { steps: 6 }', 'provider: openai', 'model: gpt-4.1', 'strategies: [full]'].join('\n'),
    });
    const env = { OPENAI_API_KEY: 'test-key' };
    const byFlag = runSuite({ scenarios: [join(dir, 'plain.yaml')], mode: 'live', env, overrides: { contextRot: 'nolima' } });
    await expect(byFlag).rejects.toMatchObject({
      name: 'UsageError',
      exitCode: 2,
      message: expect.stringMatching(/^--context-rot models the simulated reader/),
    });
    const byScenario = runSuite({ scenarios: [join(dir, 's.yaml')], mode: 'live', env });
    await expect(byScenario).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/s\.yaml \(field reader\.contextRot\): the context-length effect models/),
    });
  });
});
