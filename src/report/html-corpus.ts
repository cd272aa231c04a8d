import type { LogSummary, SummaryRow, UnitResult } from '../metrics/types.js';
import { quantile } from '../stats.js';
import { buildChart, type ChartDataset, type ChartSpec } from './html-chart-kit.js';
import { embedJson, escapeHtml } from './html-escape.js';
import { crashReasons } from './html-crash.js';

/**
 * A corpus (a scenario of more logs than `CORPUS_LOGS`) in aggregate: how each strategy's per-log
 * figures spread over the logs (10th–90th percentile bars, the median marked), and a drill-down to
 * any one log generated in the page from compact data — no per-step chart of 500 logs, no table of
 * 100,000 events. `id` prefixes chart and element ids (generated, never taken from the input).
 */
export function renderCorpusViews(id: string, units: readonly UnitResult[], colors: Map<string, string>): { html: string; charts: Record<string, ChartSpec> } {
  const charts: Record<string, ChartSpec> = {};
  const logCount = units[0]?.logs?.length ?? 0;
  const full = units.find((unit) => unit.strategy === 'full');
  const saving = spreadChart(units, colors, (log, i) => savedAgainst(log, full?.logs?.[i]), { title: 'tokens saved against full, per log', format: 'percent' });
  const recall = spreadChart(units, colors, (log) => (log.summary.crashed ? null : log.summary.answer_recall), {
    title: 'answer recall, per log',
    format: 'percent',
    max: 1,
  });
  if (saving !== undefined) charts[`${id}-spread-saving`] = saving;
  if (recall !== undefined) charts[`${id}-spread-recall`] = recall;
  const figures = [
    figure(
      `${id}-spread-saving`,
      'Tokens saved per log',
      'Each bar spans the 10th to the 90th percentile of the strategy’s per-log saving against full; the line is the median. Logs where either crashed are left out.',
      saving,
    ),
    figure(`${id}-spread-recall`, 'Answer recall per log', 'The 10th to the 90th percentile over the logs that did not crash; the line is the median.', recall),
  ];
  const html = [
    `<p class="note">A corpus of ${logCount} logs: the figures above are over every log; below, how they spread from log to log, and any one log in detail.</p>`,
    `<div class="charts">\n${figures.join('\n')}\n</div>`,
    '<h3>One log</h3>',
    `<p class="drill"><label for="${id}-log">Log </label><select id="${id}-log" data-drill="${id}">${logOptions(units)}</select></p>`,
    '<div class="table-wrap"><table class="summary drill-table">',
    '<thead><tr><th scope="col">strategy</th><th scope="col">done</th><th scope="col">total</th><th scope="col">saved vs full</th><th scope="col">cost</th><th scope="col">recall</th><th scope="col">crash</th></tr></thead>',
    `<tbody id="${id}-log-rows"></tbody>`,
    '</table></div>',
    `<script type="application/json" id="${id}-log-data">${embedJson(drillData(units, colors))}</script>`,
    '<h3>Crashes</h3>',
    renderCrashList(units),
  ];
  return { html: html.join('\n'), charts };
}

function figure(chartId: string, title: string, caption: string, spec: ChartSpec | undefined): string {
  const body =
    spec === undefined
      ? '<p class="no-data">not measured in this corpus</p>'
      : `<div class="canvas-box"><canvas data-chart="${chartId}" role="img" aria-label="${escapeHtml(title)}"></canvas></div>`;
  return `<figure class="chart"><figcaption><strong>${escapeHtml(title)}</strong><span>${escapeHtml(caption)}</span></figcaption>${body}</figure>`;
}

/** 1 − the log's tokens over full's on the same log; null when either crashed there (unpaired) or full spent nothing. */
function savedAgainst(log: LogSummary, full: LogSummary | undefined): number | null {
  if (full === undefined || log.summary.crashed || full.summary.crashed || full.summary.total_tokens === 0) return null;
  return 1 - log.summary.total_tokens / full.summary.total_tokens;
}

/**
 * One floating bar per strategy from the 10th to the 90th percentile of `value` over its logs,
 * with the median as a line across it. Undefined when no strategy has a value.
 */
function spreadChart(
  units: readonly UnitResult[],
  colors: Map<string, string>,
  value: (log: LogSummary, index: number) => number | null,
  axis: { title: string; format: 'percent'; max?: number },
): ChartSpec | undefined {
  const rows = units.map((unit) => {
    const values = (unit.logs ?? []).map(value).filter((v): v is number => v !== null);
    return { unit, values, low: quantile(values, 0.1), mid: quantile(values, 0.5), high: quantile(values, 0.9) };
  });
  const shown = rows.filter((row) => row.values.length > 0);
  if (shown.length === 0) return undefined;
  const pct = (v: number) => `${Math.round(v * 100)}%`;
  const bars: ChartDataset = {
    label: 'p10–p90',
    data: [],
    backgroundColor: shown.map((row) => `${colors.get(row.unit.strategy) ?? '#111827'}99`),
    borderColor: shown.map((row) => colors.get(row.unit.strategy) ?? '#111827'),
    borderWidth: 1,
    tips: shown.map((row) => `${row.unit.strategy}: ${pct(row.low)}–${pct(row.high)}, median ${pct(row.mid)} over ${row.values.length} logs`),
  };
  // Floating bars: Chart.js reads a [from, to] pair as a bar between them.
  (bars as { data: unknown[] }).data = shown.map((row) => [row.low, row.high]);
  const medians: ChartDataset = {
    type: 'line',
    label: 'median',
    data: shown.map((row) => row.mid),
    showLine: false,
    pointStyle: 'line',
    pointRadius: 14,
    pointBorderWidth: 3,
    borderColor: '#111827',
    backgroundColor: '#111827',
    hideInLegend: true,
    tips: shown.map((row) => `${row.unit.strategy}: median ${pct(row.mid)}`),
  };
  const spec = buildChart(
    'bar',
    [medians, bars],
    {
      x: { title: 'strategy', format: 'label', category: true },
      y: { title: axis.title, format: axis.format, ...(axis.max !== undefined ? { max: axis.max } : {}) },
    },
    shown.map((row) => row.unit.strategy),
  );
  // Savings can be negative (dearer than full): let the axis follow the data below 0.
  const scales = spec.config.options.scales as { y: Record<string, unknown> };
  if (shown.some((row) => row.low < 0)) delete scales.y.min;
  return spec;
}

function logOptions(units: readonly UnitResult[]): string {
  const logs = units[0]?.logs ?? [];
  return logs.map((log, i) => `<option value="${i}">${escapeHtml(`${i + 1}. ${log.id}`)}</option>`).join('');
}

/**
 * What the page's script needs to show one log: per log its id, path and steps; per log and
 * strategy `[steps done, total tokens, saving vs full or null, cost or null, recall or null,
 * crash or null]`. Arrays, not objects: 500 logs × 21 strategies stay a few hundred kilobytes.
 */
function drillData(units: readonly UnitResult[], colors: Map<string, string>) {
  const logs = units[0]?.logs ?? [];
  const full = units.find((unit) => unit.strategy === 'full');
  return {
    strategies: units.map((unit) => [unit.strategy, colors.get(unit.strategy) ?? '#111827']),
    logs: logs.map((log) => [log.id, log.transcript, log.summary.steps]),
    cells: logs.map((_, i) =>
      units.map((unit) => {
        const log = unit.logs?.[i];
        if (log === undefined) return null;
        const s: SummaryRow = log.summary;
        const saved = savedAgainst(log, full?.logs?.[i]);
        return [
          s.steps_completed,
          s.total_tokens,
          saved === null ? null : round(saved),
          s.cost_usd === null ? null : round(s.cost_usd),
          s.answer_recall === null ? null : round(s.answer_recall),
          s.crashed ? `${s.crash_kind ?? 'crash'} at step ${s.crash_step ?? '?'}` : null,
        ];
      }),
    ),
  };
}

const round = (value: number): number => Number(value.toFixed(4));

/** Per strategy that crashed on any log: on how many, and why, in the words of its crash events. */
function renderCrashList(units: readonly UnitResult[]): string {
  const items = units.flatMap((unit) => {
    const crashed = unit.summary.crashed_logs ?? 0;
    if (crashed === 0) return [];
    const reasons = crashReasons(unit)
      .map(({ text, count }) => `${escapeHtml(text)}${count > 1 ? ` <span class="dim">(× ${count})</span>` : ''}`)
      .join('; ');
    return [`<li><strong>${escapeHtml(unit.strategy)}</strong> crashed on ${crashed} of ${unit.logs?.length ?? 0} logs: ${reasons}</li>`];
  });
  return items.length === 0 ? '<p class="dim">No strategy crashed on any log.</p>' : `<ul class="crash-list">\n${items.join('\n')}\n</ul>`;
}
