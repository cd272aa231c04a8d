import type { CheckReport, MeasureDiff, MeasureName, UnitDiff } from './types.js';
import { formatCount } from '../report/terminal.js';
import { escapeMarkdown } from '../report/md.js';
import { formatSigned } from './compare.js';
import { maxOf } from '../stats.js';

/** The columns of the diff table, in order; both renderings share them. */
const COLUMNS = [
  'scenario',
  'strategy',
  'tokens',
  'Δ tokens',
  'cost',
  'Δ cost',
  'answer recall',
  'Δ recall',
  'retention',
  'Δ retention',
  'crash',
  'verdict',
] as const;

type Row = Record<(typeof COLUMNS)[number], string>;

const ANSI = { bad: '\x1b[31m', good: '\x1b[32m', dim: '\x1b[2m', reset: '\x1b[0m' };

/** One line of a check's outcome: passed, or how many regressions. */
function describeOutcome(report: CheckReport): string {
  const compared = report.units.filter((u) => u.status === 'compared').length;
  const how =
    report.decision === 'estimate' ? 'point estimates (deterministic runs)' : `${Math.round(report.rules.confidence * 100)}% bootstrap interval bounds`;
  const verdict = report.regressions.length === 0 ? 'no regression' : `${report.regressions.length} regression${report.regressions.length === 1 ? '' : 's'}`;
  return `${compared} units compared on ${how}: ${verdict}`;
}

/** The diff table for a terminal, then the regressions and notes, one per line. */
export function renderCheckTerminal(report: CheckReport, options: { color: boolean }): string {
  const rows = report.units.map(toRow);
  const widths = COLUMNS.map((column) =>
    maxOf(
      rows.map((row) => row[column].length),
      column.length,
    ),
  );
  const paint = (text: string, tone: keyof typeof ANSI): string => (options.color ? `${ANSI[tone]}${text}${ANSI.reset}` : text);
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [`ctxbench check · ${describeOutcome(report)}`, '', `  ${line(COLUMNS)}`];
  for (const row of rows) {
    const text = `  ${line(COLUMNS.map((column) => row[column]))}`;
    out.push(row.verdict === 'REGRESSION' ? paint(text, 'bad') : row.verdict === 'new' ? paint(text, 'dim') : text);
  }
  if (report.regressions.length > 0) out.push('', 'Regressions:', ...report.regressions.map((r) => `  ${r.scenario} × ${r.strategy}: ${r.message}`));
  if (report.notes.length > 0) out.push('', 'Notes:', ...report.notes.map((note) => `  ${note}`));
  return `${out.join('\n')}\n`;
}

/** The same table in GitHub-flavoured Markdown, for a pull-request comment or a job summary. */
export function renderCheckMarkdown(report: CheckReport): string {
  const heading = report.regressions.length === 0 ? '## ctxbench check: passed' : '## ctxbench check: regression';
  const out = [
    heading,
    '',
    describeOutcome(report),
    '',
    `| ${COLUMNS.join(' | ')} |`,
    `|${COLUMNS.map((c, i) => (i < 2 || c === 'crash' || c === 'verdict' ? ' --- ' : ' ---: ')).join('|')}|`,
  ];
  for (const row of report.units.map(toRow)) {
    out.push(
      `| ${COLUMNS.map((column) => (column === 'verdict' && row.verdict === 'REGRESSION' ? '**regression**' : escapeMarkdown(row[column]))).join(' | ')} |`,
    );
  }
  if (report.regressions.length > 0) {
    out.push(
      '',
      '### Regressions',
      '',
      ...report.regressions.map((r) => `- **${escapeMarkdown(r.scenario)} × ${escapeMarkdown(r.strategy)}**: ${escapeMarkdown(r.message)}`),
    );
  }
  if (report.notes.length > 0) out.push('', '### Notes', '', ...report.notes.map((note) => `- ${escapeMarkdown(note)}`));
  out.push('', rulesLine(report));
  return `${out.join('\n')}\n`;
}

function rulesLine(report: CheckReport): string {
  const r = report.rules;
  return `<sub>Limits: tokens +${r.maxTokenIncrease}%, cost +${r.maxCostIncrease}%, answer recall −${r.maxRecallDrop} points, retention −${r.maxRetentionDrop} points, new crash ${r.allowNewCrash ? 'allowed' : 'not allowed'}; paired by step and probe; ${r.resamples} bootstrap resamples, seed ${r.seed}.</sub>`;
}

function toRow(unit: UnitDiff): Row {
  const measure = (name: MeasureName): MeasureDiff | undefined => unit.measures.find((m) => m.measure === name);
  const tokens = measure('tokens');
  const cost = measure('cost');
  const recall = measure('answer_recall');
  const retention = measure('retention');
  return {
    scenario: unit.scenario,
    strategy: unit.strategy,
    tokens: tokens === undefined ? '–' : `${count(tokens.baseline)} → ${count(tokens.current)}`,
    'Δ tokens': change(tokens, '%'),
    // A cost-only regression (a dearer model, a cache lost) must show beside the verdict it causes.
    cost: cost === undefined ? '–' : `${usd(cost.baseline)} → ${usd(cost.current)}`,
    'Δ cost': change(cost, '%'),
    'answer recall': recall === undefined ? '–' : `${percent(recall.baseline)} → ${percent(recall.current)}`,
    'Δ recall': change(recall, ''),
    retention: retention === undefined ? '–' : `${percent(retention.baseline)} → ${percent(retention.current)}`,
    'Δ retention': change(retention, ''),
    crash: crashText(unit),
    verdict: verdictOf(unit),
  };
}

function verdictOf(unit: UnitDiff): string {
  if (unit.status === 'missing') return 'MISSING';
  if (unit.status === 'new') return 'new';
  const crashed = unit.crash.current !== null && unit.crash.baseline === null;
  return crashed || unit.measures.some((m) => m.verdict === 'regression') ? 'REGRESSION' : 'ok';
}

function crashText(unit: UnitDiff): string {
  const { baseline, current } = unit.crash;
  if (baseline === current) return baseline ?? '–';
  return `${baseline ?? '–'} → ${current ?? '–'}`;
}

/** `+6.2% [+4.1, +8.0]`, marked ✗ when it is a regression; `–` when nothing pairs. */
function change(m: MeasureDiff | undefined, unit: string): string {
  if (m === undefined || m.change === null) return '–';
  const interval = m.interval === null ? '' : ` [${formatSigned(m.interval[0])}, ${formatSigned(m.interval[1])}]`;
  return `${formatSigned(m.change)}${unit}${interval}${m.verdict === 'regression' ? ' ✗' : ''}`;
}

function usd(n: number | null): string {
  return n === null ? '–' : `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;
}

function count(n: number | null): string {
  return n === null ? '–' : formatCount(n);
}

function percent(fraction: number | null): string {
  return fraction === null ? '–' : `${Math.round(fraction * 100)}%`;
}
