import { beforeAll, describe, expect, it, vi } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cli } from '../helpers/cli.js';
import { main as cliMain } from '../../src/cli/main.js';
import { transpiledPackage } from '../helpers/transpile.js';
import { tempDir, writeFiles } from '../helpers/temp.js';
import { journaledUnits, runAndSignal } from '../helpers/signal-run.js';

const exec = promisify(execFile);

/**
 * Two scenarios × four strategies: eight units long enough that a signal sent after two lands before
 * the last. 48 steps (not the 120 this once had) keep that: the three strategies that survive take
 * a few hundred ms of CPU per unit, so the six units left after the second are over a second of
 * work against the 20 ms the poll below takes to see the journal and signal; and `full` still
 * overflows (near step 20), so the partial run holds a crash.
 */
function suite(): string {
  const scenario = (name: string, dialect: string, seed: number) =>
    [
      `name: ${name}`,
      'transcript:',
      `  generate: { steps: 48, seed: ${seed}, dialect: ${dialect}, toolOutputTokens: 700, facts: 4 }`,
      'window: 16000',
      'quota: { tpm: 60000 }',
      `seed: ${seed}`,
      'strategies: [full, rolling-window, codex-rebuild, tiered-truncation]',
    ].join('\n');
  return writeFiles({ 'a.yaml': scenario('a', 'gemini', 3), 'b.yaml': scenario('b', 'openai', 4) });
}

describe('interrupted runs (the transpiled CLI in its own process)', () => {
  let main = '';
  const scenarios = suite();
  let reference = '';

  beforeAll(async () => {
    main = join(await transpiledPackage(), 'dist', 'cli', 'main.js');
    const out = tempDir();
    await exec(process.execPath, [main, 'run', scenarios, '--out', out, '--quiet', '--workers', '1', '--reports', 'json']);
    reference = readFileSync(join(out, 'result.json'), 'utf8');
  }, 300_000);

  it('SIGTERM: exit 143, partial reports of the finished units; --resume gives the uninterrupted result byte for byte', { timeout: 120_000 }, async () => {
    const out = tempDir();
    const killed = await runAndSignal(
      main,
      ['run', scenarios, '--out', out, '--workers', '1', '--reports', 'json,html'],
      () => journaledUnits(out) >= 2,
      'SIGTERM',
    );
    expect(killed.code).toBe(143);
    const partial = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as {
      partial: { planned: number; completed: number; reason: string };
      units: unknown[];
    };
    expect(partial.partial.planned).toBe(8);
    expect(partial.partial.reason).toBe('SIGTERM');
    expect(partial.partial.completed).toBe(partial.units.length);
    expect(partial.units.length).toBeGreaterThanOrEqual(2);
    expect(partial.units.length).toBeLessThan(8);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain(`Partial run: ${partial.units.length} of 8 units finished (stopped by SIGTERM)`);
    expect(killed.stdout).toContain(`Partial run: ${partial.units.length} of 8 units finished`);
    expect(existsSync(join(out, '.lock'))).toBe(false);

    const resumed = await exec(process.execPath, [main, 'run', '--resume', out, '--workers', '1']);
    // Progress counts on from the journaled units (it once restarted at 1), and says nothing else.
    const lines = resumed.stderr.split('\n').filter((line) => line !== '');
    for (const line of lines) expect(line).toMatch(/^ctxbench: (scenario \w+ done \(.*\) · |.* · )?\d+\/8 units/);
    const counts = lines.map((line) => Number(/(\d+)\/8 units/.exec(line)?.[1]));
    expect(counts.length).toBeGreaterThan(0);
    expect(Math.min(...counts)).toBeGreaterThan(partial.units.length);
    expect(counts.at(-1)).toBe(8);
    expect(readFileSync(join(out, 'result.json'), 'utf8')).toBe(reference);
    expect(existsSync(join(out, '.journal.jsonl'))).toBe(false);
  });

  it('SIGKILL: the lock of the dead run is taken over and --resume (on 2 workers) completes the journal', { timeout: 120_000 }, async () => {
    const out = tempDir();
    const killed = await runAndSignal(main, ['run', scenarios, '--out', out, '--workers', '2', '--reports', 'json'], () => journaledUnits(out) >= 1, 'SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(join(out, '.lock'))).toBe(true);
    expect(existsSync(join(out, 'result.json'))).toBe(false);
    await exec(process.execPath, [main, 'run', '--resume', out, '--quiet', '--workers', '2']);
    expect(readFileSync(join(out, 'result.json'), 'utf8')).toBe(reference);
    expect(existsSync(join(out, '.lock'))).toBe(false);
  });
});

describe('one --out, one run', () => {
  it('two concurrent runs on one --out: one writes, the other is refused (exit 2) naming the holder', async () => {
    const out = tempDir();
    const args = ['run', join(suite(), 'a.yaml'), '--out', out, '--quiet', '--workers', '1', '--reports', 'json', '--strategies', 'full,rolling-window'];
    // Both runs share this process's stderr: one capture for both (two spies on one stream would
    // race over which of them gets the refusal).
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    let codes: number[];
    try {
      codes = await Promise.all([cliMain(args), cliMain(args)]);
    } finally {
      spy.mockRestore();
    }
    expect(codes.sort()).toEqual([0, 2]);
    expect(stderr).toMatch(new RegExp(`is in use by another ctxbench run \\(pid ${process.pid} on ${hostname()}, started \\d{4}-\\d\\d-\\d\\dT`));
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { units: unknown[]; partial?: unknown };
    expect(result.units).toHaveLength(2);
    expect(result.partial).toBeUndefined();
  });

  it('a lock held by a live process of another host is never taken over', async () => {
    const out = tempDir();
    writeFileSync(join(out, '.lock'), JSON.stringify({ pid: 1, host: 'build-box-7', started: '2026-01-02T03:04:05.000Z' }));
    const { code, stderr } = await cli(['run', join(suite(), 'a.yaml'), '--out', out, '--quiet', '--strategies', 'full']);
    expect(code).toBe(2);
    expect(stderr).toContain('is in use by another ctxbench run (pid 1 on build-box-7, started 2026-01-02T03:04:05.000Z)');
    expect(existsSync(join(out, 'result.json'))).toBe(false);
  });
});
