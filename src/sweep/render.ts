import { csvRecord, type Cell } from '../report/csv-format.js';
import type { ReportFile } from '../report/types.js';
import { roundFractions } from '../report/json.js';
import type { SweepPoint, SweepResult } from './run.js';
import { formatCount, formatDuration } from '../report/terminal.js';
import { renderSweepHtml } from './render-html.js';
import { formatUsd } from '../report/format-cost.js';
import { renderTerminalRecommendation } from '../report/terminal-recommendation.js';

/** Rows of the ranked table on a terminal; the rest are counted (sweep.csv has every point). */
const SHOWN_POINTS = 25;

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
  return {
    tool: sweep.run.tool,
    strategies: sweep.strategies,
    axes: sweep.axes,
    gridSize: sweep.gridSize,
    sample: sweep.sample,
    scenarios: sweep.run.scenarios.map((s) => s.name),
    distinct: sweep.distinct,
    frontAxis: sweep.frontAxis,
    front: sweep.front.map((i) => sweep.points[i]?.label),
    recommended: sweep.recommended === null ? null : (sweep.points[sweep.recommended]?.label ?? null),
    recommendation: sweep.recommendation,
    points: sweep.points,
  };
}

/** The axis keys of every swept strategy, in flag order, each once. */
function axisKeys(sweep: SweepResult): string[] {
  return [...new Set(sweep.axes.map((axis) => axis.key))];
}

/**
 * One row per point (the `full` reference first): its strategy and axis values (empty for another
 * strategy's axes), its figures, whether it is on the front, its verdict and rank, and which
 * earlier point it repeats exactly.
 */
function renderSweepCsv(sweep: SweepResult): string {
  const keys = axisKeys(sweep);
  const columns = [
    'point',
    'strategy',
    ...keys,
    'total_tokens',
    'answer_recall',
    'crashes',
    'wait_ms',
    'cost_usd',
    'on_front',
    'recommended',
    'rank',
    'verdict',
    'same_as',
    'reason',
  ];
  const rows = sweep.points.map((point, i) => ({
    point: point.label,
    strategy: point.strategy,
    ...Object.fromEntries(keys.map((key) => [key, point.strategy === 'full' ? undefined : point.values[key]])),
    total_tokens: point.score.totalTokens,
    answer_recall: point.score.answerRecall === null ? null : Number(point.score.answerRecall.toFixed(4)),
    crashes: point.score.crashes,
    wait_ms: point.score.waitMs,
    cost_usd: point.score.costUsd === null ? null : Number(point.score.costUsd.toFixed(6)),
    on_front: point.onFront,
    recommended: sweep.recommended === i,
    rank: point.rank,
    verdict: point.verdict,
    same_as: point.sameAs ?? undefined,
    reason: point.reason,
  }));
  // The run's CSV writer (report/csv-format.ts: csv-stringify's bytes with escaped formulas), numbers as the library cast them.
  return [columns, ...rows.map((row) => columns.map((column) => (row as Record<string, Cell>)[column]))].map((cells) => csvRecord(cells, String)).join('');
}

/** The recommendation, then the distinct points ranked by the objective, for the end of a sweep on a terminal. */
export function renderSweepTerminal(sweep: SweepResult): string {
  const priced = sweep.points.some((point) => point.score.costUsd !== null);
  const header = ['', 'rank', 'point', 'cost', 'total tokens', 'answer recall', 'crashes', 'wait', 'verdict'];
  const ranked = sweep.points
    .map((point, i) => ({ point, i }))
    .filter(({ point }) => point.sameAs === null)
    .sort((a, b) => a.point.rank - b.point.rank);
  const shown = ranked.slice(0, SHOWN_POINTS);
  const rows = shown.map(({ point, i }) => [
    sweep.recommended === i ? '*' : point.onFront ? 'f' : '',
    String(point.rank),
    `${point.label}${repeats(sweep, point)}`,
    priced ? (formatUsd(point.score.costUsd) ?? '-') : '-',
    formatCount(point.score.totalTokens),
    recall(point),
    String(point.score.crashes),
    formatDuration(point.score.waitMs),
    point.verdict,
  ]);
  const widths = header.map((title, c) => Math.max(title.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `  ${cells.map((cell, c) => (c >= 3 && c < 8 ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0))).join('  ')}`.trimEnd();
  const runs = sweep.points.length - 1;
  const sampled = sweep.sample === null ? '' : ` (a sample of ${runs} of ${sweep.gridSize}, seed ${sweep.sample.seed})`;
  const scenarios = sweep.run.scenarios.length;
  const frontWords = `${sweep.frontAxis === 'cost' ? 'cost net of prompt cache' : 'total tokens'} ↓ × answer recall ↑`;
  return [
    `sweep of ${sweep.strategies.join(', ')} · ${runs} points${sampled} and full × ${scenarios} scenario${scenarios === 1 ? '' : 's'} · ${sweep.distinct} distinct results`,
    '',
    renderTerminalRecommendation(sweep.recommendation, { color: false }).trimEnd(),
    '',
    `Ranked by ${sweep.recommendation.objective}; * recommended, f on the front (${frontWords}: ${sweep.front.length} of ${sweep.distinct} distinct):`,
    line(header),
    ...rows.map(line),
    ...(ranked.length > shown.length ? [`  and ${ranked.length - shown.length} more in sweep.csv`] : []),
    '',
  ].join('\n');
}

/** ` (+6 identical)` after a point that others repeat exactly. */
function repeats(sweep: SweepResult, point: SweepPoint): string {
  const n = sweep.points.filter((other) => other.sameAs === point.label).length;
  return n === 0 ? '' : ` (+${n} identical)`;
}

function recall(point: SweepPoint): string {
  return point.score.answerRecall === null ? '-' : `${(point.score.answerRecall * 100).toFixed(1)}%`;
}
