import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const REAL = 'fixtures/real/claude-code-long/vsla-0a725fb5.jsonl';
const NONE = 'fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl';

describe('ctxbench calibrate', () => {
  it('prints real and simulated survival per kind, pooled, and names logs without a compaction', async () => {
    const { code, stdout, stderr } = await cli(['calibrate', REAL, NONE]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('kind            source      real   simulated    ratio');
    expect(stdout).toMatch(/^numbers +205 +1\.5% +\d+\.\d% +\d\.\d\d$/m);
    expect(stdout).toContain('pooled over 1 compaction (the shipped fit)');
    expect(stdout).toContain(`${NONE}: no compaction with a summary`);
  });

  it('prints JSON with --json', async () => {
    const { code, stdout } = await cli(['calibrate', '--json', REAL]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { compactions: { kinds: { kind: string; ratio: number }[] }[]; withoutCompaction: string[]; pooled: { size: number } };
    expect(report.compactions[0]?.kinds.map((k) => k.kind)).toEqual(['paths', 'numbers', 'identifiers']);
    expect(report.withoutCompaction).toEqual([]);
    expect(report.pooled.size).toBeGreaterThan(0);
  });

  it('exits 2 when no log holds a compaction', async () => {
    const { code, stderr } = await cli(['calibrate', NONE]);
    expect(code).toBe(2);
    expect(stderr).toContain('no compaction with a summary in these logs');
  });
});
