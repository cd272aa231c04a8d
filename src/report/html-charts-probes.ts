import type { UnitResult } from '../metrics/types.js';
import type { ProbeKind } from '../transcript/types.js';
import { buildChart, curve, markers, type ChartDataset, type ChartPoint, type ChartSpec } from './html-chart-kit.js';
import { formatCount } from './terminal.js';

/** The order probe kinds are listed in (DESIGN.md §6). */
const KIND_ORDER: readonly ProbeKind[] = ['recall', 'artifact', 'continuation', 'decision'];

const FRONT_COLOR = '#111827';

/** A strategy's place on the tokens-versus-recall plane. */
export interface TradeoffPoint {
  strategy: string;
  tokens: number;
  recall: number;
}

/**
 * Mean retention per step for each strategy: the share of probes whose evidence is still in the
 * context, over the probes whose evidence has appeared by that step. `undefined` when no unit of
 * the scenario measured retention.
 */
export function buildRetentionChart(units: readonly UnitResult[], colors: Map<string, string>): ChartSpec | undefined {
  const measured = units.filter((unit) => (unit.probes?.retention ?? []).some((c) => c.points.length > 0));
  if (measured.length === 0) return undefined;
  const datasets = measured.map((unit) => curve(unit.strategy, colors.get(unit.strategy) ?? FRONT_COLOR, meanRetention(unit)));
  return buildChart('line', datasets, { x: { title: 'step', format: 'step' }, y: { title: 'evidence retained', format: 'percent', max: 1 } });
}

/**
 * Answer recall over the session for each strategy: at every step with a valid answer, the share
 * of that step's answers that were right (ask points through the session, issue 25). `undefined`
 * when no unit has a recall curve.
 */
export function buildRecallCurveChart(units: readonly UnitResult[], colors: Map<string, string>): ChartSpec | undefined {
  const measured = units.filter((unit) => (unit.probes?.recallCurve ?? []).length > 0);
  if (measured.length === 0) return undefined;
  const datasets = measured.map((unit) =>
    curve(
      unit.strategy,
      colors.get(unit.strategy) ?? FRONT_COLOR,
      (unit.probes?.recallCurve ?? []).map((point) => ({ x: point.step, y: point.correct / point.answered })),
    ),
  );
  return buildChart('line', datasets, { x: { title: 'step', format: 'step' }, y: { title: 'answer recall', format: 'percent', max: 1 } });
}

/** Answer recall by probe kind, one bar per strategy; `undefined` when nothing was answered. */
export function buildRecallByKindChart(units: readonly UnitResult[], colors: Map<string, string>): ChartSpec | undefined {
  const kinds = KIND_ORDER.filter((kind) => units.some((unit) => unit.probes?.byKind[kind]?.answerRecall != null));
  if (kinds.length === 0) return undefined;
  const datasets: ChartDataset[] = units
    .filter((unit) => unit.probes !== undefined)
    .map((unit) => {
      const color = colors.get(unit.strategy) ?? FRONT_COLOR;
      return { label: unit.strategy, data: kinds.map((kind) => unit.probes?.byKind[kind]?.answerRecall ?? null), backgroundColor: color, borderColor: color };
    });
  return buildChart(
    'bar',
    datasets,
    { x: { title: 'probe kind', format: 'label', category: true }, y: { title: 'answer recall', format: 'percent', max: 1 } },
    [...kinds],
  );
}

/**
 * Total tokens against answer recall, one point per strategy, the Pareto front (no other
 * strategy is both cheaper and better) drawn as a line through its points. Crashed strategies are
 * drawn as crosses and kept off the front: stopping early is cheap, not efficient.
 */
export function buildTradeoffChart(units: readonly UnitResult[], colors: Map<string, string>): ChartSpec | undefined {
  const placed = units.filter((unit) => unit.summary.answer_recall !== null);
  if (placed.length === 0) return undefined;
  const front = paretoFront(
    placed
      .filter((unit) => !unit.summary.crashed)
      .map((unit) => ({ strategy: unit.strategy, tokens: unit.summary.total_tokens, recall: unit.summary.answer_recall ?? 0 })),
  );
  const onFront = new Set(front.map((point) => point.strategy));
  const datasets: ChartDataset[] = placed.map((unit) => {
    const color = colors.get(unit.strategy) ?? FRONT_COLOR;
    const point = { x: unit.summary.total_tokens, y: unit.summary.answer_recall ?? 0, label: tradeoffLabel(unit, onFront.has(unit.strategy)) };
    const style = unit.summary.crashed ? 'crossRot' : 'circle';
    const dataset = { ...markers(unit.strategy, style, [{ ...point, color }], onFront.has(unit.strategy) ? 8 : 6), backgroundColor: color };
    return onFront.has(unit.strategy) ? { ...dataset, pointBorderColor: [FRONT_COLOR], pointBorderWidth: 3 } : dataset;
  });
  const line: ChartPoint[] = front.map((point) => ({ x: point.tokens, y: point.recall, label: `Pareto front: ${point.strategy}` }));
  datasets.push({
    label: 'Pareto front',
    data: line,
    borderColor: FRONT_COLOR,
    backgroundColor: FRONT_COLOR,
    borderDash: [5, 4],
    borderWidth: 1.5,
    pointRadius: 0,
    order: 5,
  });
  return buildChart('line', datasets, { x: { title: 'total tokens', format: 'tokens' }, y: { title: 'answer recall', format: 'percent', max: 1 } });
}

/**
 * The points no other point dominates (fewer or equal tokens and higher or equal recall, one of
 * them strictly), in order of tokens. Ties in both keep the first.
 */
export function paretoFront(points: readonly TradeoffPoint[]): TradeoffPoint[] {
  const sorted = [...points].sort((a, b) => a.tokens - b.tokens || b.recall - a.recall);
  const front: TradeoffPoint[] = [];
  for (const point of sorted) {
    const best = front[front.length - 1];
    if (best === undefined || point.recall > best.recall) front.push(point);
  }
  return front;
}

/** Mean of the probes' retained flags per step, over the probes measured at that step. */
export function meanRetention(unit: UnitResult): ChartPoint[] {
  const sums = new Map<number, { kept: number; count: number }>();
  for (const curve of unit.probes?.retention ?? []) {
    for (const [step, kept] of curve.points) {
      const sum = sums.get(step) ?? { kept: 0, count: 0 };
      sums.set(step, { kept: sum.kept + kept, count: sum.count + 1 });
    }
  }
  return [...sums.entries()].sort(([a], [b]) => a - b).map(([step, sum]) => ({ x: step, y: sum.kept / sum.count }));
}

function tradeoffLabel(unit: UnitResult, onFront: boolean): string {
  const recall = Math.round((unit.summary.answer_recall ?? 0) * 100);
  const notes = [unit.summary.crashed ? 'crashed' : '', onFront ? 'on the Pareto front' : ''].filter((note) => note !== '');
  return `${unit.strategy}: ${formatCount(unit.summary.total_tokens)} tokens, recall ${recall}%${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}
