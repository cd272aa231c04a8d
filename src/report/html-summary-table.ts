import type { SummaryRow, UnitResult } from '../metrics/types.js';
import { crashReasons } from './html-crash.js';
import { escapeHtml } from './html-escape.js';
import { formatCount, formatDuration } from './terminal.js';
import { formatCostCell } from './format-cost.js';
import { maxOf, minOf } from '../stats.js';

/** Which end of a column is better; `none` for figures that are neither (compactions, probes). */
type Better = 'lower' | 'higher' | 'none';

interface Column {
  title: string;
  /** What the header's tooltip explains. */
  hint: string;
  better: Better;
  /** The value sorted on and compared; `null` sorts last and is never best. */
  value(row: SummaryRow): number | null;
  text(row: SummaryRow): string;
}

const COLUMNS: Column[] = [
  { title: 'done', hint: 'steps completed of the session', better: 'higher', value: (r) => r.steps_completed, text: (r) => `${r.steps_completed}/${r.steps}` },
  ratio('recall', 'share of the probe answers given that were correct (unanswered ones left out)', 'higher', (r) => r.answer_recall),
  {
    title: 'cost',
    hint: 'USD net of the prompt cache, own calls included; the change against full (positive: dearer)',
    better: 'lower',
    value: (r) => r.cost_usd,
    text: (r) => formatCostCell(r.cost_usd, r.cost_vs_full) ?? '–',
  },
  ratio('saving', 'tokens saved against the full baseline (negative: more tokens than full)', 'higher', (r) => r.saving_vs_full),
  count('total', 'prompt + completion + overhead tokens', 'lower', (r) => r.total_tokens),
  count('peak ctx', 'largest context sent', 'lower', (r) => r.peak_context_tokens),
  count('mean ctx', 'mean context sent', 'lower', (r) => r.mean_context_tokens),
  count('prompt', 'prompt tokens of the steps', 'lower', (r) => r.prompt_tokens),
  count('completion', 'completion tokens of the steps', 'lower', (r) => r.completion_tokens),
  count('overhead', "tokens of the strategy's own calls (summaries, recaps)", 'lower', (r) => r.overhead_tokens),
  count('fetched', 'tool output the agent had to fetch back because the strategy cut it (in prompt)', 'lower', (r) => r.retrieval_tokens),
  ratio('cached', 'share of the prompt served from the provider’s prompt cache (src/cache/)', 'higher', (r) => r.cached_prefix_share),
  ratio('retention', 'share of probe evidence still in the context', 'higher', (r) => r.retention),
  { title: '429s', hint: 'rate-limit refusals', better: 'lower', value: (r) => r.rate_limit_hits, text: (r) => String(r.rate_limit_hits) },
  { title: 'wait', hint: 'virtual time spent waiting for quota', better: 'lower', value: (r) => r.wait_ms, text: (r) => formatDuration(r.wait_ms) },
  { title: 'compactions', hint: 'compactions the strategy made', better: 'none', value: (r) => r.compactions, text: (r) => String(r.compactions) },
  {
    title: 'unanswered',
    hint: 'probe ask points never reached: the session crashed (or ended) first',
    better: 'lower',
    value: (r) => r.unanswered,
    text: (r) => (r.unanswered === null ? '–' : String(r.unanswered)),
  },
  { title: 'probes', hint: 'probe answers graded', better: 'none', value: (r) => r.probes, text: (r) => (r.probes === null ? '–' : String(r.probes)) },
];

/** Beside recall, only when the reader's context-length effect was on: recall under it, apart from `recall`. */
const ROT_COLUMN = ratio(
  'recall (rot)',
  "answer recall when the reader's retrieval falls with the context's length (reader.contextRot, calibrated on NoLiMa / RULER); the recommendation uses recall",
  'higher',
  (r) => r.answer_recall_rot ?? null,
);

/** Beside recall, when needed facts were measured: the share of the session's needed uses the context held (docs/probes.md). */
const NEEDED_COLUMN = ratio(
  'needed',
  'needed recall: share of the facts the session went on to use that the context sent held at the step of use (verbatim or in a summary the strategy wrote); needed.csv lists each use',
  'higher',
  (r) => r.needed_recall,
);

/** The columns of a table of these rows. */
function columnsOf(rows: readonly SummaryRow[]): Column[] {
  const beside = [
    ...(rows.some((row) => row.answer_recall_rot !== undefined) ? [ROT_COLUMN] : []),
    ...(rows.some((row) => row.needed_facts !== null) ? [NEEDED_COLUMN] : []),
  ];
  return COLUMNS.flatMap((column) => (column.title === 'recall' ? [column, ...beside] : [column]));
}

/**
 * The summary table of one scenario: strategies as rows, sortable by a click on a header (the
 * page's script reads `data-sort`), the best value of each column marked, crashed rows flagged.
 * Only strategies that finished compete for "best" (a crash makes any total look small), unless
 * every strategy crashed.
 */
export function renderSummaryTable(units: readonly UnitResult[], colors: Map<string, string>): string {
  const rows = units.map((unit) => unit.summary);
  const contenders = rows.some((row) => !row.crashed) ? rows.filter((row) => !row.crashed) : rows;
  const columns = columnsOf(rows);
  const best = columns.map((column) => bestValue(column, contenders));
  const head = [
    '<th scope="col" data-type="text">strategy</th>',
    ...columns.map((column) => `<th scope="col" title="${escapeHtml(column.hint)}">${escapeHtml(column.title)}</th>`),
    '<th scope="col" title="why the strategy crashed, in the words of its crash event" class="crash-col">crash</th>',
  ].join('');
  const body = units.map((unit) => renderRow(unit, columns, best, contenders.includes(unit.summary), colors.get(unit.strategy) ?? '#111827')).join('\n');
  return [
    '<div class="table-wrap"><table class="summary sortable">',
    `<thead><tr>${head}</tr></thead>`,
    `<tbody>\n${body}\n</tbody>`,
    '</table></div>',
    '<p class="note">Click a header to sort. <span class="best-key">Bold green</span>: best value of the column among strategies that did not crash.</p>',
  ].join('\n');
}

function renderRow(unit: UnitResult, columns: readonly Column[], best: (number | null)[], competes: boolean, color: string): string {
  const row = unit.summary;
  const crash = row.crashed ? `<td data-sort="1" class="crash-col">${renderCrash(unit)}</td>` : '<td data-sort="0" class="dim crash-col">–</td>';
  const cells = columns.map((column, i) => {
    const value = column.value(row);
    const isBest = competes && value !== null && value === best[i];
    // Four decimals, as in summary.csv, so a re-render from result.json gives the same page.
    const exact = value === null ? '' : String(Number(value.toFixed(4)));
    return `<td class="num${isBest ? ' best' : ''}" data-sort="${exact}" title="${value === null ? 'not measured' : exact}">${escapeHtml(column.text(row))}</td>`;
  });
  const name = `<th scope="row" data-sort="${escapeHtml(row.strategy)}"><span class="swatch" style="background:${color}"></span>${escapeHtml(row.strategy)}</th>`;
  return `<tr${row.crashed ? ' class="crashed"' : ''}>${name}${cells.join('')}${crash}</tr>`;
}

/** The crash in words: its kind and step as a badge, then the crash event's message (for a corpus, on how many logs). */
function renderCrash(unit: UnitResult): string {
  const { summary } = unit;
  const badge = `<span class="badge bad">${escapeHtml(summary.crash_kind ?? 'crash')} @ step ${summary.crash_step ?? '?'}</span>`;
  const onLogs = summary.logs !== null && summary.crashed_logs !== null ? ` on ${summary.crashed_logs} of ${summary.logs} logs` : '';
  const reasons = crashReasons(unit);
  const words =
    reasons.length === 0
      ? ''
      : ` ${escapeHtml((reasons[0] as { text: string }).text)}${reasons.length > 1 ? ` <span class="dim">(+${reasons.length - 1} other reasons)</span>` : ''}`;
  return `${badge}${escapeHtml(onLogs)}${words}`;
}

/** The best value of a column, or `null` when nothing is better than anything else there. */
function bestValue(column: Column, rows: readonly SummaryRow[]): number | null {
  if (column.better === 'none') return null;
  const values = rows.map(column.value).filter((value): value is number => value !== null);
  if (values.length < 2 || values.every((value) => value === values[0])) return null;
  return column.better === 'lower' ? minOf(values) : maxOf(values);
}

function count(title: string, hint: string, better: Better, value: (row: SummaryRow) => number): Column {
  return { title, hint, better, value, text: (row) => formatCount(value(row)) };
}

function ratio(title: string, hint: string, better: Better, value: (row: SummaryRow) => number | null): Column {
  return { title, hint, better, value, text: (row) => formatPercent(value(row)) };
}

/** 0.3319 → 33%; not measured → an en dash. */
export function formatPercent(fraction: number | null): string {
  return fraction === null ? '–' : `${Math.round(fraction * 100)}%`;
}
