import type { RunResult, ScenarioInfo, SummaryRow } from '../metrics/types.js';
import { STRESS_LABEL } from './notes.js';
import { formatUsd } from './format-cost.js';
import { maxOf } from '../stats.js';
import { strategyCrashReasons } from '../metrics/crash-reasons.js';

export interface TerminalOptions {
  /** ANSI colours; the caller decides (NO_COLOR, not a TTY). */
  color: boolean;
  /** Terminal width; strategy names are shortened to fit. Defaults to 100. */
  width?: number;
}

type Align = 'left' | 'right';
type Tone = 'plain' | 'bad' | 'good' | 'dim';

interface Cell {
  text: string;
  tone: Tone;
}

interface Column {
  title: string;
  align: Align;
  cell(row: SummaryRow): Cell;
}

const ANSI: Record<Tone | 'bold', string> = { plain: '', bad: '\x1b[31m', good: '\x1b[32m', dim: '\x1b[2m', bold: '\x1b[1m' };
const RESET = '\x1b[0m';
const GAP = '  ';
const INDENT = '  ';
const MIN_STRATEGY_WIDTH = 8;

const COLUMNS: Column[] = [
  { title: 'strategy', align: 'left', cell: (r) => plain(r.strategy) },
  { title: 'done', align: 'right', cell: (r) => ({ text: `${r.steps_completed}/${r.steps}`, tone: r.steps_completed === r.steps ? 'good' : 'plain' }) },
  { title: 'crash', align: 'left', cell: (r) => (r.crashed ? { text: crashText(r), tone: 'bad' } : dim('-')) },
  { title: 'total', align: 'right', cell: (r) => plain(formatCount(r.total_tokens)) },
  { title: 'peak', align: 'right', cell: (r) => plain(formatCount(r.peak_context_tokens)) },
  { title: 'saved', align: 'right', cell: (r) => percent(r.saving_vs_full) },
  // Dollars net of prompt cache, and the change against full: a token saving can cost more.
  { title: 'cost', align: 'right', cell: (r) => costCell(r.cost_usd, r.cost_vs_full) },
  { title: '429s', align: 'right', cell: (r) => plain(String(r.rate_limit_hits)) },
  { title: 'wait', align: 'right', cell: (r) => plain(formatDuration(r.wait_ms)) },
  { title: 'compact', align: 'right', cell: (r) => plain(String(r.compactions)) },
  { title: 'retain', align: 'right', cell: (r) => percent(r.retention) },
  { title: 'recall', align: 'right', cell: (r) => percent(r.answer_recall) },
  // Ask points a crash (or the session's end) came before: apart from recall, which is over answers.
  {
    title: 'unasked',
    align: 'right',
    cell: (r) => (r.unanswered === null ? dim('-') : r.unanswered > 0 ? { text: String(r.unanswered), tone: 'bad' } : plain('0')),
  },
];

/** After recall, only when the reader's context-length effect was on: recall under it, apart. */
const ROT_COLUMN: Column = { title: 'rot', align: 'right', cell: (r) => percent(r.answer_recall_rot ?? null) };

/** After recall, when needed facts were measured: the share of needed uses the context held (docs/probes.md). */
const NEEDED_COLUMN: Column = { title: 'needed', align: 'right', cell: (r) => percent(r.needed_recall) };

/** The columns beside recall that some row measured: recall under context rot, needed recall. */
function besideRecall(rows: readonly SummaryRow[]): Column[] {
  return [
    ...(rows.some((row) => row.answer_recall_rot !== undefined) ? [ROT_COLUMN] : []),
    ...(rows.some((row) => row.needed_facts !== null) ? [NEEDED_COLUMN] : []),
  ];
}

/**
 * A compact table per scenario for the end of a run: one row per strategy, aligned, readable in
 * 100 columns. Pure: the CLI prints it.
 */
export function renderTerminalTable(result: RunResult, options: TerminalOptions): string {
  const blocks = scenarioNames(result).map((name) => {
    const rows = result.units.filter((unit) => unit.scenario === name).map((unit) => unit.summary);
    const info = result.scenarios.find((scenario) => scenario.name === name);
    const reasons = strategyCrashReasons(result.units.filter((unit) => unit.scenario === name));
    // A strategy's failure is explained in words under its table, not only as `strategy@4`.
    const lines = reasons.map((reason) => `${INDENT}${reason.strategy} crashed: ${reason.text}\n`).join('');
    return renderScenario(name, info, rows, options) + lines;
  });
  return blocks.join('\n');
}

function scenarioNames(result: RunResult): string[] {
  const names = result.scenarios.map((scenario) => scenario.name);
  for (const unit of result.units) if (!names.includes(unit.scenario)) names.push(unit.scenario);
  return names;
}

function renderScenario(name: string, info: ScenarioInfo | undefined, rows: SummaryRow[], options: TerminalOptions): string {
  const paint = (text: string, tone: Tone | 'bold'): string => (options.color && tone !== 'plain' ? `${ANSI[tone]}${text}${RESET}` : text);
  // The cost column only when the model is priced: a column of dashes would only cost width.
  const priced = rows.some((row) => row.cost_usd !== null) ? COLUMNS : COLUMNS.filter((column) => column.title !== 'cost');
  const beside = besideRecall(rows);
  const columns = priced.flatMap((c) => (c.title === 'recall' ? [c, ...beside] : [c]));
  const header = columns.map((column) => plain(column.title));
  const body = rows.map((row) => columns.map((column) => column.cell(row)));
  const widths = fitWidths(columnWidths([header, ...body], columns.length), options.width ?? 100);
  const line = (cells: Cell[], bold: boolean): string =>
    INDENT +
    cells
      .map((cell, i) => {
        const text = pad(shorten(cell.text, widths[i] ?? 0), widths[i] ?? 0, columns[i]?.align ?? 'left');
        return paint(text, bold ? 'bold' : cell.tone);
      })
      .join(GAP)
      .trimEnd();
  const title = paint(name, 'bold') + (info === undefined ? '' : `  ${describeScenario(info)}`);
  const table = rows.length === 0 ? [`${INDENT}(no strategies ran)`] : [line(header, true), ...body.map((cells) => line(cells, false))];
  return `${[title, ...table].join('\n')}\n`;
}

function describeScenario(info: ScenarioInfo): string {
  const parts = [`${info.provider} ${info.model}`, `window ${formatCount(info.window)}`];
  if (info.stress === true) parts.unshift(STRESS_LABEL);
  if (info.tpm !== undefined && info.tpm > 0) parts.push(`tpm ${formatCount(info.tpm)}`);
  parts.push(`${info.steps} steps`, `seed ${info.seed}`);
  if (info.promptCache !== undefined) parts.push(`cache ${info.promptCache}`);
  if (info.contextRot !== undefined) parts.push(`reader rot ${info.contextRot.name}`);
  return parts.join(' · ');
}

function columnWidths(table: Cell[][], count: number): number[] {
  return Array.from({ length: count }, (_, i) =>
    maxOf(
      table.map((cells) => cells[i]?.text.length ?? 0),
      0,
    ),
  );
}

/** Shrinks the strategy column (the only free-text one) so that a line fits in `width`. */
function fitWidths(widths: number[], width: number): number[] {
  const total = INDENT.length + widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1);
  const strategy = widths[0] ?? 0;
  const overflow = total - width;
  if (overflow <= 0 || strategy <= MIN_STRATEGY_WIDTH) return widths;
  return [Math.max(MIN_STRATEGY_WIDTH, strategy - overflow), ...widths.slice(1)];
}

function shorten(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

function pad(text: string, width: number, align: Align): string {
  return align === 'left' ? text.padEnd(width) : text.padStart(width);
}

function plain(text: string): Cell {
  return { text, tone: 'plain' };
}

function dim(text: string): Cell {
  return { text, tone: 'dim' };
}

/** Dollars only (the terminal has 100 columns); red when dearer than `full` (Markdown and HTML give the change). */
function costCell(usd: number | null, vsFull: number | null): Cell {
  const text = formatUsd(usd);
  if (text === null) return dim('-');
  return vsFull !== null && vsFull > 0.005 ? { text, tone: 'bad' } : plain(text);
}

function percent(fraction: number | null): Cell {
  return fraction === null ? dim('-') : plain(`${Math.round(fraction * 100)}%`);
}

/** 950 · 12.3k · 250k · 4.56M: token counts at a glance. */
export function formatCount(n: number): string {
  if (Math.abs(n) < 10_000) return String(Math.round(n));
  // 999,950 and up would print as 1000.0k: switch to millions there.
  if (Math.abs(n) < 999_950) return `${Number((n / 1000).toFixed(1))}k`;
  return `${Number((n / 1_000_000).toFixed(2))}M`;
}

/** 0 · 850ms · 12.3s · 4.2m · 1.5h: virtual waiting time at a glance. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)}m`;
  return `${(ms / 3_600_000).toFixed(1)}h`;
}

/** Kind and step of the crash; over several logs, kind and how many of them crashed. */
function crashText(row: SummaryRow): string {
  if (row.logs !== null) return `${row.crash_kind ?? '?'} ${row.crashed_logs ?? '?'}/${row.logs}`;
  return `${row.crash_kind ?? '?'}@${row.crash_step ?? '?'}`;
}
