import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { expandScenarioPaths, loadScenarioFile, parseScenarioText } from '../../src/scenario/load.js';
import { prepareScenarios } from '../../src/run/run-suite.js';
import { InputError, UsageError } from '../../src/errors.js';
import { strategyNames } from '../../src/strategies/index.js';
import { writeFiles } from '../helpers/temp.js';

function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('parseScenarioText', () => {
  const table: { name: string; text: string; line: number | undefined; field: string | undefined; says: RegExp }[] = [
    { name: 'a wrong type names its line and field', text: 'name: a\ntranscript: t.ctx.jsonl\nwindow: lots\n', line: 3, field: 'window', says: /number/ },
    { name: 'an unknown key is refused', text: 'name: a\ntranscript: t.ctx.jsonl\nwindwo: 100\n', line: 3, field: 'windwo', says: /windwo/ },
    { name: 'a missing name', text: 'transcript: t.ctx.jsonl\n', line: 1, field: 'name', says: /./ },
    { name: 'a nested field', text: 'name: a\ntranscript: t.ctx.jsonl\nquota:\n  tpm: -5\n', line: 4, field: 'quota.tpm', says: /./ },
    { name: 'broken YAML', text: 'name: a\ntranscript: [unclosed\n', line: 3, field: undefined, says: /YAML/ },
  ];
  it.each(table)('$name', ({ text, line, field, says }) => {
    const error = errorOf(() => parseScenarioText(text, 'scen.yaml'));
    expect(error.exitCode).toBe(2);
    expect(error.location.line).toBe(line);
    expect(error.location.field).toBe(field);
    expect(error.message).toMatch(says);
    expect(error.message).toContain(`scen.yaml${line !== undefined ? `:${line}` : ''}`);
  });

  it('fills defaults', () => {
    const { data } = parseScenarioText('name: a\ntranscript: t.ctx.jsonl\n', 'a.yaml');
    expect(data).toMatchObject({ maxOutputTokens: 8192, onCrash: 'stop', lenient: false, quota: {}, probesUseQuota: false });
  });

  it('reads JSON scenarios too', () => {
    const { data } = parseScenarioText('{"name": "j", "transcript": "t.ctx.jsonl", "window": 1000}', 'a.json');
    expect(data.window).toBe(1000);
  });
});

describe('prepareScenarios', () => {
  it('runs every registered strategy when the scenario lists none', async () => {
    const dir = writeFiles({ 's.yaml': 'name: s\ntranscript:\n  generate: { steps: 4 }\n' });
    const [prepared] = await prepareScenarios([join(dir, 's.yaml')]);
    expect(prepared?.scenario.strategies.map((s) => s.label)).toEqual(strategyNames());
  });

  it('applies command-line overrides and keeps the scenario seed otherwise', async () => {
    const dir = writeFiles({ 's.yaml': 'name: s\nseed: 9\ntranscript:\n  generate: { steps: 4 }\nwindow: 5000\n' });
    const [a] = await prepareScenarios([join(dir, 's.yaml')]);
    expect(a?.scenario).toMatchObject({ seed: 9, window: 5000, provider: 'gemini' });
    const [b] = await prepareScenarios([join(dir, 's.yaml')], { window: 7000, seed: 3, provider: 'openai', strategies: ['full'] });
    expect(b?.scenario).toMatchObject({ seed: 3, window: 7000, provider: 'openai', model: 'gpt-4.1' });
    expect(b?.scenario.strategies.map((s) => s.label)).toEqual(['full']);
  });

  it('rejects an invalid strategy option naming the file and field', async () => {
    const dir = writeFiles({
      's.yaml': 'name: s\ntranscript:\n  generate: { steps: 4 }\nstrategies:\n  - strategy: rolling-window\n    options: { groups: -2 }\n',
    });
    await expect(prepareScenarios([join(dir, 's.yaml')])).rejects.toThrow(/s\.yaml.*strategies\.rolling-window\.options\.groups/);
  });

  it('rejects an identicalRows entry that names a strategy the scenario does not run, naming the field', async () => {
    const text =
      'name: s\ntranscript:\n  generate: { steps: 4 }\nstrategies: [full, rolling-window]\nidenticalRows:\n  - strategies: [full, tri-modal]\n    reason: the session never reaches the trigger\n';
    const dir = writeFiles({ 's.yaml': text });
    await expect(prepareScenarios([join(dir, 's.yaml')])).rejects.toThrow(
      /s\.yaml.*identicalRows\.0\.strategies\.1.*"tri-modal" is not one of the scenario's strategies/,
    );
  });

  it('rejects an identicalRows entry without a reason', async () => {
    const dir = writeFiles({ 's.yaml': 'name: s\ntranscript:\n  generate: { steps: 4 }\nidenticalRows:\n  - strategies: [full, recorded]\n' });
    await expect(prepareScenarios([join(dir, 's.yaml')])).rejects.toThrow(/s\.yaml.*identicalRows\.0\.reason/);
  });

  it('rejects an unknown strategy with the list of known ones', async () => {
    const dir = writeFiles({ 's.yaml': 'name: s\ntranscript:\n  generate: { steps: 4 }\nstrategies: [nope]\n' });
    await expect(prepareScenarios([join(dir, 's.yaml')])).rejects.toThrow(/unknown strategy "nope".*full/);
  });

  it('resolves a transcript path relative to the scenario file', async () => {
    const dir = writeFiles({
      'sub/s.yaml': 'name: s\ntranscript: ../t.ctx.jsonl\n',
      't.ctx.jsonl':
        '{"type":"session","id":"x","dialect":"openai","model":"gpt-4.1"}\n{"type":"message","id":"u","role":"user","text":"hi"}\n{"type":"message","id":"a","role":"assistant","text":"hello"}\n',
    });
    const [prepared] = await prepareScenarios([join(dir, 'sub/s.yaml')]);
    expect(prepared?.transcript.events).toHaveLength(2);
    expect(prepared?.scenario).toMatchObject({ provider: 'openai', model: 'gpt-4.1' });
  });
});

describe('expandScenarioPaths', () => {
  it('finds scenario files in folders recursively, sorted', async () => {
    const dir = writeFiles({ 'b.yaml': '', 'a/z.json': '', 'a/y.yml': '', 'notes.md': '' });
    const files = await expandScenarioPaths([dir]);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual(['a/y.yml', 'a/z.json', 'b.yaml']);
  });

  it('fails with a usage error on a missing path', async () => {
    await expect(expandScenarioPaths(['/no/such/place'])).rejects.toBeInstanceOf(UsageError);
  });

  it('names a missing scenario file', async () => {
    await expect(loadScenarioFile('/no/such.yaml')).rejects.toThrow(/\/no\/such\.yaml/);
  });
});

describe('the `all` strategy entry', () => {
  it('expands to every registered strategy beside tuned variants', async () => {
    const dir = writeFiles({
      's.yaml': 'name: s\ntranscript:\n  generate: { steps: 4 }\nstrategies:\n  - all\n  - { label: rw-1, strategy: rolling-window, options: { groups: 1 } }\n',
    });
    const [prepared] = await prepareScenarios([join(dir, 's.yaml')]);
    expect(prepared?.scenario.strategies.map((s) => s.label)).toEqual([...strategyNames(), 'rw-1']);
  });
});
