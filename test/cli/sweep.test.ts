import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

afterEach(() => vi.restoreAllMocks());

// A session whose history outgrows a 24k window: codex-rebuild's trigger decides when it compacts.
const dir = writeFiles({
  's.yaml': [
    'name: small',
    'transcript:',
    '  generate: { steps: 24, seed: 5, dialect: openai, toolOutputTokens: 600, facts: 6 }',
    'provider: openai',
    'model: gpt-4.1',
    'window: 24000',
    'seed: 5',
  ].join('\n'),
});
const scenario = join(dir, 's.yaml');

describe('ctxbench sweep', () => {
  it('runs the grid, prints the front and a recommendation, and writes every point', async () => {
    const out = tempDir();
    const grid = ['--grid', 'codex-rebuild.trigger=0.5..0.9:0.1', '--grid', 'codex-rebuild.recentUserTokens=1000,5000'];
    const { code, stdout } = await cli(['sweep', scenario, ...grid, '--min-recall', '0.5', '--out', out, '--workers', '2']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^sweep of codex-rebuild · 10 points × 1 scenario\n/);
    expect(stdout).toMatch(/Pareto front \(\d+ of 10 points; total tokens ↓, answer recall ↑, crashes ↓, waiting ↓, cost net of prompt cache ↓\):/);
    expect(stdout).toMatch(/\n {2}\* {2}trigger=0\.\d recentUserTokens=\d+ /);
    // gpt-4.1 is priced: the front has a cost column, every row a dollar figure.
    expect(stdout).toMatch(/ wait +cost\n/);
    const front = stdout.split('\n').filter((row) => / trigger=0\.\d recentUserTokens=\d+ /.test(row));
    expect(front.length).toBeGreaterThan(0);
    for (const row of front) expect(row).toMatch(/ \$\d+\.\d{4}$/);
    expect(stdout).toMatch(
      /Recommendation: trigger=\S+ recentUserTokens=\d+\n {2}the cheapest of \d+ of 10 points that satisfy answer recall ≥ 0\.5, crashes ≤ 0/,
    );

    const [header, ...rows] = readFileSync(join(out, 'sweep.csv'), 'utf8').trim().split('\n');
    expect(header).toBe('point,trigger,recentUserTokens,total_tokens,answer_recall,crashes,wait_ms,cost_usd,on_front,recommended');
    expect(rows).toHaveLength(10);
    expect(rows.filter((row) => row.endsWith(',true'))).toHaveLength(1);
    const sweep = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as { points: unknown[]; front: string[]; recommendation: { point: string } };
    expect(sweep.points).toHaveLength(10);
    expect(sweep.front).toContain(sweep.recommendation.point);
    const html = readFileSync(join(out, 'sweep.html'), 'utf8');
    expect(html).toContain('Content-Security-Policy');
    expect(html).toMatch(/Chart\.js v4/);
    expect(html).toContain('"animation":false');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(existsSync(join(out, 'result.json'))).toBe(true);
  });

  it('runs a seeded sample of the grid', async () => {
    const out = tempDir();
    const args = [
      'sweep',
      scenario,
      '--grid',
      'rolling-window.groups=1..8',
      '--sample',
      '3',
      '--seed',
      '9',
      '--out',
      out,
      '--workers',
      '1',
      '--reports',
      'csv',
    ];
    const first = await cli(args);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/3 points \(a sample of 3 of 8, seed 9\)/);
    const csv = readFileSync(join(out, 'sweep.csv'), 'utf8');
    expect((await cli(args)).code).toBe(0);
    expect(readFileSync(join(out, 'sweep.csv'), 'utf8')).toBe(csv);
    expect(existsSync(join(out, 'result.json'))).toBe(false);
  });

  it('exits 2 naming the --grid flag of a bad axis, before anything runs', async () => {
    const out = tempDir();
    const bad = await cli(['sweep', scenario, '--grid', 'codex-rebuild.trigger=0.5..1.5:0.5', '--out', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--grid 'codex-rebuild\.trigger=0\.5\.\.1\.5:0\.5': trigger=1\.5 is not valid for codex-rebuild/);
    expect(existsSync(join(out, 'sweep.csv'))).toBe(false);
    expect((await cli(['sweep', scenario, '--out', out])).stderr).toMatch(/needs at least one --grid/);
    expect((await cli(['sweep', scenario, '--grid', 'rolling-window.groups=1', '--min-recall', '2'])).code).toBe(2);
  });

  it('exits 1 with the reason when no point satisfies the constraints', async () => {
    const { code, stderr, stdout } = await cli([
      'sweep',
      scenario,
      '--grid',
      'rolling-window.groups=1,2',
      '--max-tokens',
      '10',
      '--out',
      tempDir(),
      '--workers',
      '1',
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/Recommendation: none\n {2}none of 2 points satisfies crashes ≤ 0, total tokens ≤ 10: .*2 use more than 10 tokens/);
    expect(stderr).toMatch(/no recommendation: none of 2 points/);
  });
});
