import type { RunResult, SummaryRow } from '../metrics/types.js';
import { buildChart, markers, LIMIT_COLOR, type ChartDataset, type ChartSpec } from './html-chart-kit.js';
import { escapeHtml } from './html-escape.js';
import { formatPercent } from './html-summary-table.js';
import { minOf } from '../stats.js';

/** The overview and the chart its canvas names. */
export interface OverviewSection {
  html: string;
  charts: Record<string, ChartSpec>;
}

/** The id of the cross-scenario chart in the page's chart data. */
const OVERVIEW_CHART_ID = 'overview-tradeoff';

/**
 * The whole run at a glance, for runs of several scenarios: a chart of tokens saved against
 * answer recall with one point per scenario and strategy (does a strategy's trade hold across
 * scenarios?), then one row per scenario (linked to its section), one column per strategy, each
 * cell the tokens saved against `full` over the answer recall, or the crash. The table is laid out
 * to the page's width (no sideways scrolling at 1400 px with every registered strategy). `ids`
 * maps scenario names to their section ids. Empty for one scenario.
 */
export function renderOverview(result: RunResult, names: readonly string[], ids: Map<string, string>, colors: Map<string, string>): OverviewSection {
  if (names.length < 2) return { html: '', charts: {} };
  const strategies = [...new Set(result.units.map((unit) => unit.strategy))];
  const head = strategies
    .map(
      (strategy) =>
        `<th scope="col" title="${escapeHtml(strategy)}"><span class="swatch" style="background:${colors.get(strategy) ?? '#111827'}"></span>${breakAtHyphens(strategy)}</th>`,
    )
    .join('');
  const rows = names.map((name) => {
    const summaries = new Map(result.units.filter((unit) => unit.scenario === name).map((unit) => [unit.strategy, unit.summary]));
    const cells = strategies.map((strategy) => renderCell(summaries.get(strategy))).join('');
    return `<tr><th scope="row"><a href="#${ids.get(name) ?? ''}">${escapeHtml(name)}</a></th>${cells}</tr>`;
  });
  const chart = buildOverviewChart(result, strategies, colors);
  const figure =
    chart === undefined
      ? ''
      : [
          '<figure class="chart overview-chart">',
          '<figcaption><strong>Tokens saved versus answer recall, every scenario</strong>',
          `<span>${escapeHtml(`One point per scenario and strategy, in the strategy’s colour: up and to the right is better; a strategy whose points spread far apart trades differently from one scenario to the next. ✕ crashed.${chart.note === undefined ? '' : ` ${chart.note}`}`)}</span></figcaption>`,
          `<div class="canvas-box"><canvas data-chart="${OVERVIEW_CHART_ID}" role="img" aria-label="Tokens saved versus answer recall, every scenario"></canvas></div>`,
          '</figure>',
        ].join('\n');
  const html = [
    '<section class="overview">',
    '<h2>Overview</h2>',
    figure,
    '<p class="note">Each cell: tokens saved against <code>full</code> over the answer recall. Red: the strategy crashed (kind @ step). Click a scenario for its charts.</p>',
    '<table class="overview-table">',
    `<thead><tr><th scope="col">scenario</th>${head}</tr></thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table>',
    '</section>',
  ].filter((part) => part !== '');
  return { html: html.join('\n'), charts: chart === undefined ? {} : { [OVERVIEW_CHART_ID]: chart } };
}

/**
 * Tokens saved against `full` (x) and answer recall (y), one dataset per strategy with a point
 * per scenario where both were measured; crashed units as red crosses. Undefined when no unit has
 * both (no probes, or no `full` to save against).
 */
function buildOverviewChart(result: RunResult, strategies: readonly string[], colors: Map<string, string>): ChartSpec | undefined {
  const placed = result.units.filter((unit) => unit.summary.saving_vs_full !== null && unit.summary.answer_recall !== null);
  if (placed.length === 0) return undefined;
  const point = (summary: SummaryRow, scenario: string) => ({
    x: summary.saving_vs_full ?? 0,
    y: summary.answer_recall ?? 0,
    label: `${scenario} · ${summary.strategy}: saved ${formatPercent(summary.saving_vs_full)}, recall ${formatPercent(summary.answer_recall)}${summary.crashed ? ' (crashed)' : ''}`,
  });
  const datasets: ChartDataset[] = strategies.flatMap((strategy) => {
    const color = colors.get(strategy) ?? '#111827';
    const points = placed
      .filter((unit) => unit.strategy === strategy && !unit.summary.crashed)
      .map((unit) => ({ ...point(unit.summary, unit.scenario), color }));
    return points.length === 0 ? [] : [{ ...markers(strategy, 'circle', points, 5), backgroundColor: color, borderColor: color }];
  });
  const crashed = placed.filter((unit) => unit.summary.crashed).map((unit) => ({ ...point(unit.summary, unit.scenario), color: LIMIT_COLOR }));
  if (crashed.length > 0) datasets.push(markers('crashed', 'crossRot', crashed, 6));
  const xs = placed.map((unit) => unit.summary.saving_vs_full ?? 0);
  const spec = buildChart('line', datasets, {
    x: { title: 'tokens saved against full', format: 'percent' },
    y: { title: 'answer recall', format: 'percent', max: 1 },
  });
  // Savings can be negative (a strategy that costs more than full): the axis then starts below 0.
  const scales = spec.config.options.scales as { x: Record<string, unknown> };
  scales.x.min = minOf(xs, 0);
  return spec;
}

function renderCell(row: SummaryRow | undefined): string {
  if (row === undefined) return '<td class="dim">–</td>';
  if (row.crashed) {
    const what = `${row.crash_kind ?? 'crash'} at step ${row.crash_step ?? '?'}`;
    return `<td class="crash-cell" title="${escapeHtml(what)}">✗ ${escapeHtml(row.crash_kind ?? 'crash')}<br>@${row.crash_step ?? '?'}</td>`;
  }
  return `<td class="num" title="saved ${formatPercent(row.saving_vs_full)} · recall ${formatPercent(row.answer_recall)}">${formatPercent(row.saving_vs_full)}<br>${formatPercent(row.answer_recall)}</td>`;
}

/** A strategy name that may wrap after its hyphens (`anthropic-<wbr>context-<wbr>editing`): narrow columns, whole words. */
function breakAtHyphens(name: string): string {
  return escapeHtml(name).replace(/-/g, '-<wbr>');
}
