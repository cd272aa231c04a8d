import { stringify } from 'csv-stringify/sync';
import type { ReportFile } from '../report/types.js';
import type { SweepPoint, SweepResult } from './run.js';
import { formatCount, formatDuration } from '../report/terminal.js';
import { renderSweepHtml } from './render-html.js';
import { formatUsd } from '../report/format-cost.js';

/** `sweep.json`, `sweep.csv` and `sweep.html`: the points, the front and the recommendation. */
export function renderSweepFiles(sweep: SweepResult, chartScript: string): ReportFile[] {
  return [
    { file: 'sweep.json', contents: `${JSON.stringify(sweepJson(sweep), roundFractions, 2)}\n` },
    { file: 'sweep.csv', contents: renderSweepCsv(sweep) },
    { file: 'sweep.html', contents: renderSweepHtml(sweep, chartScript) },
  ];
}

/** The sweep without its underlying run (that is `result.json`), labels in place of positions. */
function sweepJson(sweep: SweepResult): Record<string, unknown> {
  const recommended = sweep.recommendation.position === null ? null : (sweep.points[sweep.recommendation.position]?.label ?? null);
  return {
    tool: sweep.run.tool,
    strategy: sweep.strategy,
    axes: sweep.axes,
    gridSize: sweep.gridSize,
    sample: sweep.sample,
    constraints: sweep.constraints,
    scenarios: sweep.run.scenarios.map((s) => s.name),
    front: sweep.front.map((i) => sweep.points[i]?.label),
    recommendation: { point: recommended, reason: sweep.recommendation.reason },
    points: sweep.points,
  };
}

function roundFractions(_key: string, value: unknown): unknown {
  if (typeof value !== 'number' || Number.isInteger(value) || !Number.isFinite(value)) return value;
  return Number(value.toFixed(6));
}

/** One row per point: its axis values, its score, whether it is on the front and recommended. */
function renderSweepCsv(sweep: SweepResult): string {
  const keys = sweep.axes.map((axis) => axis.key);
  const columns = ['point', ...keys, 'total_tokens', 'answer_recall', 'crashes', 'wait_ms', 'cost_usd', 'on_front', 'recommended'];
  const rows = sweep.points.map((point, i) => ({
    point: point.label,
    ...point.values,
    total_tokens: point.score.totalTokens,
    answer_recall: point.score.answerRecall === null ? null : Number(point.score.answerRecall.toFixed(4)),
    crashes: point.score.crashes,
    wait_ms: point.score.waitMs,
    on_front: point.onFront,
    recommended: sweep.recommendation.position === i,
    cost_usd: point.score.costUsd == null ? null : Number(point.score.costUsd.toFixed(6)),
  }));
  return stringify(rows, { header: true, columns, escape_formulas: true, cast: { boolean: (value) => (value ? 'true' : 'false') } });
}

/** The front as a table and the recommendation, for the end of a sweep on a terminal. */
export function renderSweepTerminal(sweep: SweepResult): string {
  // Cost is an objective of the front only when priced (pareto.ts): the column shows then.
  const priced = sweep.front.some((i) => sweep.points[i]?.score.costUsd != null);
  const header = ['', 'point', 'total tokens', 'answer recall', 'crashes', 'wait', ...(priced ? ['cost'] : [])];
  const rows = sweep.front.map((i) => {
    const point = sweep.points[i] as SweepPoint;
    const cost = priced ? [formatUsd(point.score.costUsd ?? null) ?? '-'] : [];
    return [
      sweep.recommendation.position === i ? '*' : '',
      point.label,
      formatCount(point.score.totalTokens),
      recall(point),
      String(point.score.crashes),
      formatDuration(point.score.waitMs),
      ...cost,
    ];
  });
  const widths = header.map((title, c) => Math.max(title.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `  ${cells.map((cell, c) => (c >= 2 ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0))).join('  ')}`.trimEnd();
  const sampled = sweep.sample === null ? '' : ` (a sample of ${sweep.points.length} of ${sweep.gridSize}, seed ${sweep.sample.seed})`;
  return [
    `sweep of ${sweep.strategy} · ${sweep.points.length} points${sampled} × ${sweep.run.scenarios.length} scenario${sweep.run.scenarios.length === 1 ? '' : 's'}`,
    '',
    `Pareto front (${sweep.front.length} of ${sweep.points.length} points; total tokens ↓, answer recall ↑, crashes ↓, waiting ↓${priced ? ', cost net of prompt cache ↓' : ''}):`,
    line(header),
    ...rows.map(line),
    '',
    `Recommendation: ${sweep.recommendation.position === null ? 'none' : (sweep.points[sweep.recommendation.position]?.label ?? '')}`,
    `  ${sweep.recommendation.reason}`,
    '',
  ].join('\n');
}

function recall(point: SweepPoint): string {
  return point.score.answerRecall === null ? '-' : `${(point.score.answerRecall * 100).toFixed(1)}%`;
}
