import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { writeFiles } from '../helpers/temp.js';

const CODEX = 'fixtures/real/codex/vibecoding-session.jsonl';

/** Runs the CLI in-process; returns the exit code and what it printed. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const code = await main(args);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

afterEach(() => vi.restoreAllMocks());

describe('ctxbench fidelity', () => {
  it('prints the raw, uncalibrated and as-replayed error of a real file, median and p95, and exits 0', async () => {
    const { code, stdout } = await cli(['fidelity', CODEX]);
    expect(code).toBe(0);
    expect(stdout).toContain(CODEX);
    expect(stdout).toContain('Raw error (o200k_base as it is, no hidden prefix');
    expect(stdout).toContain('Uncalibrated error');
    expect(stdout).toContain('Error as replayed');
    expect(stdout).toMatch(/format\s+steps\s+median\s+p5\s+p95\s+\|median\|\s+\|p95\|/);
    // One row per table for the codex format: 19 steps, five percentages.
    const rows = stdout.split('\n').filter((line) => /^\s+codex\s+19(\s+[-+]?\d+\.\d\d%){5}$/.test(line));
    expect(rows).toHaveLength(3);
    expect(stdout).toMatch(/Worst step per format[^\n]*\n\s+codex: fixtures\/real\/codex\/vibecoding-session\.jsonl step \d+/);
  });

  it('prints the comparison as JSON with --json', async () => {
    const { code, stdout } = await cli(['fidelity', CODEX, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { strategy: string; files: { compared: unknown[] }[]; formats: { format: string; raw: { median: number } }[] };
    expect(report.strategy).toBe('recorded');
    expect(report.files[0]?.compared).toHaveLength(19);
    expect(report.formats[0]?.format).toBe('codex');
    expect(report.formats[0]?.raw.median).toBeLessThan(0);
  });

  it('exits 2 naming the file and line of a broken transcript', async () => {
    const lines = readFileSync(CODEX, 'utf8').split('\n').slice(0, 6);
    lines.splice(2, 0, '{"type":"response_item","payload":');
    const dir = writeFiles({ 'broken.jsonl': lines.join('\n') });
    const file = join(dir, 'broken.jsonl');
    const { code, stderr, stdout } = await cli(['fidelity', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:3:`);
    expect(stdout).toBe('');
  });

  it('exits 1 with --fit when the logs do not determine the calibration, and still writes the fit marked so', async () => {
    const out = join(writeFiles({}), 'fit.json');
    // One short session: too few calls past its prefix estimate to tell a factor from a framing.
    const { code, stderr } = await cli(['fidelity', 'fixtures/real/claude-code/hello-world-script.jsonl', '--fit', out]);
    expect(code).toBe(1);
    expect(stderr).toContain('not determined');
    const fit = JSON.parse(readFileSync(out, 'utf8')) as Record<string, { undetermined?: string }>;
    expect(Object.values(fit).some((f) => typeof f.undetermined === 'string')).toBe(true);
  });

  it('exits 2 for a file that does not exist', async () => {
    const { code, stderr } = await cli(['fidelity', 'fixtures/real/no-such-file.jsonl']);
    expect(code).toBe(2);
    expect(stderr).toContain('fixtures/real/no-such-file.jsonl');
  });
});
