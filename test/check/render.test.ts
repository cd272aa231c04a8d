import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/check/compare.js';
import { DEFAULT_CHECK_RULES } from '../../src/check/config.js';
import { renderCheckMarkdown, renderCheckTerminal } from '../../src/check/render.js';
import { renderCheckJunit } from '../../src/check/junit.js';
import { buildRun, probes, repeat, type UnitSpec } from './builders.js';

const base: UnitSpec = { strategy: 'rolling-window', steps: repeat(1000, 10), answers: probes(4, () => true) };
const baseline = buildRun([base, { ...base, strategy: 'full' }, { ...base, strategy: 'a|b <x>' }]);
const current = buildRun([
  { ...base, answers: probes(4, (i) => i > 1) },
  { ...base, strategy: 'a|b <x>' },
  { ...base, strategy: 'new-one' },
]);
const report = compareResults(current, baseline, DEFAULT_CHECK_RULES);

describe('check renderings', () => {
  it('prints a table row per unit, then the regressions by name', () => {
    const text = renderCheckTerminal(report, { color: false });
    expect(text).toMatch(/^ctxbench check · 2 units compared on point estimates \(deterministic runs\): 2 regressions\n/);
    const row = text.split('\n').find((line) => line.includes('rolling-window') && line.includes('REGRESSION'));
    expect(row).toMatch(/100% → 50%\s+-50\.0 \[[^\]]+\] ✗/);
    expect(text).toContain('scenario-a × rolling-window: answer recall fell 50.0 points');
    expect(text).toContain('scenario-a × full: is in the baseline but missing from the run');
    expect(text).not.toContain('\x1b[');
    expect(renderCheckTerminal(report, { color: true })).toContain('\x1b[31m');
  });

  it('has a cost column, so that a cost-only regression shows beside its verdict', () => {
    const priced: UnitSpec = { strategy: 'rolling-window', steps: repeat(1000, 10), answers: probes(4, () => true), usd: repeat(0.01, 10) };
    const dearer = compareResults(buildRun([{ ...priced, usd: repeat(0.02, 10) }]), buildRun([priced]), DEFAULT_CHECK_RULES);
    const text = renderCheckTerminal(dearer, { color: false });
    expect(text).toContain('Δ cost');
    const row = text.split('\n').find((line) => line.includes('REGRESSION'));
    expect(row).toMatch(/\$0\.1000 → \$0\.2000\s+\+100\.0%/);
  });

  it('writes Markdown for a pull-request comment, names escaped', () => {
    const md = renderCheckMarkdown(report);
    expect(md.startsWith('## ctxbench check: regression\n')).toBe(true);
    expect(md).toContain('| scenario-a | rolling-window |');
    expect(md).toContain('**regression**');
    expect(md).toContain('a\\|b &lt;x&gt;');
    expect(md).toContain('### Regressions');
    expect(renderCheckMarkdown(compareResults(baseline, baseline, DEFAULT_CHECK_RULES))).toMatch(/^## ctxbench check: passed\n/);
  });

  it('writes JUnit XML: a case per unit and rule, a failure per regression, new units skipped', () => {
    const xml = renderCheckJunit(report);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="ctxbench check" tests="10" failures="2"/);
    expect(xml).toContain(
      '<testcase classname="scenario-a.rolling-window" name="answer_recall" time="0">\n      <failure message="answer recall fell 50.0 points',
    );
    expect(xml).toContain('<testcase classname="scenario-a.full" name="missing" time="0">\n      <failure');
    expect(xml).toContain('classname="scenario-a.a|b &lt;x&gt;"');
    expect(xml).toContain('<skipped message="not in the baseline"/>');
    expect(renderCheckJunit(report)).toBe(xml);
  });
});
