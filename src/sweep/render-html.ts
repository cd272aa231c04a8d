import type { SweepPoint, SweepResult } from './run.js';
import { embedJson, escapeHtml, inlineScript } from '../report/html-escape.js';
import { renderHtmlDocument } from '../report/html-document.js';
import { formatCount, formatDuration } from '../report/terminal.js';

const COLORS = { point: '#9ca3af', front: '#1f77b4', recommended: '#2ca02c', crash: '#dc2626' };

/**
 * The page's own script: builds the scatter from the JSON block, adding what JSON cannot carry
 * (tooltips that name the point). Constant, so its CSP hash is too.
 */
const PAGE_SCRIPT = `(function () {
  var config = JSON.parse(document.getElementById('sweep-data').textContent);
  config.options.plugins.tooltip = { callbacks: { label: function (item) {
    var p = item.raw;
    return p.label + ' · ' + Math.round(p.x).toLocaleString('en') + ' tokens · recall ' + p.recall + ' · ' + p.crashes + ' crash(es)';
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
  const title = `ctxbench sweep · ${sweep.strategy} · ${sweep.points.length} points`;
  const recommended = sweep.recommendation.position === null ? undefined : sweep.points[sweep.recommendation.position];
  return renderHtmlDocument({
    title,
    style: STYLE,
    scripts: [inlineScript(chartScript), PAGE_SCRIPT],
    body: [
      `<h1>${escapeHtml(title)}</h1>`,
      `<p>Scenarios: ${escapeHtml(sweep.run.scenarios.map((s) => s.name).join(', '))} · seed ${sweep.run.seed} · ${sweep.run.mode} providers${sweep.sample === null ? '' : ` · a seeded sample (seed ${sweep.sample.seed}) of ${sweep.gridSize} grid points`}.</p>`,
      `<p class="recommendation"><strong>Recommendation:</strong> ${escapeHtml(recommended?.label ?? 'none')}: ${escapeHtml(sweep.recommendation.reason)}</p>`,
      '<div class="chart"><canvas id="sweep-chart" role="img" aria-label="total tokens against answer recall for every point"></canvas></div>',
      renderTable(sweep),
      `<script type="application/json" id="sweep-data">${embedJson(chartConfig(sweep))}</script>`,
    ],
  });
}

function chartConfig(sweep: SweepResult): Record<string, unknown> {
  const at = (point: SweepPoint) => ({
    x: point.score.totalTokens,
    y: point.score.answerRecall === null ? 0 : point.score.answerRecall * 100,
    label: point.label,
    recall: point.score.answerRecall === null ? 'not measured' : `${(point.score.answerRecall * 100).toFixed(1)}%`,
    crashes: point.score.crashes,
  });
  const front = sweep.front.map((i) => sweep.points[i] as SweepPoint).sort((a, b) => a.score.totalTokens - b.score.totalTokens);
  const recommended = sweep.recommendation.position === null ? [] : [sweep.points[sweep.recommendation.position] as SweepPoint];
  const others = sweep.points.filter((p) => !p.onFront);
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
        x: { type: 'linear', title: { display: true, text: 'total tokens (all scenarios)' } },
        y: { type: 'linear', min: 0, max: 100, title: { display: true, text: 'answer recall (%)' } },
      },
    },
  };
}

function renderTable(sweep: SweepResult): string {
  const keys = sweep.axes.map((axis) => axis.key);
  const head = [...keys, 'total tokens', 'answer recall', 'crashes', 'wait', 'front'].map((title) => `<th>${escapeHtml(title)}</th>`).join('');
  const rows = sweep.points.map((point, i) => {
    const classes = [point.onFront ? 'front' : '', sweep.recommendation.position === i ? 'recommended' : ''].filter((c) => c !== '').join(' ');
    const cells = [
      ...keys.map((key) => escapeHtml(String(point.values[key]))),
      formatCount(point.score.totalTokens),
      point.score.answerRecall === null ? '–' : `${(point.score.answerRecall * 100).toFixed(1)}%`,
      String(point.score.crashes),
      formatDuration(point.score.waitMs),
      point.onFront ? 'yes' : '',
    ];
    return `<tr${classes === '' ? '' : ` class="${classes}"`}>${cells.map((cell, c) => `<td${c >= keys.length ? ' class="num"' : ''}>${cell}</td>`).join('')}</tr>`;
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
.recommendation { padding: 8px 12px; background: #f0fdf4; border-left: 4px solid #2ca02c; }
`;
