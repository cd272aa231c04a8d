import type { CheckReport, Regression, UnitDiff } from './types.js';
import { escapeXml, escapeXmlText } from '../report/junit.js';
import { formatSigned } from './compare.js';

/** The rules a unit is tested against, one JUnit test case each. */
const RULES = ['missing', 'crash', 'tokens', 'answer_recall', 'retention'] as const;

/**
 * The check as JUnit XML: one test suite per scenario, one test case per scenario × strategy ×
 * rule (classname `scenario.strategy`, name the rule), a `<failure>` for each regression. Units
 * new in the run are skipped cases. Deterministic: no times, no host names.
 */
export function renderCheckJunit(report: CheckReport): string {
  const scenarios = [...new Set(report.units.map((unit) => unit.scenario))];
  const failures = report.regressions.length;
  const cases = report.units.flatMap((unit) => testCases(unit, report.regressions));
  const suites = scenarios.map((scenario) => {
    const mine = report.units.filter((unit) => unit.scenario === scenario).flatMap((unit) => testCases(unit, report.regressions));
    const failed = mine.filter((c) => c.failure !== undefined).length;
    const skipped = mine.filter((c) => c.skipped).length;
    return [
      `  <testsuite name="${escapeXml(`check ${scenario}`)}" tests="${mine.length}" failures="${failed}" errors="0" skipped="${skipped}" time="0">`,
      ...mine.map(renderCase),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ctxbench check" tests="${cases.length}" failures="${failures}" errors="0" time="0">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

interface TestCase {
  classname: string;
  name: string;
  skipped: boolean;
  detail: string;
  failure?: string;
}

function testCases(unit: UnitDiff, regressions: readonly Regression[]): TestCase[] {
  const classname = `${unit.scenario}.${unit.strategy}`;
  if (unit.status === 'new') return [{ classname, name: 'baseline', skipped: true, detail: 'not in the baseline' }];
  const rules = unit.status === 'missing' ? (['missing'] as const) : RULES.filter((rule) => rule !== 'missing');
  return rules.map((rule) => {
    const failed = regressions.find((r) => r.scenario === unit.scenario && r.strategy === unit.strategy && r.rule === rule);
    return { classname, name: rule, skipped: false, detail: detailOf(unit, rule), ...(failed !== undefined ? { failure: failed.message } : {}) };
  });
}

function detailOf(unit: UnitDiff, rule: (typeof RULES)[number]): string {
  if (rule === 'missing') return 'in the baseline, missing from the run';
  if (rule === 'crash') return `crash: ${unit.crash.baseline ?? 'none'} → ${unit.crash.current ?? 'none'}`;
  const m = unit.measures.find((x) => x.measure === rule);
  if (m === undefined || m.change === null) return 'not compared: nothing pairs';
  const interval = m.interval === null ? '' : ` [${formatSigned(m.interval[0])}, ${formatSigned(m.interval[1])}]`;
  return `change ${formatSigned(m.change)}${rule === 'tokens' ? '%' : ' points'}${interval}, limit ${m.limit}, ${m.samples} paired samples`;
}

function renderCase(c: TestCase): string {
  const open = `    <testcase classname="${escapeXml(c.classname)}" name="${escapeXml(c.name)}" time="0">`;
  const body: string[] = [];
  if (c.skipped) body.push(`      <skipped message="${escapeXml(c.detail)}"/>`);
  if (c.failure !== undefined) body.push(`      <failure message="${escapeXml(c.failure)}" type="regression">${escapeXmlText(c.detail)}</failure>`);
  else if (!c.skipped) body.push(`      <system-out>${escapeXmlText(c.detail)}</system-out>`);
  return [open, ...body, '    </testcase>'].join('\n');
}
