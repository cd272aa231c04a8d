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
    expect(stdout).toMatch(
      /^sweep of codex-rebuild · 10 points and full × 1 scenario · \d+ distinct results\n\nRecommendation: ship codex-rebuild trigger=0\.\d recentUserTokens=\d+\n/,
    );
    expect(stdout).toMatch(/f on the front \(cost net of prompt cache ↓ × answer recall ↑: \d+ of \d+ distinct\):/);
    // gpt-4.1 is priced: every ranked row has a dollar figure, and the first is recommended.
    const ranked = stdout.split('\n').filter((row) => /^ {2}[*f ] {2}\d+ /.test(row));
    expect(ranked.length).toBeGreaterThan(0);
    for (const row of ranked) expect(row).toMatch(/ \$\d+\.\d{4} /);
    expect(ranked[0]).toMatch(/^ {2}\* {2}1 /);
    // recentUserTokens changes nothing on this session: its points collapse into one.
    expect(stdout).toMatch(/\(\+1 identical\)/);
    expect(stdout).toMatch(/\n {2}why: .*; \d+ points? gives? the same results as codex-rebuild trigger=0\.5 recentUserTokens=1000/);

    const [header, ...rows] = readFileSync(join(out, 'sweep.csv'), 'utf8').trim().split('\n');
    expect(header).toBe(
      'point,strategy,trigger,recentUserTokens,total_tokens,answer_recall,crashes,wait_ms,cost_usd,on_front,recommended,rank,verdict,same_as,reason',
    );
    expect(rows).toHaveLength(11);
    expect(rows[0]).toMatch(/^full,full,,,/);
    expect(rows.filter((row) => /,true,\d+,recommended,/.test(row))).toHaveLength(1);
    const sweep = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as {
      points: unknown[];
      front: string[];
      recommended: string;
      recommendation: { strategy: string; settings: Record<string, unknown> };
    };
    expect(sweep.points).toHaveLength(11);
    expect(sweep.front).toContain(sweep.recommended);
    expect(sweep.recommendation.strategy).toBe('codex-rebuild');
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { recommendation: unknown };
    expect(result.recommendation).toEqual(sweep.recommendation);
    const html = readFileSync(join(out, 'sweep.html'), 'utf8');
    expect(html).toContain('Content-Security-Policy');
    expect(html).toMatch(/Chart\.js v4/);
    expect(html).toContain('"animation":false');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(existsSync(join(out, 'result.json'))).toBe(true);
  });

  it("scores a point's recall over the valid answers, as its units' answer_recall (a real log with an invalid ask)", async () => {
    const out = tempDir();
    const log = 'fixtures/real/claude-code-compactions/mclaude-97b0ffde.jsonl';
    const { code } = await cli(['sweep', log, '--window', '100000', '--grid', 'codex-rebuild.trigger=0.9', '--out', out, '--quiet']);
    expect(code).toBe(0);
    const [, fullRow] = readFileSync(join(out, 'sweep.csv'), 'utf8').trim().split('\n');
    const summary = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n');
    const columns = (summary[0] as string).split(',');
    const fullSummary = (summary[1] as string).split(',');
    expect(fullSummary[columns.indexOf('invalid_asks')]).toBe('1');
    expect(fullSummary[columns.indexOf('answer_recall')]).toBe('1');
    expect(fullRow).toMatch(/^full,full,,\d+,1,0,/);
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
      '--sample-seed',
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
    // The old spelling still works, and says it is deprecated.
    const old = await cli(args.map((arg) => (arg === '--sample-seed' ? '--seed' : arg)));
    expect(old.stderr).toContain('sweep --seed is deprecated: use --sample-seed');
    expect(readFileSync(join(out, 'sweep.csv'), 'utf8')).toBe(csv);
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

  it('exits 1 with the reason when nothing passes; the scenario overrides of run work on sweep', async () => {
    const { code, stderr, stdout } = await cli([
      'sweep',
      scenario,
      '--grid',
      'rolling-window.groups=1,2',
      '--window',
      '12000',
      '--min-recall',
      '1',
      '--out',
      tempDir(),
      '--workers',
      '1',
    ]);
    expect(code).toBe(1);
    // --window 12000 makes full overflow, which it does not at the scenario's 24k.
    // full crashed: the answer is still named, the closest, and the gate fails on the floor.
    expect(stdout).toMatch(
      /Recommendation: ship rolling-window groups=\d \(closest: nothing meets the floor\)\n {2}why: nothing meets the floor \(recall at least 100 %\)/,
    );
    expect(stdout).toMatch(/full: crashes itself: overflow at step \d+ of 24/);
    expect(stderr).toMatch(/the floor is not met: nothing meets the floor/);
  });
});
