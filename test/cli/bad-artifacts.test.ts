import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';

/**
 * fixtures/bad/artifacts/ (issue 35, "numbers a CI can trust"): inputs whose results or reports
 * could not be trusted, each refused with one line naming the file and the field (exit 2), or
 * flagged where the run can go on.
 */
const artifacts = resolve(import.meta.dirname, '../../fixtures/bad/artifacts');
const at = (path: string): string => join(artifacts, path);
const run = resolve(import.meta.dirname, '../../fixtures/bad/check/run-seed-1.json');

interface Case {
  name: string;
  args: string[];
  code: number;
  /** What stderr must say. */
  message: RegExp;
}

const CASES: Case[] = [
  {
    name: 'check against a baseline without units',
    args: ['check', run, '--baseline', at('check/no-units.json')],
    code: 2,
    message: /no-units\.json \(field units\): cannot be compared: holds no units/,
  },
  {
    name: 'check against a baseline with Infinity step tokens',
    args: ['check', run, '--baseline', at('check/infinite-step-tokens.json')],
    code: 2,
    message: /infinite-step-tokens\.json \(field units\.0\.steps\.1\.promptTokens\): cannot be compared: .*received Infinity/,
  },
  {
    name: 'check against a baseline whose answer_recall is "NaN"',
    args: ['check', run, '--baseline', at('check/nan-recall.json')],
    code: 2,
    message: /nan-recall\.json \(field units\.0\.summary\.answer_recall\): cannot be compared: .*expected number, received string/,
  },
  {
    name: 'check against a baseline whose unit lists no steps',
    args: ['check', run, '--baseline', at('check/no-steps.json')],
    code: 2,
    message: /no-steps\.json \(field units\.0\.steps\): cannot be compared: tiny × full completed 3 steps but lists none/,
  },
  {
    name: 'check --prices naming no model of the run (a warning; the check passes)',
    args: ['check', run, '--baseline', run, '--prices', at('check/prices-typo.yaml')],
    code: 0,
    message:
      /^ctxbench: warning: --prices names models that price no unit of the run or the baseline \(not used\): gemini-2\.5-flsh; their models: gemini-2\.5-flash\n$/,
  },
];

describe('fixtures/bad/artifacts: results and reports a CI can trust', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { code, stderr } = await cli(c.args);
    expect(code, stderr).toBe(c.code);
    expect(stderr).toMatch(c.message);
    if (code === 2) expect(stderr.trim().split('\n'), 'one line').toHaveLength(1);
  });

  it('check of a valid result against itself still passes', async () => {
    const { code, stdout, stderr } = await cli(['check', run, '--baseline', run]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/1 units compared .*: no regression/);
  });
});
