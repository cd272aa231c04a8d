import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const LOG = 'fixtures/real/mini-swe-agent/django__django-11163.traj.json';

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

  it.each([
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
