import type { RunEvent, StepRecord } from '../metrics/run-events.js';
import type { ScenarioInfo, UnitResult } from '../metrics/types.js';
import { formatCount } from './terminal.js';
import { buildChart, curve, limitLine, markers, LIMIT_COLOR, type ChartDataset, type ChartPoint, type ChartSpec } from './html-chart-kit.js';
import { maxOf } from '../stats.js';

/** Quota buckets are per minute of virtual time (DESIGN.md §7). */
const MINUTE_MS = 60_000;

type ActionEvent = Extract<RunEvent, { type: 'action' }>;
type Marker = ChartPoint & { color: string };

/** Triggers further above the largest context or window than this are left off the chart. */
const THRESHOLD_REACH = 1.2;

/**
 * Context tokens per step for every strategy, with the window and each strategy's trigger
 * thresholds as lines, and its compactions, other actions and crash as markers on its curve.
 * Triggers far above anything the chart shows are left out (they would squash the curves).
 */
export function buildContextChart(info: ScenarioInfo | undefined, units: readonly UnitResult[], colors: Map<string, string>): ChartSpec {
  const lastStep = maxOf(
    units.flatMap((unit) => unit.steps.map((step) => step.step)),
    1,
  );
  const datasets: ChartDataset[] = units.map((unit) =>
    curve(
      unit.strategy,
      colorOf(colors, unit),
      unit.steps.map((s) => ({ x: s.step, y: s.contextTokens })),
    ),
  );
  if (info !== undefined) datasets.push(limitLine(`window ${formatCount(info.window)}`, LIMIT_COLOR, info.window, 0, lastStep, [6, 4]));
  const reach =
    THRESHOLD_REACH *
    maxOf(
      units.map((unit) => unit.summary.peak_context_tokens),
      info?.window ?? 0,
    );
  let hidden = 0;
  for (const unit of units) {
    for (const threshold of unit.thresholds ?? []) {
      if (threshold.tokens > reach) hidden += 1;
      else
        datasets.push(
          limitLine(
            `${unit.strategy}: ${threshold.label} ${formatCount(threshold.tokens)}`,
            colorOf(colors, unit),
            threshold.tokens,
            0,
            lastStep,
            [2, 3],
            false,
          ),
        );
    }
  }
  const compactions = units.flatMap((unit) => actionMarkers(unit, colors, (event) => event.action === 'compact'));
  const others = units.flatMap((unit) => actionMarkers(unit, colors, (event) => event.action !== 'compact'));
  if (compactions.length > 0) datasets.push(markers('compaction', 'triangle', compactions, 6));
  if (others.length > 0) datasets.push(markers('other action', 'rectRot', others, 3));
  const crashes = units.flatMap((unit) => crashMarkers(unit, (step) => step.contextTokens));
  if (crashes.length > 0) datasets.push(markers('crash', 'crossRot', crashes, 8));
  const spec = buildChart('line', datasets, { x: { title: 'step', format: 'step' }, y: { title: 'context tokens', format: 'tokens' } });
  return hidden === 0 ? spec : { ...spec, note: `${hidden} trigger${hidden === 1 ? '' : 's'} far above the window not drawn.` };
}

/** Everything charged to each strategy so far (prompt, completion and its own calls) per step. */
export function buildCumulativeChart(units: readonly UnitResult[], colors: Map<string, string>): ChartSpec {
  const datasets: ChartDataset[] = units.map((unit) => curve(unit.strategy, colorOf(colors, unit), cumulativeTokens(unit.steps)));
  const crashes = units.flatMap((unit) => {
    const totals = new Map(cumulativeTokens(unit.steps).map((point) => [point.x, point.y]));
    return crashMarkers(unit, (step) => totals.get(step.step) ?? 0);
  });
  if (crashes.length > 0) datasets.push(markers('crash', 'crossRot', crashes, 8));
  return buildChart('line', datasets, { x: { title: 'step', format: 'step' }, y: { title: 'cumulative tokens', format: 'tokens' } });
}

/** Below this share of the TPM quota at its peak, the quota line would only flatten the curves. */
const QUOTA_LINE_SHARE = 0.25;

/**
 * Tokens each strategy sent in the trailing minute of virtual time (prompt plus its own calls),
 * against the scenario's TPM quota, with every 429 marked where the gate refused a call. The
 * x axis is in minutes of virtual time, or seconds for a session under two minutes.
 */
export function buildQuotaChart(info: ScenarioInfo | undefined, units: readonly UnitResult[], colors: Map<string, string>): ChartSpec {
  const lastMs = maxOf(
    units.flatMap((unit) => unit.steps.map((step) => step.atMs)),
    1000,
  );
  // A session shorter than two minutes reads better in seconds than in 0:01, 0:01, 0:02.
  const unitMs = lastMs < 2 * MINUTE_MS ? 1000 : MINUTE_MS;
  const datasets: ChartDataset[] = units.map((unit) => {
    const totals = trailingMinuteSeries(unit.steps);
    const points = unit.steps.map((step, i) => ({ x: step.atMs / unitMs, y: totals[i] ?? 0 }));
    return curve(unit.strategy, colorOf(colors, unit), points);
  });
  const peak = maxOf(
    datasets.flatMap((dataset) => dataset.data.map((point) => (typeof point === 'object' && point !== null ? point.y : 0))),
    0,
  );
  const tpm = info?.tpm ?? 0;
  if (tpm > 0 && peak >= QUOTA_LINE_SHARE * tpm) datasets.push(limitLine(`TPM quota ${formatCount(tpm)}`, LIMIT_COLOR, tpm, 0, lastMs / unitMs, [6, 4]));
  const refusals: Marker[] = units.flatMap((unit) =>
    unit.events.flatMap((event) =>
      event.type === 'failure' && event.failure.kind === 'rate-limit'
        ? [
            {
              x: event.atMs / unitMs,
              y: trailingMinuteTokens(unit.steps, event.atMs),
              color: colorOf(colors, unit),
              label: `${unit.strategy}: 429 at step ${event.step}`,
            },
          ]
        : [],
    ),
  );
  if (refusals.length > 0) datasets.push(markers('429 rate limit', 'crossRot', refusals, 5));
  const format = unitMs === 1000 ? 'seconds' : 'minutes';
  const spec = buildChart('line', datasets, { x: { title: 'virtual time', format }, y: { title: 'tokens in the last minute', format: 'tokens' } });
  if (tpm === 0) return { ...spec, note: 'No TPM quota in this scenario.' };
  if (peak < QUOTA_LINE_SHARE * tpm)
    return { ...spec, note: `Peak use ${Math.round((peak / tpm) * 100)}% of the ${formatCount(tpm)} TPM quota (line off the scale).` };
  return { ...spec, note: `Dashed: the ${formatCount(tpm)} TPM quota.` };
}

/** Running total of prompt, completion and overhead tokens, one point per step. */
export function cumulativeTokens(steps: readonly StepRecord[]): ChartPoint[] {
  let total = 0;
  return steps.map((step) => {
    total += step.promptTokens + step.completionTokens + step.overheadTokens;
    return { x: step.step, y: total };
  });
}

/**
 * `trailingMinuteTokens` at every step's time, in one pass when the steps are in time order (a
 * window sliding over them: a corpus-sized unit has hundreds of thousands of steps), else step by
 * step.
 */
export function trailingMinuteSeries(steps: readonly StepRecord[]): number[] {
  const ordered = steps.every((step, i) => i === 0 || (steps[i - 1] as StepRecord).atMs <= step.atMs);
  if (!ordered) return steps.map((step) => trailingMinuteTokens(steps, step.atMs));
  const sent = (step: StepRecord): number => (step.status === 'ok' ? step.promptTokens + step.overheadTokens : 0);
  const out: number[] = [];
  let sum = 0;
  let from = 0;
  let to = 0;
  for (const step of steps) {
    // In: every step at or before this time (later steps of the same time too, as the scan counts them).
    while (to < steps.length && (steps[to] as StepRecord).atMs <= step.atMs) sum += sent(steps[to++] as StepRecord);
    while (from < to && (steps[from] as StepRecord).atMs <= step.atMs - MINUTE_MS) sum -= sent(steps[from++] as StepRecord);
    out.push(sum);
  }
  return out;
}

/** Prompt and overhead tokens of the steps sent in the minute up to and including `atMs`. */
export function trailingMinuteTokens(steps: readonly StepRecord[], atMs: number): number {
  let sum = 0;
  for (const step of steps) {
    if (step.status === 'ok' && step.atMs <= atMs && step.atMs > atMs - MINUTE_MS) sum += step.promptTokens + step.overheadTokens;
  }
  return sum;
}

function actionMarkers(unit: UnitResult, colors: Map<string, string>, keep: (event: ActionEvent) => boolean): Marker[] {
  const contextAt = new Map(unit.steps.map((step) => [step.step, step.contextTokens]));
  return unit.events.flatMap((event) => {
    if (event.type !== 'action' || !keep(event)) return [];
    const label = `${unit.strategy}: ${event.action} at step ${event.step}, ${formatCount(event.tokensBefore)} → ${formatCount(event.tokensAfter)}`;
    return [{ x: event.step, y: contextAt.get(event.step) ?? event.tokensAfter, color: colorOf(colors, unit), label }];
  });
}

function crashMarkers(unit: UnitResult, height: (step: StepRecord) => number): Marker[] {
  return unit.events.flatMap((event) => {
    if (event.type !== 'crash') return [];
    const step = unit.steps.find((s) => s.step === event.step);
    const label = `${unit.strategy}: crashed (${event.kind}) at step ${event.step}`;
    return [{ x: event.step, y: step === undefined ? 0 : height(step), color: LIMIT_COLOR, label }];
  });
}

function colorOf(colors: Map<string, string>, unit: UnitResult): string {
  return colors.get(unit.strategy) ?? '#111827';
}
