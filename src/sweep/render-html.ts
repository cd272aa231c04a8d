import type { SweepPoint, SweepResult } from './run.js';
import { embedJson, escapeHtml, inlineScript } from '../report/html-escape.js';
import { renderHtmlDocument } from '../report/html-document.js';
import { formatCount, formatDuration } from '../report/terminal.js';
import { formatUsd } from '../report/format-cost.js';
import { recommendationBlock } from '../report/recommendation-block.js';

const COLORS = { point: '#9ca3af', front: '#1f77b4', recommended: '#2ca02c', crash: '#dc2626' };

/**
 * The page's own script: builds the scatter from the JSON block, adding what JSON cannot carry
 * (tooltips that name the point). Constant, so its CSP hash is too.
 */
const PAGE_SCRIPT = `(function () {
  var config = JSON.parse(document.getElementById('sweep-data').textContent);
  config.options.plugins.tooltip = { callbacks: { label: function (item) {
    var p = item.raw;
    return p.label + ' · ' + p.spend + ' · recall ' + p.recall + ' · ' + p.crashes + ' crash(es) · ' + p.verdict;
  } } };
  new Chart(document.getElementById('sweep-chart'), config);
})();`;

/**
 * The sweep as one self-contained page: a Chart.js scatter of every point (total tokens against
 * answer recall; crashing points in red, the Pareto front joined and highlighted, the
 * recommendation marked), then the table of points. Chart.js (`chartScript`, its UMD source) and
 * the page script are inlined and allowed by hash alone; every label is escaped. Pure.
 */
export function renderSweepHtml(sweep: SweepResult, chartScript: string): string {
  const title = `ctxbench sweep · ${sweep.strategies.join(', ')} · ${sweep.points.length - 1} points`;
  const block = recommendationBlock(sweep.recommendation);
  return renderHtmlDocument({
    title,
    style: STYLE,
    scripts: [inlineScript(chartScript), PAGE_SCRIPT],
    body: [
      `<h1>${escapeHtml(title)}</h1>`,
      `<p>Scenarios: ${escapeHtml(sweep.run.scenarios.map((s) => s.name).join(', '))} · seed ${sweep.run.seed} · ${sweep.run.mode} providers${sweep.sample === null ? '' : ` · a seeded sample (seed ${sweep.sample.seed}) of ${sweep.gridSize} grid points`}.</p>`,
      `<p class="recommendation${sweep.recommendation.meetsFloor ? '' : ' not-met'}"><strong>Recommendation: ${escapeHtml(block.headline)}</strong> — ${escapeHtml(block.why)}${block.runnerUp === null ? '' : `<br>runner-up: ${escapeHtml(block.runnerUp)}`}</p>`,
      `<p>${sweep.distinct} distinct results of ${sweep.points.length} runs (full included); the front: ${sweep.frontAxis === 'cost' ? 'cost net of prompt cache' : 'total tokens'} ↓ × answer recall ↑, among points that do not crash.</p>`,
      `<div class="chart"><canvas id="sweep-chart" role="img" aria-label="${sweep.frontAxis} against answer recall for every point"></canvas></div>`,
      renderTable(sweep),
      `<script type="application/json" id="sweep-data">${embedJson(chartConfig(sweep))}</script>`,
    ],
  });
}

function chartConfig(sweep: SweepResult): Record<string, unknown> {
  const at = (point: SweepPoint) => ({
    x: spendOf(point, sweep.frontAxis),
    spend: sweep.frontAxis === 'cost' ? (formatUsd(point.score.costUsd) ?? '–') : `${formatCount(point.score.totalTokens)} tokens`,
    verdict: point.verdict,
    y: point.score.answerRecall === null ? 0 : point.score.answerRecall * 100,
    label: point.label,
    recall: point.score.answerRecall === null ? 'not measured' : `${(point.score.answerRecall * 100).toFixed(1)}%`,
    crashes: point.score.crashes,
  });
  const front = sweep.front.map((i) => sweep.points[i] as SweepPoint).sort((a, b) => spendOf(a, sweep.frontAxis) - spendOf(b, sweep.frontAxis));
  const recommended = sweep.recommended === null ? [] : [sweep.points[sweep.recommended] as SweepPoint];
  const others = sweep.points.filter((p) => !p.onFront && p.sameAs === null);
  const datasets = [
    {
      label: 'recommended',
      data: recommended.map(at),
      pointStyle: 'star',
      pointRadius: 12,
      borderColor: COLORS.recommended,
      backgroundColor: COLORS.recommended,
      borderWidth: 2,
      showLine: false,
    },
    {
      label: 'Pareto front',
      data: front.map(at),
      borderColor: COLORS.front,
      backgroundColor: COLORS.front,
      pointRadius: 5,
      showLine: true,
      borderWidth: 1.5,
      tension: 0,
    },
    {
      label: 'other points',
      data: others.filter((p) => p.score.crashes === 0).map(at),
      backgroundColor: COLORS.point,
      borderColor: COLORS.point,
      pointRadius: 3.5,
      showLine: false,
    },
    {
      label: 'points that crash',
      data: others.filter((p) => p.score.crashes > 0).map(at),
      pointStyle: 'crossRot',
      borderColor: COLORS.crash,
      backgroundColor: COLORS.crash,
      pointRadius: 5,
      borderWidth: 2,
      showLine: false,
    },
  ];
  return {
    type: 'scatter',
    data: { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { position: 'bottom' } },
      scales: {
        x: {
          type: 'linear',
          title: { display: true, text: sweep.frontAxis === 'cost' ? 'cost in USD net of prompt cache (all scenarios)' : 'total tokens (all scenarios)' },
        },
        y: { type: 'linear', min: 0, max: 100, title: { display: true, text: 'answer recall (%)' } },
      },
    },
  };
}

function spendOf(point: SweepPoint, axis: 'cost' | 'tokens'): number {
  return axis === 'cost' ? (point.score.costUsd ?? 0) : point.score.totalTokens;
}

/** Every point ranked by the objective, repeats after the point they repeat. */
function renderTable(sweep: SweepResult): string {
  const keys = [...new Set(sweep.axes.map((axis) => axis.key))];
  const head = ['rank', 'strategy', ...keys, 'cost', 'total tokens', 'answer recall', 'crashes', 'wait', 'front', 'verdict', 'reason']
    .map((title) => `<th>${escapeHtml(title)}</th>`)
    .join('');
  const order = sweep.points.map((point, i) => ({ point, i })).sort((a, b) => a.point.rank - b.point.rank || a.i - b.i);
  const rows = order.map(({ point, i }) => {
    const classes = [point.onFront ? 'front' : '', sweep.recommended === i ? 'recommended' : '', point.sameAs !== null ? 'same' : '']
      .filter((c) => c !== '')
      .join(' ');
    const cells: [string, boolean][] = [
      [String(point.rank), true],
      [escapeHtml(point.strategy), false],
      ...keys.map((key): [string, boolean] => [escapeHtml(point.values[key] === undefined ? '' : String(point.values[key])), false]),
      [formatUsd(point.score.costUsd) ?? '–', true],
      [formatCount(point.score.totalTokens), true],
      [point.score.answerRecall === null ? '–' : `${(point.score.answerRecall * 100).toFixed(1)}%`, true],
      [String(point.score.crashes), true],
      [formatDuration(point.score.waitMs), true],
      [point.onFront ? 'yes' : '', false],
      [escapeHtml(point.verdict), false],
      [escapeHtml(point.reason), false],
    ];
    return `<tr${classes === '' ? '' : ` class="${classes}"`}>${cells.map(([cell, num]) => `<td${num ? ' class="num"' : ''}>${cell}</td>`).join('')}</tr>`;
  });
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; color: #111827; margin: 24px auto; max-width: 1100px; padding: 0 16px; }
h1 { font-size: 20px; }
.chart { position: relative; height: 420px; margin: 16px 0 24px; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 4px 8px; border-bottom: 1px solid #e5e7eb; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.front td { background: #eff6ff; }
tr.recommended td { background: #dcfce7; font-weight: 600; }
tr.same td { color: #6b7280; }
.recommendation { padding: 8px 12px; background: #f0fdf4; border-left: 4px solid #2ca02c; }
.recommendation.not-met { background: #fef2f2; border-left-color: #d62728; }
`;
