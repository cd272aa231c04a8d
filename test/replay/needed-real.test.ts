import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateFiles, type LogValidation } from '../../src/replay/needed-validate.js';

/**
 * Issue 36: on every real log, what the agent really sent (`recorded`, measured as a run measures
 * it) holds nearly every needed fact at the step the agent used it. The figures are in
 * docs/probes.md (needed facts).
 */
const root = 'fixtures/real';
const logs = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.(jsonl|traj|traj\.json)$/.test(f) || f === join('openhands', 'basic.json'))
  .sort()
  .map((f) => join(root, f));

describe('needed facts on every real log', async () => {
  const { logs: results, pooled } = await validateFiles(logs, { lenient: true });
  const byName = (log: LogValidation): string => log.file.replace(/^.*fixtures\/real\//, '');

  it('reads every real log', () => {
    expect(results).toHaveLength(42);
  });

  it("recorded holds at least 95 % of the needed uses, pooled (the issue's target; 97.8 % measured)", () => {
    expect(pooled.needed).toBeGreaterThan(1500);
    expect(pooled.present / pooled.needed).toBeGreaterThanOrEqual(0.95);
  });

  it('recorded holds every needed use of a log without a compaction', () => {
    const missed = results.filter((log) => log.compactions === 0 && log.present < log.needed).map(byName);
    expect(missed).toEqual([]);
  });

  it("on each log with a compaction recorded holds at least 90 % (the issue's target; swordintel-0c45b0a6 the lowest, 91.1 %)", () => {
    // Of the seven logs with a compaction, mclaude-97b0ffde has no needed use: its later steps poll one shell.
    const compacted = results.filter((log) => log.compactions > 0 && log.needed > 0);
    expect(compacted).toHaveLength(6);
    for (const log of compacted) expect(log.present / log.needed, byName(log)).toBeGreaterThanOrEqual(0.9);
  });

  it('finds at least 20 needed uses on every log of 100 steps or more', () => {
    const long = results.filter((log) => log.steps >= 100);
    expect(long.length).toBeGreaterThanOrEqual(10);
    for (const log of long) expect(log.needed, byName(log)).toBeGreaterThanOrEqual(20);
  });

  it('leaves no miss the replay itself caused', () => {
    expect(pooled.missing['replay-gap'] ?? 0).toBe(0);
  });
});
