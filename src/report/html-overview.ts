import type { RunResult, SummaryRow } from '../metrics/types.js';
import { escapeHtml } from './html-escape.js';
import { formatPercent } from './html-summary-table.js';

/**
 * The whole run at a glance, for runs of several scenarios: one row per scenario (linked to its
 * section), one column per strategy, each cell the tokens saved against `full` and the answer
 * recall, or the crash. `ids` maps scenario names to their section ids. Empty for one scenario.
 */
export function renderOverview(result: RunResult, names: readonly string[], ids: Map<string, string>, colors: Map<string, string>): string {
  if (names.length < 2) return '';
  const strategies = [...new Set(result.units.map((unit) => unit.strategy))];
  const head = strategies
    .map((strategy) => `<th scope="col"><span class="swatch" style="background:${colors.get(strategy) ?? '#111827'}"></span>${escapeHtml(strategy)}</th>`)
    .join('');
  const rows = names.map((name) => {
    const summaries = new Map(result.units.filter((unit) => unit.scenario === name).map((unit) => [unit.strategy, unit.summary]));
    const cells = strategies.map((strategy) => renderCell(summaries.get(strategy))).join('');
    return `<tr><th scope="row"><a href="#${ids.get(name) ?? ''}">${escapeHtml(name)}</a></th>${cells}</tr>`;
  });
  return [
    '<section class="overview">',
    '<h2>Overview</h2>',
    '<p class="note">Each cell: tokens saved against <code>full</code> · answer recall. Red: the strategy crashed (kind @ step). Click a scenario for its charts.</p>',
    '<div class="table-wrap"><table class="overview-table">',
    `<thead><tr><th scope="col">scenario</th>${head}</tr></thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table></div>',
    '</section>',
  ].join('\n');
}

function renderCell(row: SummaryRow | undefined): string {
  if (row === undefined) return '<td class="dim">–</td>';
  if (row.crashed) {
    const what = `${row.crash_kind ?? 'crash'} at step ${row.crash_step ?? '?'}`;
    return `<td class="crash-cell" title="${escapeHtml(what)}">✗ ${escapeHtml(row.crash_kind ?? 'crash')} @${row.crash_step ?? '?'}</td>`;
  }
  return `<td class="num">${formatPercent(row.saving_vs_full)} · ${formatPercent(row.answer_recall)}</td>`;
}
