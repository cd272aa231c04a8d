import { describe, expect, it } from 'vitest';
import type { RunResult, SummaryRow } from '../../src/metrics/types.js';
import { buildChart, curve, LIMIT_COLOR, MAX_CURVE_POINTS, thinCurve, type ChartSpec } from '../../src/report/html-chart-kit.js';
import { assignColors, familyOf, FAMILIES } from '../../src/report/html-colors.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { findNotables } from '../../src/report/md.js';
import { strategyNames } from '../../src/strategies/index.js';
import { buildRunResult } from './run-result.js';
import { longRun } from './long-run.js';

/** CIELAB of a #rrggbb colour (D65), to measure how far apart two colours look. */
function lab(hex: string): [number, number, number] {
  const linear = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92;
  }) as [number, number, number];
  const [r, g, b] = linear;
  const f = (v: number): number => (v > 0.008856 ? Math.cbrt(v) : 7.787 * v + 16 / 116);
  const x = f((r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047);
  const y = f(r * 0.2126 + g * 0.7152 + b * 0.0722);
  const z = f((r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}
const deltaE = (a: string, b: string): number => Math.hypot(...lab(a).map((v, i) => v - (lab(b)[i] as number)));

function charts(html: string): Record<string, ChartSpec> {
  return JSON.parse(/<script type="application\/json" id="ctxbench-charts">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null') as Record<string, ChartSpec>;
}

describe('palette', () => {
  it('gives each registered strategy its own colour, by family, far apart and never the limit red', () => {
    const colors = assignColors(strategyNames());
    expect(colors.size).toBe(strategyNames().length);
    expect(new Set(colors.values()).size).toBe(colors.size);
    // Every registered strategy has a family (a new one gets a colour here, not a neutral one).
    expect(strategyNames().filter((name) => familyOf(name) === 'other')).toEqual([]);
    const all = [...colors.values()];
    let closest = Infinity;
    for (const [i, a] of all.entries()) for (const b of all.slice(i + 1)) closest = Math.min(closest, deltaE(a, b));
    expect(closest).toBeGreaterThan(25);
    expect(Math.min(...all.map((color) => deltaE(color, LIMIT_COLOR)))).toBeGreaterThan(30);
    // The baselines are apart from every family's hue: full and recorded are no longer blues.
    for (const member of Object.values(FAMILIES.find((family) => family.name === 'baseline')?.members ?? {}))
      for (const other of all.filter((color) => color !== member)) expect(deltaE(member, other)).toBeGreaterThan(25);
  });

  it('colours a second label of a strategy, or an unknown one, with a neutral colour of its own', () => {
    const colors = assignColors(['codex-rebuild trigger=0.5', 'codex-rebuild trigger=0.9', 'mine', 'full']);
    expect(colors.get('codex-rebuild trigger=0.5')).toBe(assignColors(['codex-rebuild']).get('codex-rebuild'));
    expect(new Set(colors.values()).size).toBe(4);
    expect(familyOf('codex-rebuild trigger=0.9')).toBe('agent compaction');
    expect(familyOf('mine')).toBe('other');
  });
});

describe('identical curves', () => {
  it('marks a curve that coincides with an earlier one as "= earlier", dashed, and says so in the note', () => {
    const same = [
      { x: 0, y: 1 },
      { x: 1, y: 2 },
    ];
    const spec = buildChart(
      'line',
      [
        curve('full', '#1f77b4', same),
        curve('rolling-window', '#ff7f0e', same),
        curve('gatekeeper', '#2ca02c', [
          { x: 0, y: 1 },
          { x: 1, y: 3 },
        ]),
      ],
      { x: { title: 'step', format: 'step' }, y: { title: 'tokens', format: 'tokens' } },
    );
    expect(spec.config.data.datasets.map((d) => d.label)).toEqual(['full', 'rolling-window (= full)', 'gatekeeper']);
    expect(spec.config.data.datasets.map((d) => d.borderDash)).toEqual([undefined, [6, 4], undefined]);
    expect(spec.note).toBe('Dashed “= …”: rolling-window = full (the curves coincide).');
  });
});

describe('long sessions', () => {
  it('thins a curve to the min and max of each bucket, keeping the ends, deterministically', () => {
    const points = Array.from({ length: 2000 }, (_, n) => ({ x: n, y: n === 777 ? 99_999 : n % 10 }));
    const thinned = thinCurve(points);
    expect(thinned.points.length).toBeLessThanOrEqual(MAX_CURVE_POINTS);
    expect(thinned.bucket).toBe(11);
    expect(thinned.points[0]).toEqual({ x: 0, y: 0 });
    expect(thinned.points.at(-1)).toEqual({ x: 1999, y: 9 });
    expect(thinned.points).toContainEqual({ x: 777, y: 99_999 });
    expect(thinCurve(points)).toEqual(thinned);
    expect(thinCurve(points.slice(0, 300)).points).toHaveLength(300);
  });

  it('keeps one scenario of 2,000 steps × 21 strategies under 1.5 MB of HTML; result.json keeps every step', () => {
    const result = longRun(2000);
    const html = renderHtml(result)[0]?.contents ?? '';
    expect(html.length).toBeLessThan(1_500_000);
    const context = charts(html)['scenario-0-context'];
    const curves = context?.config.data.datasets.filter((d) => strategyNames().some((name) => d.label.startsWith(name))) ?? [];
    expect(curves.length).toBeGreaterThanOrEqual(21);
    for (const c of curves) expect(c.data.length).toBeLessThanOrEqual(MAX_CURVE_POINTS);
    expect(context?.note).toContain('Each curve drawn through the lowest and highest point of every 11 steps (result.json keeps every step).');
    const json = JSON.parse(renderJson(result)[0]?.contents ?? '{}') as RunResult;
    expect(json.units.map((unit) => unit.steps.length)).toEqual(strategyNames().map(() => 2000));
  });
});

describe('headlines', () => {
  const row = (strategy: string, recall: number | null): SummaryRow => ({
    ...(buildRunResult().units[1]?.summary as SummaryRow),
    strategy,
    answer_recall: recall,
    crashed: false,
    saving_vs_full: 0,
    rate_limit_hits: 0,
  });

  it('never praises a 0% answer recall', () => {
    const findings = findNotables([row('full', 0), row('rolling-window', 0)]);
    expect(findings.map((f) => `${f.strategies.join(', ')} ${f.text}`)).toEqual(['full, rolling-window answer no probe correctly (answer recall 0%)']);
    expect(findings.some((f) => f.text.includes('best'))).toBe(false);
  });

  it('names the best answer recall when it is above 0%', () => {
    const findings = findNotables([row('full', 0.5), row('rolling-window', 0)]);
    expect(findings.map((f) => `${f.strategies.join(', ')} ${f.text}`)).toEqual(['full has the best answer recall: 50%']);
  });
});
