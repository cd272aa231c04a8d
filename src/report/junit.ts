import type { RunResult, ScenarioInfo, SummaryRow, UnitResult } from '../metrics/types.js';
import { detailsOf, type ReportFile, type Reporter, type UnitDetails } from './types.js';
import { SUMMARY_CONTRACT_COLUMNS } from '../metrics/columns.js';
import { spanOf } from '../metrics/summary-only.js';

/**
 * Summary fields repeated as `<property>`s of each test case (the figures CI users look for): the
 * summary contract's columns, less the unit's identity and its crash, which the case itself says.
 */
const IN_CASE: ReadonlySet<string> = new Set(['scenario', 'strategy', 'crashed', 'crash_kind', 'crash_step']);
const PROPERTY_FIELDS = SUMMARY_CONTRACT_COLUMNS.filter((field) => !IN_CASE.has(field));

/**
 * `junit.xml`: one test suite per scenario and one test case per scenario × strategy
 * (classname = scenario, name = strategy), so that CI systems list the units natively. A crash is
 * a `<failure>` naming its kind, step and message. `time` is the unit's virtual duration in
 * seconds, never wall time, so the file is deterministic.
 */
export function renderJunit(result: RunResult, details: UnitDetails = detailsOf(result)): ReportFile[] {
  // Each unit's span: a summary-only unit (a corpus's) carries it; a whole one's is read from its steps and events.
  const seconds = new Map(result.units.map((unit, i) => [unit, spanOf(unit.spanMs !== undefined ? unit : details.load(i)) / 1000]));
  const secondsOf = (unit: UnitResult): number => seconds.get(unit) ?? 0;
  const suites = scenarioNames(result).map((name) =>
    renderSuite(
      name,
      result.scenarios.find((s) => s.name === name),
      result.units.filter((unit) => unit.scenario === name),
      secondsOf,
    ),
  );
  const units = result.units;
  const failures = units.filter((unit) => unit.summary.crashed).length;
  const time = units.reduce((sum, unit) => sum + secondsOf(unit), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ctxbench" tests="${units.length}" failures="${failures}" errors="0" time="${formatSeconds(time)}">`,
    ...suites,
    '</testsuites>',
  ];
  return [{ file: 'junit.xml', contents: `${lines.join('\n')}\n` }];
}

function renderSuite(name: string, info: ScenarioInfo | undefined, units: readonly UnitResult[], secondsOf: (unit: UnitResult) => number): string {
  const failures = units.filter((unit) => unit.summary.crashed).length;
  const time = units.reduce((sum, unit) => sum + secondsOf(unit), 0);
  const attributes = `name="${escapeXml(name)}" tests="${units.length}" failures="${failures}" errors="0" skipped="0" time="${formatSeconds(time)}"`;
  const properties = info === undefined ? [] : suiteProperties(info);
  return [
    `  <testsuite ${attributes}>`,
    ...(properties.length > 0 ? ['    <properties>', ...properties.map((p) => `      ${p}`), '    </properties>'] : []),
    ...units.map((unit) => renderCase(unit, secondsOf(unit))),
    '  </testsuite>',
  ].join('\n');
}

function suiteProperties(info: ScenarioInfo): string[] {
  const entries: [string, string | number | undefined][] = [
    ['file', info.file],
    ['provider', info.provider],
    ['model', info.model],
    ['window', info.window],
    ['tpm', info.tpm],
    ['steps', info.steps],
    ['seed', info.seed],
  ];
  return entries.filter(([, value]) => value !== undefined).map(([key, value]) => property(key, String(value)));
}

function renderCase(unit: UnitResult, seconds: number): string {
  const attributes = `classname="${escapeXml(unit.scenario)}" name="${escapeXml(unit.strategy)}" time="${formatSeconds(seconds)}"`;
  const properties = PROPERTY_FIELDS.map((field) => property(field, formatValue(unit.summary[field])));
  const lines = [`    <testcase ${attributes}>`, '      <properties>', ...properties.map((p) => `        ${p}`), '      </properties>'];
  const failure = describeCrash(unit);
  if (failure !== undefined) {
    lines.push(`      <failure type="${escapeXml(failure.type)}" message="${escapeXml(failure.message)}">${escapeXmlText(failure.body)}</failure>`);
  }
  lines.push('    </testcase>');
  return lines.join('\n');
}

/** The failure of a crashed unit: kind, step and the provider's message, readable in a CI list. */
function describeCrash(unit: UnitResult): { type: string; message: string; body: string } | undefined {
  if (!unit.summary.crashed) return undefined;
  const crash = unit.events.find((event) => event.type === 'crash');
  const kind = unit.summary.crash_kind ?? crash?.kind ?? 'unknown';
  const step = unit.summary.crash_step ?? crash?.step;
  const detail = crash?.message ?? 'no message recorded';
  const message = `${unit.strategy} crashed (${kind}) at step ${step ?? '?'} of ${unit.summary.steps}: ${detail}`;
  const body = [
    message,
    `steps completed: ${unit.summary.steps_completed}/${unit.summary.steps}`,
    `peak context: ${unit.summary.peak_context_tokens} tokens`,
    `total tokens: ${unit.summary.total_tokens}`,
  ].join('\n');
  return { type: kind, message, body };
}

function property(name: string, value: string): string {
  return `<property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`;
}

function formatValue(value: SummaryRow[keyof SummaryRow]): string {
  if (value === null) return '';
  if (typeof value === 'number' && !Number.isInteger(value)) return String(Number(value.toFixed(4)));
  return String(value);
}

function formatSeconds(seconds: number): string {
  return seconds.toFixed(3);
}

function scenarioNames(result: RunResult): string[] {
  const names = result.scenarios.map((scenario) => scenario.name);
  for (const unit of result.units) if (!names.includes(unit.scenario)) names.push(unit.scenario);
  return names;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Text for an XML attribute value. Characters XML 1.0 cannot hold at all (control characters,
 * lone surrogates, U+FFFE/U+FFFF: ANSI colour codes in a tool's output, say) become U+FFFD;
 * newlines and tabs become character references, which attribute normalisation would otherwise
 * turn into spaces.
 */
export function escapeXml(text: string): string {
  return escapeXmlText(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

// The characters XML 1.0 forbids (controls, lone surrogates) and those it discourages (DEL, C1:
// U+009B is a terminal's CSI) are exactly what this must match.
const XML_FORBIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for XML element content: like `escapeXml`, but line breaks stay as they are. */
export function escapeXmlText(text: string): string {
  return text.replace(XML_FORBIDDEN, '\uFFFD').replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

export const junit = { name: 'junit', render: renderJunit } satisfies Reporter;
