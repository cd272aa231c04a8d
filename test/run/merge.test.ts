import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

afterEach(() => vi.restoreAllMocks());

const scenario = (name: string, dialect: string, seed: number): string =>
  [
    `name: ${name}`,
    'transcript:',
    `  generate: { steps: 12, seed: ${seed}, dialect: ${dialect}, toolOutputTokens: 800, facts: 3 }`,
    `provider: ${dialect}`,
    'window: 9000',
    `seed: ${seed}`,
    'strategies: [full, rolling-window, codex-rebuild]',
  ].join('\n');

describe('ctxbench run --shard and ctxbench merge', () => {
  const suite = writeFiles({ 'a.yaml': scenario('alpha', 'gemini', 2), 'b.yaml': scenario('beta', 'openai', 3) });

  it('merges 3 shards into the unsharded run, which renders and checks like one', async () => {
    const whole = tempDir();
    expect((await cli(['run', suite, '--out', whole, '--quiet', '--workers', '1'])).code).toBe(0);
    const shards: string[] = [];
    for (const i of [1, 2, 3]) {
      const out = tempDir();
      const { code, stdout } = await cli(['run', suite, '--out', out, '--shard', `${i}/3`, '--workers', '1', '--reports', 'json']);
      expect(code).toBe(0);
      expect(stdout).toContain(`shard ${i}/3 (2 of 6 units)`);
      shards.push(join(out, 'result.json'));
    }
    const merged = tempDir();
    const { code, stdout } = await cli(['merge', shards[2]!, shards[0]!, shards[1]!, '-o', merged]);
    expect(code).toBe(0);
    expect(stdout).toContain('merged 3 shards');
    for (const file of ['result.json', 'summary.csv', 'steps.csv']) {
      expect(readFileSync(join(merged, file), 'utf8'), file).toBe(readFileSync(join(whole, file), 'utf8'));
    }
    expect((await cli(['check', join(merged, 'result.json'), '--baseline', join(whole, 'result.json')])).code).toBe(0);
  });

  it('exits 2 on mismatched or incomplete shards, and check refuses a shard', async () => {
    const outs = [tempDir(), tempDir()];
    await cli(['run', suite, '--out', outs[0]!, '--shard', '1/2', '--quiet', '--workers', '1', '--reports', 'json']);
    await cli(['run', suite, '--out', outs[1]!, '--shard', '2/2', '--seed', '5', '--quiet', '--workers', '1', '--reports', 'json']);
    const [first, second] = outs.map((o) => join(o, 'result.json')) as [string, string];
    const seeds = await cli(['merge', first, second, '-o', tempDir()]);
    expect(seeds).toMatchObject({ code: 2, stderr: expect.stringMatching(/\(field seed\): is not a shard of the same run: 5, not 42/) });
    expect((await cli(['merge', first, '-o', tempDir()])).stderr).toMatch(/missing shard 2\/2/);
    const schema = join(tempDir(), 'old.json');
    writeFileSync(schema, readFileSync(first, 'utf8').replace('"schemaVersion": 2', '"schemaVersion": 0'));
    expect((await cli(['merge', first, schema, '-o', tempDir()])).stderr).toMatch(/old\.json \(field schemaVersion\): was written with result schema 0/);
    const check = await cli(['check', first, '--baseline', first]);
    expect(check).toMatchObject({ code: 2, stderr: expect.stringMatching(/is shard 1\/2 of a run: merge the shards first/) });
    expect((await cli(['run', suite, '--shard', '3/2'])).stderr).toMatch(/--shard expects i\/n/);
  });
});
