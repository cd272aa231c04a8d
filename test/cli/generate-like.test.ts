import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { shortfallsOf, type CheckResult } from '../../src/like/index.js';
import { tempDir } from '../helpers/temp.js';

const LOG = 'fixtures/real/mini-swe-agent/django__django-11163.traj.json';
const UNSEEN = 'fixtures/real/mini-swe-agent/django__django-11138.traj.json';

describe('ctxbench generate --like', () => {
  it('writes fit.json and the sessions drawn from it, the same twice for a seed', async () => {
    const out = tempDir();
    const { code, stdout, stderr } = await cli(['generate', '--like', LOG, '--count', '2', '--steps', '30', '--seed', '5', '-o', out]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/fit\.json: fit of 1 log \(mini-swe-agent\)/);
    expect(stdout).toMatch(/like-002\.ctx\.jsonl: 30 steps, \d+ needed uses/);
    const fit = JSON.parse(readFileSync(join(out, 'fit.json'), 'utf8')) as { logs: number; needed: { usesPerStep: number } };
    expect(fit.logs).toBe(1);
    const again = tempDir();
    await cli(['generate', '--like', LOG, '--count', '2', '--steps', '30', '--seed', '5', '-o', again]);
    expect(readFileSync(join(again, 'like-001.ctx.jsonl'), 'utf8')).toBe(readFileSync(join(out, 'like-001.ctx.jsonl'), 'utf8'));
    expect(existsSync(join(out, 'like-003.ctx.jsonl'))).toBe(false);
    // --fit draws the same sessions from the fit.json, without the log.
    const reused = tempDir();
    const fromFit = await cli(['generate', '--fit', join(out, 'fit.json'), '--count', '2', '--steps', '30', '--seed', '5', '-o', reused]);
    expect(fromFit.code).toBe(0);
    expect(fromFit.stdout).toMatch(/fit of 1 log \(mini-swe-agent\), read from /);
    expect(readFileSync(join(reused, 'like-002.ctx.jsonl'), 'utf8')).toBe(readFileSync(join(out, 'like-002.ctx.jsonl'), 'utf8'));
    const checked = await cli(['generate', '--fit', join(out, 'fit.json'), '--check', LOG, '-o', tempDir()]);
    expect(checked.code).toBe(2);
    expect(checked.stderr).toContain('--check needs --like');
  });

  it('--check --seeds 2: the sessions of each seed in seed-<s>/, figures per seed, the verdict on their mean', { timeout: 300_000 }, async () => {
    const out = tempDir();
    const strategies = 'rolling-window,tiered-truncation,observation-masking,clear-tool-results';
    const args = ['--like', LOG, '--check', UNSEEN, '--count', '1', '--steps', '30', '--window', '16000', '--strategies', strategies];
    const { code, stdout, stderr } = await cli(['generate', ...args, '--seeds', '2', '-o', out]);
    expect(stdout).toMatch(/seed-1\/like-001\.ctx\.jsonl: 30 steps/);
    expect(stdout).toMatch(/seed-2\/like-001\.ctx\.jsonl: 30 steps/);
    expect(existsSync(join(out, 'like-001.ctx.jsonl'))).toBe(false);
    const result = JSON.parse(readFileSync(join(out, 'check.json'), 'utf8')) as CheckResult;
    expect(result.seeds).toEqual([1, 2]);
    expect(result.saving.generatedVsBPerSeed).toHaveLength(2);
    expect(stdout).toMatch(/Spearman, saving: +real A vs real B \S+; generated-like-A vs real B, seed 1 \/ 2: \S+ \/ \S+, mean \S+ \(\S+ to \S+\)/);
    expect(code).toBe(shortfallsOf(result).length > 0 ? 1 : 0);
    if (code === 1) expect(stderr).toContain('mean over 2 seeds');
    // One seed writes the sessions in -o itself, as without --check, and its figures are that seed's of the two.
    const single = tempDir();
    await cli(['generate', ...args, '--seeds', '1', '--seed', '2', '-o', single]);
    expect(readFileSync(join(single, 'like-001.ctx.jsonl'), 'utf8')).toBe(readFileSync(join(out, 'seed-2', 'like-001.ctx.jsonl'), 'utf8'));
    const alone = JSON.parse(readFileSync(join(single, 'check.json'), 'utf8')) as CheckResult;
    expect(alone.seeds).toEqual([2]);
    expect(alone.saving.realAvsB).toBe(result.saving.realAvsB);
  });

  it.each([
    { args: ['--like', LOG, '--check', UNSEEN, '--seeds', '0', '-o', 'OUT'], message: '--seeds expects at least 1 seed, got "0"' },
    { args: ['--like', LOG, '--check', UNSEEN, '--seeds', 'three', '-o', 'OUT'], message: '--seeds expects a whole number, got "three"' },
    { args: ['--like', LOG, '--seeds', '3', '-o', 'OUT'], message: '--seeds goes with --check' },
    { args: ['--seeds', '3'], message: '--seeds goes with --like' },
    { args: ['--like', LOG], message: 'generate --like needs -o <folder>' },
    { args: ['--like', LOG, '--dialect', 'openai', '-o', 'x'], message: '--dialect does not go with --like' },
    { args: ['--check', LOG], message: '--check goes with --like' },
    { args: ['--like', LOG, '--check', LOG, '-o', 'OUT'], message: '--check must name logs the fit did not see' },
  ])('exits 2: $message', async ({ args, message }) => {
    const out = tempDir();
    const { code, stderr } = await cli(['generate', ...args.map((a) => (a === 'OUT' ? out : a))]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
