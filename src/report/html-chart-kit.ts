import type { RunResult } from '../metrics/types.js';

/** How the page formats an axis's ticks (the page owns the callbacks); `label` leaves them be. */
export type TickFormat = 'step' | 'tokens' | 'percent' | 'seconds' | 'minutes' | 'usd' | 'label';

/** A point; `label`, when present, is what the tooltip says about it. */
export interface ChartPoint {
  x: number;
  y: number;
  label?: string;
}

/** A Chart.js dataset as plain JSON (Chart.js reads the fields it knows). */
export type ChartDataset = Record<string, unknown> & { label: string; data: Array<ChartPoint | number | null> };

/**
 * A chart ready to embed: a JSON-only Chart.js configuration plus the tick formats. The page adds
 * the callbacks (tick formatting, tooltips, legend filtering) that JSON cannot carry.
 */
export interface ChartSpec {
  /** A sentence the caption adds (what the chart leaves out, say). */
  note?: string;
  config: { type: 'line' | 'bar'; data: { labels?: string[]; datasets: ChartDataset[] }; options: Record<string, unknown> };
  format: { x: TickFormat; y: TickFormat };
}

export interface AxisOptions {
  x: { title: string; format: TickFormat; category?: boolean };
  y: { title: string; format: TickFormat; max?: number };
}

/**
 * Ten hues that stay apart on white (no red: red means a limit or a crash); strategies take them
 * in order of appearance.
 */
const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#1e3a8a'];

/** The colour of the quota and window limits and of crash markers. */
export const LIMIT_COLOR = '#dc2626';

/** One colour per strategy label, stable across the scenarios of a run (legend and table agree). */
export function assignColors(result: RunResult): Map<string, string> {
  const colors = new Map<string, string>();
  for (const unit of result.units) {
    if (!colors.has(unit.strategy)) colors.set(unit.strategy, PALETTE[colors.size % PALETTE.length] ?? '#000000');
  }
  return colors;
}

/** A chart with the options every report chart shares: fixed size box, no animation. */
export function buildChart(type: 'line' | 'bar', datasets: ChartDataset[], axes: AxisOptions, labels?: string[]): ChartSpec {
  // Steps are whole numbers: no ticks (or grid lines) between them on a two-step session.
  const x = axes.x.category === true ? { type: 'category' } : { type: 'linear', ...(axes.x.format === 'step' ? { ticks: { precision: 0 } } : {}) };
  return {
    config: {
      type,
      data: labels === undefined ? { datasets } : { labels, datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: type === 'line' ? { mode: 'nearest', axis: 'xy', intersect: false } : { mode: 'index', intersect: false },
        plugins: { legend: { position: 'bottom', labels: { boxWidth: 14, boxHeight: 8 } } },
        scales: {
          x: { ...x, title: { display: true, text: axes.x.title } },
          y: { type: 'linear', min: 0, ...(axes.y.max !== undefined ? { max: axes.y.max } : {}), title: { display: true, text: axes.y.title } },
        },
      },
    },
    format: { x: axes.x.format, y: axes.y.format },
  };
}

/**
 * A strategy's curve: a thin line without point dots (sessions run to hundreds of steps), drawn a
 * little past the chart area so that a curve along 0% or 100% stays visible.
 */
export function curve(label: string, color: string, data: ChartPoint[]): ChartDataset {
  return { label, data, borderColor: color, backgroundColor: color, borderWidth: 2, pointRadius: 0, pointHitRadius: 6, tension: 0, clip: 4 };
}

/**
 * A horizontal limit from `fromX` to `toX`; dashed, drawn behind the curves. `inLegend: false`
 * leaves it out of the legend (its tooltip still names it).
 */
export function limitLine(label: string, color: string, y: number, fromX: number, toX: number, dash: number[], inLegend = true): ChartDataset {
  return {
    ...(inLegend ? {} : { hideInLegend: true }),
    label,
    data: [
      { x: fromX, y },
      { x: toX, y },
    ],
    borderColor: color,
    backgroundColor: color,
    borderWidth: 1.5,
    borderDash: dash,
    pointRadius: 0,
    pointHitRadius: 4,
    order: 10,
  };
}

/** Markers without a line; each point carries its own colour and tooltip label. */
export function markers(label: string, style: string, points: Array<ChartPoint & { color: string }>, radius: number): ChartDataset {
  const first = points[0]?.color ?? '#111827';
  const shared = points.every((point) => point.color === first) ? first : '#111827';
  return {
    label,
    data: points.map(({ x, y, label: text }) => ({ x, y, ...(text !== undefined ? { label: text } : {}) })),
    showLine: false,
    pointStyle: style,
    pointRadius: radius,
    pointHoverRadius: radius + 2,
    pointBorderWidth: style === 'crossRot' ? 2.5 : 1,
    pointBackgroundColor: points.map((point) => point.color),
    pointBorderColor: points.map((point) => (style === 'crossRot' ? point.color : '#111827')),
    // The legend shows the marker's shape in neutral grey: its points take their strategy's colour.
    borderColor: style === 'crossRot' ? shared : '#111827',
    backgroundColor: '#9ca3af',
    // A marker at 0% or 100%, or on the window line at the top, is drawn whole.
    clip: false,
    order: 0,
  };
}

