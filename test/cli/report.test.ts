import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli } from '../helpers/cli.js';
import { OUT_MARKER } from '../../src/cli/out-owner.js';
import { tempDir } from '../helpers/temp.js';

const suite = resolve(import.meta.dirname, '../../scenarios/tpm-limited.yaml');

afterEach(() => vi.restoreAllMocks());

describe('ctxbench report', () => {
  let run: string;

  beforeAll(async () => {
    run = tempDir();
    const { code, stderr } = await cli(['run', suite, '--out', run, '--quiet', '--strategies', 'full,rolling-window']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 240_000);

  it('re-renders from result.json exactly what run wrote, without result.json by default', async () => {
    const out = tempDir();
    const { code, stdout } = await cli(['report', join(run, 'result.json'), '--out', out]);
    expect(code).toBe(0);
    const files = readdirSync(out)
      .filter((file) => file !== OUT_MARKER)
      .sort();
    expect(readdirSync(out)).toContain(OUT_MARKER);
    expect(files).toEqual(['events.csv', 'index.html', 'junit.xml', 'needed.csv', 'probes.csv', 'steps.csv', 'steps.parquet', 'summary.csv', 'summary.md']);
    for (const file of files) expect(readFileSync(join(out, file), 'utf8'), file).toBe(readFileSync(join(run, file), 'utf8'));
    // The decision first, remade from the result, as run prints it (issue 34: report printed none).
    expect(stdout).toMatch(/^Recommendation: ship \S+.*\n {2}why: [^\n]+\n[^]*\nwrote 9 files to .+\/\n$/);
  });

  it('makes the recommendation again under the flags given; summary.md leads with it', async () => {
    const saved = JSON.parse(readFileSync(join(run, 'result.json'), 'utf8')) as { recommendation: { objective: string; strategy: string | null } };
    expect(saved.recommendation.objective).toBe('cost');
    const md = readFileSync(join(run, 'summary.md'), 'utf8');
    expect(md.split('\n').find((line) => line.startsWith('### '))).toMatch(/^### Recommendation: (ship \S+|no strategy passes)$/);
    const out = tempDir();
    const args = ['report', join(run, 'result.json'), '--out', out, '--reports', 'json,md', '--objective', 'peak', '--min-recall', '0.5', '--quiet'];
    expect((await cli(args)).code).toBe(0);
    const again = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as {
      recommendation: { objective: string; constraints: { minRecall: unknown }; candidates: { verdict: string; reason: string }[] };
    };
    expect(again.recommendation.objective).toBe('peak');
    expect(again.recommendation.constraints.minRecall).toEqual({ kind: 'absolute', value: 0.5 });
    for (const candidate of again.recommendation.candidates) expect(candidate.reason).not.toBe('');
    expect((await cli(['report', join(run, 'result.json'), '--out', out, '--min-recall', 'most'])).code).toBe(2);
  });

  it('writes only the formats asked for, beside the result by default', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'result.json'), readFileSync(join(run, 'result.json')));
    const { code, stderr } = await cli(['report', join(dir, 'result.json'), '--reports', 'md,junit', '--quiet']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(readdirSync(dir).sort()).toEqual([OUT_MARKER, 'junit.xml', 'result.json', 'summary.md']);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe(readFileSync(join(run, 'summary.md'), 'utf8'));
  });

  it('still takes the old --format, saying once on stderr that it is deprecated', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'result.json'), readFileSync(join(run, 'result.json')));
    const { code, stderr } = await cli(['report', join(dir, 'result.json'), '--format', 'md', '--quiet']);
    expect(code).toBe(0);
    expect(stderr).toBe('ctxbench: report --format is deprecated: use --reports\n');
    expect(readdirSync(dir).sort()).toEqual([OUT_MARKER, 'result.json', 'summary.md']);
    expect((await cli(['report', '--help'])).stdout).not.toContain('--format');
  });

  it('rewrites result.json byte for byte when asked to', async () => {
    const out = tempDir();
    expect((await cli(['report', join(run, 'result.json'), '--reports', 'json', '--out', out, '--quiet'])).code).toBe(0);
    expect(readFileSync(join(out, 'result.json'))).toEqual(readFileSync(join(run, 'result.json')));
  });

  it('an unknown format is a usage error (exit 2) and writes nothing', async () => {
    const out = tempDir();
    const { code, stderr } = await cli(['report', join(run, 'result.json'), '--reports', 'md,pdf', '--out', out]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown reporter "pdf"/);
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('ctxbench report on a bad file', () => {
  const cases: [string, string | undefined, RegExp][] = [
    ['missing', undefined, /result\.json: cannot read the result file \(ENOENT\)/],
    ['not JSON', '{\n  "schemaVersion": 1,\n  oops\n}', /result\.json:3: not a JSON result file/],
    ['another schema version', '{"schemaVersion": 99, "units": []}', /result\.json \(field schemaVersion\): expected result schema version 1 or 2, found 99/],
    ['no schema version', '[1, 2]', /result\.json \(field schemaVersion\): expected result schema version 1 or 2, found none/],
    [
      'a wrong field',
      '{"schemaVersion": 1, "tool": {"name": "ctxbench", "version": "0.1.0"}, "seed": 1, "mode": "mock", "scenarios": [], "units": [{"scenario": "s"}]}',
      /result\.json \(field units\.0\.strategy\)/,
    ],
  ];

  it.each(cases)('%s: exit 2 with one line naming the file', async (_name, contents, message) => {
    const dir = tempDir();
    const file = join(dir, 'result.json');
    if (contents !== undefined) writeFileSync(file, contents);
    const { code, stderr } = await cli(['report', file, '--out', dir]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'index.html'))).toBe(false);
  });
});
