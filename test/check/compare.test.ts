import { describe, expect, it } from 'vitest';
import { compareResults, thresholdsFor } from '../../src/check/compare.js';
import { DEFAULT_CHECK_RULES, resolveCheckRules } from '../../src/check/config.js';
import type { CheckRules } from '../../src/check/types.js';
import { buildRun, probes, repeat, type UnitSpec } from './builders.js';

const rules = (over: Partial<CheckRules> = {}): CheckRules => resolveCheckRules({}, over);
const ruleNames = (report: ReturnType<typeof compareResults>): string[] => report.regressions.map((r) => `${r.strategy}:${r.rule}`);

const base: UnitSpec = {
  strategy: 'rolling-window',
  steps: repeat(1000, 20),
  answers: probes(10, () => true),
  retention: { p0: [1, 1, 1, 1], p1: [1, 1, 1, 1] },
};
const kept = (...points: (0 | 1)[]): (0 | 1)[] => points;

describe('compareResults: the rules', () => {
  it('passes a run against itself, judged on point estimates when both are mocked', () => {
    const run = buildRun([base, { ...base, strategy: 'full' }]);
    const report = compareResults(run, run, DEFAULT_CHECK_RULES);
    expect(report.decision).toBe('estimate');
    expect(report.regressions).toEqual([]);
    // Unpriced units: the cost measure is not compared.
    expect(report.units.map((u) => u.measures.map((m) => m.change))).toEqual([
      [0, 0, 0, null],
      [0, 0, 0, null],
    ]);
  });

  it.each([
    { name: 'tokens +6% over the 5% limit', current: { ...base, steps: repeat(1060, 20) }, expected: ['rolling-window:tokens'] },
    { name: 'tokens +4% within the limit', current: { ...base, steps: repeat(1040, 20) }, expected: [] },
    { name: 'tokens down', current: { ...base, steps: repeat(500, 20) }, expected: [] },
    {
      name: 'same tokens, cost +10% over the 5% limit',
      current: { ...base, usd: repeat(0.011, 20) },
      baseline: { ...base, usd: repeat(0.01, 20) },
      expected: ['rolling-window:cost'],
    },
    {
      name: 'fewer tokens, cost +4% within the limit',
      current: { ...base, steps: repeat(500, 20), usd: repeat(0.0104, 20) },
      baseline: { ...base, usd: repeat(0.01, 20) },
      expected: [],
    },
    { name: 'recall −30 points', current: { ...base, answers: probes(10, (i) => i >= 3) }, expected: ['rolling-window:answer_recall'] },
    { name: 'recall −10 points', current: { ...base, answers: probes(10, (i) => i >= 1) }, expected: ['rolling-window:answer_recall'] },
    { name: 'retention −25 points', current: { ...base, retention: { p0: kept(1, 1, 0, 0), p1: kept(1, 1, 1, 1) } }, expected: ['rolling-window:retention'] },
    { name: 'a new crash', current: { ...base, steps: repeat(1000, 6), crashAt: 5 }, expected: ['rolling-window:crash'] },
    {
      name: 'a crash before six probes were asked: a crash, not a recall drop',
      current: { ...base, steps: repeat(1000, 6), crashAt: 5, answers: probes(4, () => true), unanswered: ['p4', 'p5', 'p6', 'p7', 'p8', 'p9'] },
      expected: ['rolling-window:crash'],
    },
  ])('$name', ({ current, expected, ...rest }) => {
    const baseline = 'baseline' in rest ? (rest.baseline as UnitSpec) : base;
    const report = compareResults(buildRun([current]), buildRun([baseline]), DEFAULT_CHECK_RULES);
    expect(ruleNames(report)).toEqual(expected);
  });

  it('names the unit, the measure, the change and the limit in the message', () => {
    const report = compareResults(buildRun([{ ...base, steps: repeat(1100, 20) }]), buildRun([base]), DEFAULT_CHECK_RULES);
    // Per step: prompt 1000 + completion 100 → 1100 + 100: +9.1%.
    expect(report.regressions[0]?.message).toMatch(/^tokens rose 9\.1% \(limit 5%; 95% CI \+9\.1 to \+9\.1; 20 paired steps\)$/);
  });

  it('pairs tokens on the steps both runs completed, so surviving longer is not a cost', () => {
    const crashed = { ...base, steps: repeat(1000, 6), crashAt: 5 };
    const report = compareResults(buildRun([base]), buildRun([crashed]), DEFAULT_CHECK_RULES);
    const tokens = report.units[0]?.measures.find((m) => m.measure === 'tokens');
    expect(tokens).toMatchObject({ samples: 5, change: 0, verdict: 'pass' });
    expect(tokens?.current).toBeGreaterThan(tokens?.baseline ?? Infinity);
    expect(report.regressions).toEqual([]);
  });

  it('does not count a crash both runs have as new', () => {
    const crashed = { ...base, steps: repeat(1000, 6), crashAt: 5 };
    expect(compareResults(buildRun([crashed]), buildRun([crashed]), DEFAULT_CHECK_RULES).regressions).toEqual([]);
  });

  it('fails on a baseline unit missing from the run, unless allowed; a new unit is a note', () => {
    const baseline = buildRun([base, { ...base, strategy: 'full' }]);
    const current = buildRun([base, { ...base, strategy: 'tri-modal' }]);
    const report = compareResults(current, baseline, DEFAULT_CHECK_RULES);
    expect(ruleNames(report)).toEqual(['full:missing']);
    expect(report.units.map((u) => `${u.strategy}:${u.status}`)).toEqual(['rolling-window:compared', 'full:missing', 'tri-modal:new']);
    expect(report.notes.join('\n')).toMatch(/not in the baseline.*tri-modal/);
    expect(compareResults(current, baseline, rules({ allowMissing: true })).regressions).toEqual([]);
  });

  it('applies overrides by scenario and strategy, later entries winning', () => {
    const overrides = [
      { strategy: 'rolling-window', maxTokenIncrease: 20 },
      { scenario: 'other', maxTokenIncrease: 1 },
    ];
    const r = rules({ overrides });
    expect(thresholdsFor(r, 'scenario-a', 'rolling-window').maxTokenIncrease).toBe(20);
    expect(thresholdsFor(r, 'other', 'rolling-window').maxTokenIncrease).toBe(1);
    expect(thresholdsFor(r, 'other', 'full').maxTokenIncrease).toBe(1);
    const report = compareResults(buildRun([{ ...base, steps: repeat(1100, 20) }]), buildRun([base]), r);
    expect(report.regressions).toEqual([]);
  });

  it('notes another seed or version without failing', () => {
    const baseline = buildRun([base]);
    const current = { ...buildRun([base]), tool: { name: 'ctxbench' as const, version: '0.2.0' } };
    current.scenarios = current.scenarios.map((s) => ({ ...s, seed: 7 }));
    const report = compareResults(current, baseline, DEFAULT_CHECK_RULES);
    expect(report.regressions).toEqual([]);
    expect(report.notes.join('\n')).toMatch(/ctxbench 0\.1\.0.*0\.2\.0[\s\S]*seed 7, the baseline with 42/);
  });
});

describe('compareResults: noise against a real regression (live runs)', () => {
  // Per-step costs that swing ±30% around +6%: noisy, as live completions are.
  const noisy: UnitSpec = { ...base, steps: Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 1400 : 760)) };
  const worse: UnitSpec = { ...base, steps: repeat(1100, 20) };

  it('judges live runs on the interval bound: noise passes, a consistent rise fails', () => {
    const baseline = buildRun([base], 'live');
    const noise = compareResults(buildRun([noisy], 'live'), baseline, DEFAULT_CHECK_RULES);
    expect(noise.decision).toBe('interval');
    const tokens = noise.units[0]?.measures[0];
    expect(tokens?.change).toBeGreaterThan(5);
    expect(tokens?.interval?.[0]).toBeLessThan(5);
    expect(noise.regressions).toEqual([]);
    expect(ruleNames(compareResults(buildRun([worse], 'live'), baseline, DEFAULT_CHECK_RULES))).toEqual(['rolling-window:tokens']);
  });

  it('judges the same noise on the estimate when asked to', () => {
    const report = compareResults(buildRun([noisy], 'live'), buildRun([base], 'live'), rules({ decision: 'estimate' }));
    expect(ruleNames(report)).toEqual(['rolling-window:tokens']);
  });

  it('lets one flipped probe of ten pass on the interval, but not a drop across many', () => {
    const baseline = buildRun([base], 'live');
    expect(compareResults(buildRun([{ ...base, answers: probes(10, (i) => i !== 0) }], 'live'), baseline, DEFAULT_CHECK_RULES).regressions).toEqual([]);
    const many = compareResults(buildRun([{ ...base, answers: probes(10, (i) => i >= 6) }], 'live'), baseline, DEFAULT_CHECK_RULES);
    expect(ruleNames(many)).toEqual(['rolling-window:answer_recall']);
    expect(many.units[0]?.measures[1]?.interval?.[1]).toBeLessThan(-2);
  });

  it('gives the same intervals for the same seed, whatever the unit order', () => {
    const a = compareResults(
      buildRun([noisy, { ...noisy, strategy: 'full' }], 'live'),
      buildRun([base, { ...base, strategy: 'full' }], 'live'),
      DEFAULT_CHECK_RULES,
    );
    const b = compareResults(
      buildRun([{ ...noisy, strategy: 'full' }, noisy], 'live'),
      buildRun([{ ...base, strategy: 'full' }, base], 'live'),
      DEFAULT_CHECK_RULES,
    );
    const interval = (r: typeof a, strategy: string) => r.units.find((u) => u.strategy === strategy)?.measures[0]?.interval;
    expect(interval(a, 'rolling-window')).toEqual(interval(b, 'rolling-window'));
    expect(interval(a, 'full')).toEqual(interval(b, 'full'));
  });
});

describe('compareResults: options changed on purpose', () => {
  const withOptions = (run: ReturnType<typeof buildRun>, options: Record<string, unknown>): ReturnType<typeof buildRun> => ({
    ...run,
    units: run.units.map((unit) => ({ ...unit, options })),
  });
  const baseline = withOptions(buildRun([base]), { trigger: 0.9 });
  // Three probes of ten lost: 30 points below the baseline.
  const current = withOptions(buildRun([{ ...base, answers: probes(10, (i) => i > 2) }]), { trigger: 0.6 });

  it('names the change in the regression', () => {
    const report = compareResults(current, baseline, DEFAULT_CHECK_RULES);
    expect(report.regressions.map((r) => r.rule)).toEqual(['answer_recall']);
    expect(report.regressions[0]?.message).toMatch(/; options changed: trigger 0\.9 → 0\.6$/);
  });

  it("does not contradict the run's recommendation: a recall drop it accepts is a note", () => {
    const candidate = {
      strategy: 'rolling-window',
      settings: { trigger: 0.6 },
      verdict: 'recommended' as const,
      reason: "recall 70 % vs full's 72 %",
      rank: 1,
      costUsd: null,
      totalTokens: 0,
      peakContextTokens: 0,
      answerRecall: 0.7,
      crashes: 0,
    };
    const recommendation = {
      objective: 'cost' as const,
      constraints: { minRecall: { kind: 'relative' as const, points: 0.05 }, maxCrashes: 0 },
      aggregate: 'worst-case' as const,
      strategy: 'rolling-window',
      meetsFloor: true,
      settings: { trigger: 0.6 },
      reason: '',
      runnerUp: null,
      candidates: [candidate],
    };
    const report = compareResults({ ...current, recommendation }, baseline, DEFAULT_CHECK_RULES);
    expect(report.regressions).toEqual([]);
    expect(report.notes[0]).toMatch(/answer recall fell 30\.0 points .* with changed options \(trigger 0\.9 → 0\.6\), but the run's recommendation accepts it/);
    const unsafe = { ...recommendation, candidates: [{ ...candidate, verdict: 'unsafe-recall' as const }] };
    expect(compareResults({ ...current, recommendation: unsafe }, baseline, DEFAULT_CHECK_RULES).regressions).toHaveLength(1);
    // Without a change of options the drop is a regression whatever the recommendation says.
    expect(compareResults({ ...withOptions(current, { trigger: 0.9 }), recommendation }, baseline, DEFAULT_CHECK_RULES).regressions).toHaveLength(1);
  });
});
