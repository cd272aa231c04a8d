import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const names = resolve(import.meta.dirname, '../../fixtures/bad/names');
const rowsOf = (out: string): string[] =>
  readFileSync(join(out, 'summary.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((row) => row.split(',').slice(0, 3).join(','));

describe('fixtures/bad/names: distinct scenarios never merge', () => {
  it('two transcripts of one file name in two folders run as two scenarios named by their folders', async () => {
    const out = tempDir();
    const { code, stdout, stderr } = await cli(['run', join(names, 'd1/x.ctx.jsonl'), join(names, 'd2/x.ctx.jsonl'), '--strategies', 'full', '--out', out]);
    expect(code, stderr).toBe(0);
    expect(rowsOf(out)).toEqual(['d1-x,full,2', 'd2-x,full,2']);
    // The ad-hoc note shows each transcript's path beside the name the run gives it.
    expect(stdout).toMatch(/d1\/x\.ctx\.jsonl is a transcript[^\n]*\n[^\n]*\nname: d1-x\n/);
    expect(stdout).toMatch(/d2\/x\.ctx\.jsonl is a transcript[^\n]*\n[^\n]*\nname: d2-x\n/);
    // Each is measured against its own full: the two sessions differ in size.
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { units: { scenario: string; summary: { total_tokens: number } }[] };
    const totals = result.units.map((unit) => unit.summary.total_tokens);
    expect(new Set(totals).size).toBe(2);
  });

  it('"a b" beside "a-b" in one folder: two scenarios, numbered in the order given', async () => {
    const out = tempDir();
    const { code, stdout, stderr } = await cli(['run', join(names, 'd1/a b.ctx.jsonl'), join(names, 'd1/a-b.ctx.jsonl'), '--strategies', 'full', '--out', out]);
    expect(code, stderr).toBe(0);
    expect(rowsOf(out)).toEqual(['a-b-1,full,1', 'a-b-2,full,1']);
    expect(stdout).toMatch(/a b\.ctx\.jsonl is a transcript[^\n]*\n[^\n]*\nname: a-b-1\n/);
  });

  it('the same transcript given twice runs once', async () => {
    const out = tempDir();
    const x = join(names, 'd1/x.ctx.jsonl');
    const { code, stderr } = await cli(['run', x, x, '--strategies', 'full', '--out', out, '--quiet']);
    expect(code, stderr).toBe(0);
    expect(rowsOf(out)).toEqual(['x,full,2']);
  });

  it('two scenario files that claim one name: exit 2 naming both, nothing written', async () => {
    const out = join(tempDir(), 'out');
    const { code, stderr } = await cli(['run', join(names, 'same-name-1.yaml'), join(names, 'same-name-2.yaml'), '--out', out]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/same-name-2\.yaml \(field name\): the scenario name "same" is taken by .*same-name-1\.yaml too/);
    expect(existsSync(out)).toBe(false);
  });

  it('a folder holding both scenario files is refused the same way', async () => {
    const { code, stderr } = await cli(['run', names, '--out', join(tempDir(), 'out')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/the scenario name "same" is taken by .*same-name-1\.yaml too/);
  });
});
