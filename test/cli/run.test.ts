import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

const suite = resolve(import.meta.dirname, '../../scenarios');
const core = ['overflow-coding.yaml', 'tpm-limited.yaml'].map((f) => join(suite, f));
/** Strategies that cover summary calls, quota waits, retrieval hints and plain windows. */
const mix = 'full,rolling-window,codex-rebuild,tiered-truncation,gatekeeper';

/** summary.csv as rows keyed by column name. */
function readSummary(dir: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(join(dir, 'summary.csv'), 'utf8').trim().split('\n');
  const columns = (header ?? '').split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i], cell])));
}

afterEach(() => vi.restoreAllMocks());

describe('ctxbench run on the bundled scenarios', () => {
  it('writes the reports; full overflows where rolling-window survives; the TPM scenario waits', async () => {
    const out = tempDir();
    const { code, stdout } = await cli(['run', ...core, '--out', out, '--strategies', 'full,rolling-window']);
    expect(code).toBe(0);
    for (const file of ['result.json', 'summary.csv', 'steps.csv']) expect(existsSync(join(out, file))).toBe(true);
    const rows = readSummary(out);
    const row = (scenario: string, strategy: string) => rows.find((r) => r.scenario === scenario && r.strategy === strategy);
    expect(row('overflow-coding', 'full')).toMatchObject({ crashed: 'true', crash_kind: 'overflow' });
    expect(row('overflow-coding', 'rolling-window')).toMatchObject({ crashed: 'false' });
    const tpm = row('tpm-limited', 'full');
    expect(Number(tpm?.rate_limit_hits)).toBeGreaterThan(0);
    expect(Number(tpm?.wait_ms)).toBeGreaterThan(0);
    expect(stdout).toContain('overflow-coding');
  });

  it('gives a byte-identical summary.csv and result.json for the same seed', async () => {
    // The smallest sessions that still overflow, summarise, wait on the quota and retrieve.
    const small = writeFiles({
      'overflow.yaml': 'name: overflow-small\ntranscript:\n  generate: { steps: 24, toolOutputTokens: 900, facts: 4 }\nwindow: 9000\n',
      'tpm.yaml': 'name: tpm-small\ntranscript:\n  generate: { steps: 16, toolOutputTokens: 600, facts: 3 }\nwindow: 16000\nquota: { tpm: 12000 }\n',
    });
    const a = tempDir();
    const b = tempDir();
    expect((await cli(['run', small, '--out', a, '--quiet', '--seed', '3', '--strategies', mix])).code).toBe(0);
    expect((await cli(['run', small, '--out', b, '--quiet', '--seed', '3', '--strategies', mix])).code).toBe(0);
    const rows = readSummary(a);
    // The small run does what the property is about: crashes, summaries and quota waits.
    expect(rows.some((r) => r.crashed === 'true')).toBe(true);
    expect(rows.some((r) => Number(r.rate_limit_hits) > 0)).toBe(true);
    expect(readFileSync(join(a, 'summary.csv'))).toEqual(readFileSync(join(b, 'summary.csv')));
    expect(readFileSync(join(a, 'result.json'))).toEqual(readFileSync(join(b, 'result.json')));
  });
});

describe('ctxbench run on bad input', () => {
  it('exits 2 naming the file, line and field of a malformed transcript line', async () => {
    const dir = writeFiles({
      's.yaml': 'name: bad\ntranscript: t.ctx.jsonl\n',
      't.ctx.jsonl': [
        '{"type":"session","id":"x","dialect":"openai"}',
        '{"type":"message","id":"u","role":"user","text":"hi"}',
        '{"type":"message","id":"a","role":"assistant","text":42}',
      ].join('\n'),
    });
    const { code, stderr } = await cli(['run', join(dir, 's.yaml'), '--out', tempDir()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/t\.ctx\.jsonl:3/);
    expect(stderr).toMatch(/text/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('skips the bad line with --lenient and counts it', async () => {
    const dir = writeFiles({
      's.yaml': 'name: lenient\ntranscript: t.ctx.jsonl\nstrategies: [full]\n',
      't.ctx.jsonl': [
        '{"type":"session","id":"x","dialect":"openai"}',
        '{"type":"message","id":"u","role":"user","text":"hi"}',
        'not json',
        '{"type":"message","id":"a","role":"assistant","text":"hello"}',
      ].join('\n'),
    });
    const out = tempDir();
    expect((await cli(['run', join(dir, 's.yaml'), '--out', out, '--lenient', '--quiet'])).code).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { scenarios: { skippedLines: number }[] };
    expect(result.scenarios[0]?.skippedLines).toBe(1);
  });

  it('exits 2 on an unknown flag value and on an unknown strategy', async () => {
    expect((await cli(['run', suite, '--window', 'big'])).code).toBe(2);
    const { code, stderr } = await cli(['run', ...core, '--strategies', 'nope', '--out', tempDir()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown strategy "nope"/);
  });

  it('exits 2 asking for a key when a live provider has none', async () => {
    const { code, stderr } = await cli(['run', ...core, '--provider', 'openai', '--strategies', 'full', '--out', tempDir()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/OPENAI_API_KEY/);
  });

  it('exits 2 on --judge with mocked providers, before running or writing anything', async () => {
    const out = join(tempDir(), 'out');
    const { code, stderr } = await cli(['run', ...core, '--judge', '--strategies', 'full', '--out', out]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--judge needs a live provider/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('ctxbench strategies', () => {
  it('lists every strategy with its defaults', async () => {
    const { code, stdout } = await cli(['strategies', '--json']);
    expect(code).toBe(0);
    const list = JSON.parse(stdout) as { name: string; options: { name: string; default: unknown }[] }[];
    expect(list.find((s) => s.name === 'rolling-window')?.options).toContainEqual(expect.objectContaining({ name: 'groups', default: 4 }));
  });
});
