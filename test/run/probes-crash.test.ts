import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSuite } from '../../src/run/run-suite.js';
import type { UnitResult } from '../../src/metrics/types.js';
import { writeFiles } from '../helpers/temp.js';

/**
 * A session that crashes half-way still reports recall (issue 25): generated probes are asked
 * through the session (once their evidence is ten steps old), so the answers given before the
 * crash stay, and only the later ask points are unanswered. A real mini-swe-agent run of 57 calls,
 * replayed once in a window nothing fills and once in the window its step 28 needs.
 */
const LOG = resolve(import.meta.dirname, '../../fixtures/real/mini-swe-agent/astropy__astropy-8707.traj.json');

async function run(window: number, strategies = ['full']): Promise<UnitResult[]> {
  const dir = writeFiles({ 's.yaml': `name: s\ntranscript: "${LOG}"\nprobes: generate\nwindow: ${window}\nstrategies: [${strategies.join(', ')}]\n` });
  return (await runSuite({ scenarios: [resolve(dir, 's.yaml')] })).units;
}

async function runFull(window: number): Promise<UnitResult> {
  const unit = (await run(window))[0];
  if (unit === undefined) throw new Error('no unit');
  return unit;
}

describe('a session that crashes at half its length', () => {
  it('keeps the answers of the ask points before the crash, and full answers them', { timeout: 120_000 }, async () => {
    const whole = await runFull(1_000_000);
    const half = Math.floor(whole.steps.length / 2);
    const window = (whole.steps[half]?.contextTokens ?? 0) - 1;
    const crashed = await runFull(window);
    expect(crashed.summary.crash_step).toBe(half);
    const answers = crashed.probes?.answers ?? [];
    const given = answers.filter((a) => a.unanswered !== true);
    expect(given.length).toBeGreaterThan(0);
    expect(given.every((a) => a.step < half)).toBe(true);
    expect(answers.filter((a) => a.unanswered === true).length).toBe(crashed.summary.unanswered);
    // Recall over the answers given: `full` answers every valid one.
    expect(crashed.summary.answer_recall).toBe(1);
    expect(whole.summary.answer_recall).toBe(1);
    expect(crashed.probes?.recallCurve?.every((p) => p.step < half)).toBe(true);
  });
});

describe('ask points after a rewrite, and outcomes', () => {
  it('asks again when a rewrite takes a fact out, and says what the context held', { timeout: 120_000 }, async () => {
    const [full, masking] = await run(1_000_000, ['full', 'observation-masking']);
    const rewritten = masking?.probes?.answers.filter((a) => a.askedAt === 'after-rewrite') ?? [];
    expect(rewritten.length).toBeGreaterThan(0);
    // Asked where the fact left the context: nothing verbatim is left to read.
    expect(rewritten.every((a) => a.outcome !== 'kept')).toBe(true);
    expect(full?.probes?.answers.some((a) => a.askedAt === 'after-rewrite')).toBe(false);
    expect(full?.probes?.answers.every((a) => a.outcome === 'kept')).toBe(true);
    // Every unit reports how many ask points ended in each class.
    const outcomes: Record<string, number> = masking?.probes?.outcomes ?? {};
    expect(Object.values(outcomes).reduce((n, k) => n + k, 0)).toBe(masking?.probes?.answers.length);
  });
});
