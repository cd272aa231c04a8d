import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

/** A small session with planted facts; `groups` is the rolling window's size. */
function scenario(groups: number): string {
  return [
    'name: small',
    'transcript:',
    '  generate: { steps: 24, seed: 5, dialect: openai, toolOutputTokens: 600, facts: 6 }',
    'provider: openai',
    'model: gpt-4.1',
    'window: 128000',
    'seed: 5',
    'strategies:',
    '  - full',
    '  - strategy: rolling-window',
    `    options: { groups: ${groups} }`,
  ].join('\n');
}

afterEach(() => vi.restoreAllMocks());

const dir = writeFiles({ 'good.yaml': scenario(4), 'worse.yaml': scenario(1), 'check.yaml': 'maxRecallDrop: 80\nmaxRetentionDrop: 80\n' });
const baseline = join(dir, 'baseline', 'result.json');
const worse = join(dir, 'worse', 'result.json');

beforeAll(async () => {
  expect((await cli(['run', join(dir, 'good.yaml'), '--out', join(dir, 'baseline'), '--quiet', '--workers', '1'])).code).toBe(0);
  expect((await cli(['run', join(dir, 'worse.yaml'), '--out', join(dir, 'worse'), '--quiet', '--workers', '1'])).code).toBe(0);
});

describe('ctxbench check', () => {
  it('exits 0 against its own baseline', async () => {
    const { code, stdout } = await cli(['check', baseline, '--baseline', baseline]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/2 units compared on point estimates \(deterministic runs\): no regression/);
  });

  it('exits 1 on a worse change (fewer rolling-window groups), naming the regression', async () => {
    const md = join(dir, 'out', 'check.md');
    const junit = join(dir, 'out', 'check.xml');
    const { code, stdout, stderr } = await cli(['check', worse, '--baseline', baseline, '--md', md, '--junit', junit]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/small × rolling-window: answer recall fell \d+\.\d points/);
    expect(stdout).toMatch(/small × rolling-window: retention fell \d+\.\d points/);
    expect(stdout).not.toMatch(/small × full:/);
    expect(stderr).toMatch(/^ctxbench: check failed: 2 regressions against .*baseline/);
    expect(readFileSync(md, 'utf8')).toMatch(/^## ctxbench check: regression/);
    expect(readFileSync(junit, 'utf8')).toMatch(/failures="2"/);
  });

  it('takes thresholds from a config file and from flags, flags last', async () => {
    expect((await cli(['check', worse, '--baseline', baseline, '--config', join(dir, 'check.yaml')])).code).toBe(0);
    expect((await cli(['check', worse, '--baseline', baseline, '--config', join(dir, 'check.yaml'), '--max-recall-drop', '1'])).code).toBe(1);
  });

  it('exits 2 with the reason when the results cannot be compared', async () => {
    const other = join(dir, 'other-schema.json');
    writeFileSync(other, readFileSync(baseline, 'utf8').replace('"schemaVersion": 2', '"schemaVersion": 3'));
    const schema = await cli(['check', worse, '--baseline', other]);
    expect(schema.code).toBe(2);
    expect(schema.stderr).toMatch(/other-schema\.json \(field schemaVersion\): was written with result schema 3; this ctxbench reads schema 1 and 2/);
    const missing = await cli(['check', worse, '--baseline', join(dir, 'nope.json')]);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/nope\.json: cannot read result: ENOENT/) });
    writeFileSync(join(dir, 'bad.yaml'), 'maxTokenIncrease: [1]\n');
    const config = await cli(['check', worse, '--baseline', baseline, '--config', join(dir, 'bad.yaml')]);
    expect(config).toMatchObject({ code: 2, stderr: expect.stringMatching(/bad\.yaml:1 \(field maxTokenIncrease\)/) });
    const flag = await cli(['check', worse, '--baseline', baseline, '--max-token-increase', 'x']);
    expect(flag).toMatchObject({ code: 2, stderr: expect.stringMatching(/--max-token-increase expects a number/) });
  });

  it('checks right after a run with run --baseline', async () => {
    const out = tempDir();
    const { code, stdout } = await cli(['run', join(dir, 'worse.yaml'), '--out', out, '--workers', '1', '--baseline', baseline]);
    expect(code).toBe(1);
    expect(existsSync(join(out, 'result.json'))).toBe(true);
    expect(stdout).toMatch(/small × rolling-window: answer recall fell/);
  });
});
