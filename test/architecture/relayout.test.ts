import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');

describe('scripts/relayout.mjs', () => {
  it('has nothing left to do on this tree (every move made, every import already right)', () => {
    const run = spawnSync(process.execPath, [path.join(repo, 'scripts/relayout.mjs'), '--check'], { cwd: repo, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('0 moves pending, 0 files to rewrite\n');
    expect(run.status).toBe(0);
  });
});
