import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import type { RunResult } from '../../src/metrics/types.js';

const log = resolve(import.meta.dirname, '../../fixtures/real/claude-code/vibecoding-session.jsonl');

afterEach(() => vi.restoreAllMocks());

describe('the recommendation on a real log (issue 27, done when)', () => {
  it('run --window 100000 names a strategy that keeps recall within 5 points of full, costs less and does not crash; summary.md leads with it', async () => {
    const out = tempDir();
    const strategies = 'full,codex-rebuild,tri-modal,observation-masking,rolling-window';
    const { code, stdout } = await cli(['run', log, '--window', '100000', '--strategies', strategies, '--out', out, '--workers', '1']);
    expect(code).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as RunResult;
    const recommendation = result.recommendation;
    expect(recommendation?.strategy).not.toBeNull();
    expect(recommendation?.strategy).not.toBe('full');
    const row = (name: string) => result.units.find((unit) => unit.strategy === name)?.summary;
    const chosen = row(recommendation?.strategy ?? '');
    const full = row('full');
    expect(chosen?.crashed).toBe(false);
    expect(chosen?.cost_vs_full).toBeLessThan(0);
    expect(chosen?.answer_recall).toBeGreaterThanOrEqual((full?.answer_recall ?? 1) - 0.05);
    // Every strategy is judged, each with words.
    expect(recommendation?.candidates.map((c) => c.strategy).sort()).toEqual(strategies.split(',').sort());
    for (const candidate of recommendation?.candidates ?? []) expect(candidate.reason.length).toBeGreaterThan(5);
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    const firstSection = md.split('\n').find((line) => line.startsWith('### '));
    expect(firstSection).toBe(`### Recommendation: ship ${recommendation?.strategy ?? ''}`);
    expect(stdout).toContain(`Recommendation: ship ${recommendation?.strategy ?? ''}\n  why: `);
    expect(stdout.indexOf('Recommendation:')).toBeLessThan(stdout.indexOf('vibecoding-session  '));
  }, 120_000);
});
