import { afterEach, describe, expect, it, vi } from 'vitest';
import { cli } from '../helpers/cli.js';

const noCompaction = 'fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl';
const withCompaction = 'fixtures/real/claude-code-long/vsla-0a725fb5.jsonl';
const tooShort = 'fixtures/real/claude-code/hello-world-script.jsonl';

interface UseRow {
  fact: string;
  kind: string;
  sourceStep: number;
  useStep: number;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ctxbench probes needed', () => {
  it('lists the needed uses of a log, each used at least --min-distance steps after it was last seen', async () => {
    const { code, stdout } = await cli(['probes', 'needed', noCompaction, '--json']);
    expect(code).toBe(0);
    const { uses } = JSON.parse(stdout) as { uses: UseRow[] };
    expect(uses.length).toBeGreaterThanOrEqual(20);
    expect(uses.every((u) => u.useStep - u.sourceStep >= 10)).toBe(true);
    const far = JSON.parse((await cli(['probes', 'needed', noCompaction, '--json', '--min-distance', '40'])).stdout) as { uses: UseRow[] };
    expect(far.uses.length).toBeGreaterThan(0);
    expect(far.uses.length).toBeLessThan(uses.length);
    expect(far.uses.every((u) => u.useStep - u.sourceStep >= 40)).toBe(true);
  });

  it('prints a table with the use step, source step, kind and fact', async () => {
    const { code, stdout } = await cli(['probes', 'needed', noCompaction]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}use {2}source {2}kind {8}fact$/m);
    expect(stdout).toMatch(/^\d+ needed uses$/m);
  });

  it('exits 2 on a log it cannot read or a distance that is not a whole number', async () => {
    expect((await cli(['probes', 'needed', 'fixtures/real/no-such-log.jsonl'])).code).toBe(2);
    const zero = await cli(['probes', 'needed', noCompaction, '--min-distance', 'ten']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--min-distance');
  });
});

describe('ctxbench validate', () => {
  it('reports per log and pooled how many needed uses the context the agent sent held', async () => {
    const { code, stdout } = await cli(['validate', noCompaction, withCompaction, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      logs: { file: string; needed: number; present: number; compactions: number; missing: Record<string, number> }[];
      pooled: { needed: number; present: number; missing: Record<string, number> };
    };
    expect(result.logs.map((l) => l.file)).toEqual([noCompaction, withCompaction]);
    const [plain, compacted] = result.logs;
    // Without a compaction the agent sent its whole history: every needed fact was there.
    expect(plain?.present).toBe(plain?.needed);
    expect(plain?.missing).toEqual({});
    expect(compacted?.compactions).toBe(1);
    expect(compacted?.present).toBeGreaterThanOrEqual(0.9 * (compacted?.needed ?? 0));
    const missed = Object.values(result.pooled.missing).reduce((a, b) => a + b, 0);
    expect(result.pooled.needed).toBe((plain?.needed ?? 0) + (compacted?.needed ?? 0));
    expect(result.pooled.present + missed).toBe(result.pooled.needed);
  });

  it('prints each log, its misses by cause with examples, and the pooled share', async () => {
    const { code, stdout } = await cli(['validate', withCompaction]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/vsla-0a725fb5\.jsonl: 201 steps, 1 compaction\(s\), \d+ needed uses, recorded holds \d+ \(\d+\.\d %\)/);
    expect(stdout).toMatch(/^ {4}[a-z-]+: \d+, e\.g\. ".+" \([a-z]+, step \d+ → \d+\)/m);
    expect(stdout).toMatch(/^pooled: \d+ needed uses over 1 log\(s\)/m);
  });

  it('exits 2 when no log has a needed use, or a log does not load', async () => {
    const none = await cli(['validate', tooShort, '--json']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no needed fact in any log');
    expect(none.stdout).toBe('');
    expect((await cli(['validate', 'fixtures/real/no-such-log.jsonl'])).code).toBe(2);
  });
});
