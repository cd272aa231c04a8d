import { maxOf } from '../stats.js';

/** How the page formats an axis's ticks (the page owns the callbacks); `label` leaves them be. */
type TickFormat = 'step' | 'tokens' | 'percent' | 'seconds' | 'minutes' | 'usd' | 'label';

/** A point; `label`, when present, is what the tooltip says about it. */
export interface ChartPoint {
  x: number;
  y: number;
  label?: string;
}

/** A Chart.js dataset as plain JSON (Chart.js reads the fields it knows). */
export type ChartDataset = Record<string, unknown> & { label: string; data: (ChartPoint | number | null)[] };

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

/** The colour of the quota and window limits and of crash markers. */
export const LIMIT_COLOR = '#dc2626';

/** A chart with the options every report chart shares: fixed size box, no animation. */
export function buildChart(type: 'line' | 'bar', datasets: ChartDataset[], axes: AxisOptions, labels?: string[]): ChartSpec {
  const sameAs = markIdenticalCurves(datasets);
  const thinned = maxOf(
    datasets.map((dataset) => thinnedFrom.get(dataset) ?? 0),
    0,
  );
  const notes = [
    ...(sameAs.length > 0 ? [`Dashed “= …”: ${sameAs.join('; ')} (the curves coincide).`] : []),
    ...(thinned > 0 ? [`Each curve drawn through the lowest and highest point of every ${thinned} steps (result.json keeps every step).`] : []),
  ];
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
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
}

/**
 * Strategy curves among a chart's datasets, and how many points each bucket of a thinned curve
 * stood for: kept beside the datasets rather than in them, so the page's JSON carries only what
 * Chart.js reads.
 */
const curves = new WeakSet<ChartDataset>();
const thinnedFrom = new WeakMap<ChartDataset, number>();

/**
 * A curve identical to an earlier one would hide under it: it is labelled `name (= earlier)` and
 * drawn dashed so that both show. Returns `name = earlier` for each, for the chart's note.
 */
function markIdenticalCurves(datasets: ChartDataset[]): string[] {
  const seen = new Map<string, string>();
  const marked: string[] = [];
  for (const dataset of datasets) {
    if (!curves.has(dataset) || dataset.data.length === 0) continue;
    const key = JSON.stringify(dataset.data);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, dataset.label);
      continue;
    }
    marked.push(`${dataset.label} = ${first}`);
    dataset.label = `${dataset.label} (= ${first})`;
    dataset.borderDash = [6, 4];
  }
  return marked;
}

/** Above this many points a curve is thinned: a 2,000-step session would otherwise weigh megabytes per chart. */
export const MAX_CURVE_POINTS = 400;

/**
 * The points a long curve is drawn through: the first and the last, and in each bucket of
 * consecutive points the lowest and the highest (in step order), so peaks, drops and crashes stay
 * visible. Deterministic; a curve of `max` points or fewer is returned as it is.
 */
export function thinCurve(points: readonly ChartPoint[], max = MAX_CURVE_POINTS): { points: ChartPoint[]; bucket: number } {
  if (points.length <= max) return { points: [...points], bucket: 0 };
  const inner = points.slice(1, -1);
  const bucket = Math.ceil(inner.length / Math.floor((max - 2) / 2));
  const out: ChartPoint[] = [points[0] as ChartPoint];
  for (let start = 0; start < inner.length; start += bucket) {
    const slice = inner.slice(start, start + bucket);
    let low = 0;
    let high = 0;
    slice.forEach((point, i) => {
      if (point.y < (slice[low] as ChartPoint).y) low = i;
      if (point.y > (slice[high] as ChartPoint).y) high = i;
    });
    for (const i of [...new Set([low, high])].sort((a, b) => a - b)) out.push(slice[i] as ChartPoint);
  }
  out.push(points[points.length - 1] as ChartPoint);
  return { points: out, bucket };
}

/**
 * A strategy's curve: a thin line without point dots (sessions run to hundreds of steps), drawn a
 * little past the chart area so that a curve along 0% or 100% stays visible.
 */
export function curve(label: string, color: string, data: ChartPoint[]): ChartDataset {
  const thinned = thinCurve(data);
  const dataset: ChartDataset = {
    label,
    // The strategy the page's highlighter matches (the label may become `name (= other)`).
    strategy: label,
    data: thinned.points,
    borderColor: color,
    backgroundColor: color,
    borderWidth: 2,
    pointRadius: 0,
    pointHitRadius: 6,
    tension: 0,
    clip: 4,
  };
  curves.add(dataset);
  if (thinned.bucket > 0) thinnedFrom.set(dataset, thinned.bucket);
  return dataset;
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
export function markers(label: string, style: string, points: (ChartPoint & { color: string })[], radius: number): ChartDataset {
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
