import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../../helpers/cli.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const examples = resolve(import.meta.dirname, '../../../examples');

afterEach(() => vi.restoreAllMocks());

/** summary.csv as rows keyed by column name. */
function readSummary(dir: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(join(dir, 'summary.csv'), 'utf8').trim().split('\n');
  const columns = (header ?? '').split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i], cell])));
}

/** A row without its strategy label, to compare a policy of one's own with the built-in it copies. */
const measures = (row: Record<string, string> | undefined): Record<string, string> => {
  const { strategy: _label, ...rest } = row ?? {};
  return rest;
};

describe.each([
  ['js-policy', 'js-masking'],
  ['python-policy', 'python-masking'],
])('the example %s', (folder, label) => {
  it(`runs through ctxbench run with the summary row of the built-in observation-masking, and passes check against its own baseline`, async () => {
    const out = tempDir();
    const { code } = await cli(['run', join(examples, folder, 'scenario.yaml'), '--out', out, '--quiet', '--reports', 'json,csv']);
    expect(code).toBe(0);
    const rows = readSummary(out);
    const own = rows.find((r) => r.strategy === label);
    const builtIn = rows.find((r) => r.strategy === 'observation-masking');
    expect(own).toMatchObject({ steps: '40', steps_completed: '40', crashed: 'false', peak_context_tokens: '13310' });
    expect(measures(own)).toEqual(measures(builtIn));
    const again = await cli(['check', join(out, 'result.json'), '--baseline', join(out, 'result.json')]);
    expect(again.code).toBe(0);
  });
});

describe('a strategy module given on the command line', () => {
  it('runs beside --strategies on a scenario that does not list it, labelled after its file', async () => {
    const out = tempDir();
    const dir = writeFiles({ 's.yaml': 'name: small\ntranscript:\n  generate: { steps: 12, seed: 2, toolOutputTokens: 400 }\nwindow: 100000\n' });
    const args = [
      'run',
      join(dir, 's.yaml'),
      '--out',
      out,
      '--quiet',
      '--reports',
      'csv',
      '--strategies',
      'observation-masking',
      '--strategy-module',
      join(examples, 'js-policy', 'masking.mjs'),
    ];
    expect((await cli(args)).code).toBe(0);
    const rows = readSummary(out);
    expect(rows.map((r) => r.strategy)).toEqual(['observation-masking', 'masking']);
    expect(measures(rows[1])).toEqual(measures(rows[0]));
  });

  it('exits 2 naming the scenario field when a module option is wrong', async () => {
    const dir = writeFiles({
      's.yaml': `name: bad\ntranscript:\n  generate: { steps: 4 }\nstrategies:\n  - { label: mine, module: ${JSON.stringify(join(examples, 'js-policy', 'masking.mjs'))}, options: { keepLast: -1 } }\n`,
    });
    const { code, stderr } = await cli(['run', join(dir, 's.yaml'), '--out', tempDir(), '--quiet']);
    expect(code).toBe(2);
    expect(stderr).toContain('(field strategies.mine.options.keepLast): expects a whole number >= 0');
  });

  it('exits 2 when an entry names both a module and a registered strategy', async () => {
    const dir = writeFiles({ 's.yaml': 'name: bad\ntranscript:\n  generate: { steps: 4 }\nstrategies:\n  - { strategy: full, module: ./m.mjs }\n' });
    const { code, stderr } = await cli(['run', join(dir, 's.yaml'), '--out', tempDir(), '--quiet']);
    expect(code).toBe(2);
    expect(stderr).toContain('(field strategies.0.strategy): an entry names one strategy: `strategy`, `pipeline`, `module` or `command`');
  });
});

describe('a sweep over a strategy of your own', () => {
  it('varies the options of a module strategy the scenario labels, validated by its own schema', async () => {
    const out = tempDir();
    const scenario = join(examples, 'js-policy', 'scenario.yaml');
    const { code, stderr } = await cli(['sweep', scenario, '--grid', 'js-masking.keepLast=2,20', '--out', out, '--quiet']);
    // Every report is written; the exit status is the decision: full overflows, so the reference
    // is the best point that completes (issue 34), and a point of the module strategy is shipped.
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const sweep = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as {
      recommendation: { strategy: string | null; meetsFloor: boolean };
      strategies: string[];
      points: { label: string; units: { strategy: string; steps_completed: number }[] }[];
    };
    expect(sweep.recommendation).toMatchObject({ strategy: 'js-masking', meetsFloor: true });
    expect(sweep.strategies).toEqual(['js-masking']);
    // full runs beside the points as the reference (it overflows this scenario's window).
    expect(sweep.points.map((p) => [p.label, p.units[0]?.steps_completed])).toEqual([
      ['full', 27],
      ['js-masking keepLast=2', 40],
      ['js-masking keepLast=20', 40],
    ]);
    const bad = await cli(['sweep', scenario, '--grid', 'js-masking.keepLast=-2,20', '--out', tempDir(), '--quiet']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "--grid 'js-masking.keepLast=-2,20': keepLast=-2 (with js-policy's options) is not valid for js-masking: expects a whole number >= 0",
    );
  });
});
