import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReportFiles } from '../../src/report/write.js';

describe('writeReportFiles', () => {
  it('creates the directory and its subfolders, writes every file, returns the paths in order', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'ctxbench-report-')), 'nested', 'out');
    const paths = await writeReportFiles(dir, [
      { file: 'summary.csv', contents: 'a,b\n' },
      { file: 'charts/quota.json', contents: '{}\n' },
    ]);
    expect(paths).toEqual([join(dir, 'summary.csv'), join(dir, 'charts', 'quota.json')]);
    expect(await readFile(join(dir, 'summary.csv'), 'utf8')).toBe('a,b\n');
    expect(await readFile(join(dir, 'charts', 'quota.json'), 'utf8')).toBe('{}\n');
  });

  it('refuses a file outside the report directory and writes nothing', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ctxbench-report-'));
    const dir = join(root, 'out');
    await expect(
      writeReportFiles(dir, [
        { file: 'ok.csv', contents: 'x' },
        { file: '../escape.csv', contents: 'x' },
      ]),
    ).rejects.toThrow(/outside the report directory/);
    expect(await readdir(root)).toEqual([]);
  });

  it('replaces a file whole through a temporary name, redacted unless told not to', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctxbench-report-'));
    const secret = 'Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0zz';
    await writeReportFiles(dir, [{ file: 'result.json', contents: 'old\n' }]);
    await writeReportFiles(dir, [{ file: 'result.json', contents: `${secret}\n` }]);
    expect(await readFile(join(dir, 'result.json'), 'utf8')).toBe('Authorization: Bearer [redacted:bearer-token]\n');
    await writeReportFiles(dir, [{ file: 'result.json', contents: `${secret}\n` }], { redact: false });
    expect(await readFile(join(dir, 'result.json'), 'utf8')).toBe(`${secret}\n`);
    expect(await readdir(dir)).toEqual(['result.json']);
  });
});
