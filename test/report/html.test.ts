import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/metrics/types.js';
import type { ChartSpec } from '../../src/report/html-chart-kit.js';
import { buildContextChart, buildQuotaChart, cumulativeTokens, trailingMinuteSeries, trailingMinuteTokens } from '../../src/report/html-charts.js';
import { meanRetention, paretoFront } from '../../src/report/html-charts-probes.js';
import { renderHtml } from '../../src/report/html.js';
import { buildRunResult } from './run-result.js';

function page(result: RunResult = buildRunResult()): string {
  const [file, ...rest] = renderHtml(result);
  expect(rest).toEqual([]);
  expect(file?.file).toBe('index.html');
  return file?.contents ?? '';
}

/** The chart specs the page embeds, keyed by canvas id. */
function charts(html: string): Record<string, ChartSpec> {
  const match = /<script type="application\/json" id="ctxbench-charts">(.*?)<\/script>/s.exec(html);
  return JSON.parse(match?.[1] ?? 'null') as Record<string, ChartSpec>;
}

function labels(spec: ChartSpec | undefined): string[] {
  return spec?.config.data.datasets.map((dataset) => dataset.label) ?? [];
}

function withoutProbes(): RunResult {
  const result = buildRunResult();
  result.units = result.units.map(({ probes: _probes, ...unit }) => ({
    ...unit,
    summary: { ...unit.summary, retention: null, answer_recall: null, probes: null },
  }));
  return result;
}

describe('renderHtml: one self-contained page', () => {
  const html = page();

  it('inlines Chart.js and fetches nothing: no external URL, no source map', () => {
    expect(html).toContain('Chart.js v4.6.1');
    expect(html).not.toMatch(/sourceMappingURL/);
    // Our own markup and style (Chart.js's code aside) name no resource at all.
    const own = html.replace(/<script>.*?<\/script>/gs, '');
    expect(own).not.toMatch(/\b(?:src|href|srcset|action)\s*=\s*"(?!#|data:)/i);
    expect(own).not.toMatch(/url\(|@import|@font-face|https?:/i);
  });

  it('allows exactly its two inline scripts, by hash, and no request at all', () => {
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(policy).toContain("default-src 'none'");
    const scripts = [...html.matchAll(/<script>(.*?)<\/script>/gs)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(2);
    for (const code of scripts) expect(policy).toContain(`'sha256-${createHash('sha256').update(code).digest('base64')}'`);
  });

  it('is deterministic', () => {
    expect(page()).toBe(html);
  });

  it('has a header with seed, version, provider mode, scenarios and strategies', () => {
    expect(html).toMatch(/<dt>seed<\/dt><dd>42<\/dd>/);
    expect(html).toMatch(/<dt>ctxbench<\/dt><dd>0\.1\.0<\/dd>/);
    expect(html).toMatch(/<dt>providers<\/dt><dd>mock \(simulated\)<\/dd>/);
    expect(html).toMatch(/<dt>scenarios<\/dt><dd>1<\/dd>/);
    expect(html).toMatch(/<dt>strategies<\/dt><dd>2<\/dd>/);
  });

  it('has a sortable summary table with the crashed strategy flagged and the best values marked', () => {
    const table = /<table class="summary sortable">.*?<\/table>/s.exec(html)?.[0] ?? '';
    const rows = [...table.matchAll(/<tr( class="crashed")?><th scope="row".*?<\/tr>/gs)].map((m) => m[0]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^<tr class="crashed">.*overflow @ step 2/s);
    expect(rows[1]).not.toMatch(/crashed/);
    // Only rolling-window finished, so it has nothing to beat and nothing is marked.
    expect(table).not.toContain('class="num best"');
  });

  it('marks the best value of a column among strategies that finished', () => {
    const result = buildRunResult();
    const [full, rolling] = result.units;
    if (full === undefined || rolling === undefined) throw new Error('fixture has two units');
    result.units = [{ ...full, summary: { ...full.summary, crashed: false, crash_kind: null, crash_step: null } }, rolling];
    const table = /<table class="summary sortable">.*?<\/table>/s.exec(page(result))?.[0] ?? '';
    // full's 9340 total beats rolling-window's 10160; rolling-window's 3100 peak beats full's 9300.
    expect(table).toMatch(/<td class="num best" data-sort="9340"/);
    expect(table).toMatch(/<td class="num best" data-sort="3100"/);
    expect(table).not.toMatch(/<td class="num best" data-sort="10160"/);
  });

  it('opens with an overview of scenario × strategy when there are several scenarios', () => {
    expect(html).not.toContain('<section class="overview">');
    const two = buildRunResult();
    const info = two.scenarios[0];
    if (info === undefined) throw new Error('fixture has a scenario');
    two.scenarios.push({ ...info, name: 'second' });
    two.units.push(...two.units.map((unit) => ({ ...unit, scenario: 'second', summary: { ...unit.summary, scenario: 'second' } })));
    const overview = /<section class="overview">.*?<\/section>/s.exec(page(two))?.[0] ?? '';
    const rows = [...overview.matchAll(/<tr><th scope="row"><a href="#(scenario-\d)">([^<]*)<\/a><\/th>(.*?)<\/tr>/gs)].map((m) => m.slice(1));
    expect(rows.map(([id, name]) => `${id} ${name}`)).toEqual(['scenario-0 long-session', 'scenario-1 second']);
    expect(rows[0]?.[2]).toBe(
      '<td class="crash-cell" title="overflow at step 2">✗ overflow<br>@2</td><td class="num" title="saved 33% · recall 50%">33%<br>50%</td>',
    );
    // The cross-scenario chart: rolling-window's point in each scenario (full, crashed early, has no recall to place).
    const chart = charts(page(two))['overview-tradeoff'];
    expect(labels(chart)).toEqual(['rolling-window']);
    expect(chart?.config.data.datasets[0]?.data).toEqual([
      { x: 0.3319, y: 0.5, label: 'long-session · rolling-window: saved 33%, recall 50%' },
      { x: 0.3319, y: 0.5, label: 'second · rolling-window: saved 33%, recall 50%' },
    ]);
  });

  it('draws context, cached share, cumulative, quota, retention, recall and tradeoff charts per scenario (cost only when priced)', () => {
    expect(Object.keys(charts(html))).toEqual([
      'scenario-0-context',
      'scenario-0-cached',
      'scenario-0-cumulative',
      'scenario-0-quota',
      'scenario-0-retention',
      'scenario-0-recall',
      'scenario-0-tradeoff',
    ]);
    for (const id of Object.keys(charts(html))) expect(html).toContain(`<canvas data-chart="${id}"`);
    for (const spec of Object.values(charts(html))) expect(spec.config.options.animation).toBe(false);
  });

  it('draws cost per step in USD when the steps are priced', () => {
    const result = buildRunResult();
    result.units = result.units.map((unit) => ({ ...unit, steps: unit.steps.map((step) => ({ ...step, costUsd: step.promptTokens / 1e6 })) }));
    const spec = charts(page(result))['scenario-0-cost'];
    expect(spec?.format.y).toBe('usd');
    expect(spec?.config.data.datasets.map((d) => d.label)).toEqual(['full', 'rolling-window']);
  });

  it('says "no probes in this scenario" instead of drawing empty recall charts', () => {
    const bare = page(withoutProbes());
    expect(Object.keys(charts(bare))).toEqual(['scenario-0-context', 'scenario-0-cached', 'scenario-0-cumulative', 'scenario-0-quota']);
    expect(bare.match(/<p class="no-data">no probes in this scenario<\/p>/g)).toHaveLength(4);
  });

  it('lists each strategy’s actions and crash in its timeline, and the probe answers collapsed', () => {
    expect(html).toMatch(/<strong>rolling-window<\/strong> <span class="dim">1 action \(1 compact\) · 1 rate limits, waited 1\.5s<\/span>/);
    expect(html).toMatch(/6200 → 3100 <span class="dim">\(−3100\)<\/span>/);
    expect(html).toContain('over 75% of the window');
    expect(html).toMatch(/crash: overflow<\/span>.*The input token count \(9300\)/s);
    expect(html).toMatch(/<details class="probes">\n<summary>/);
    expect(html).toContain('Question of p-port?');
    expect(html).toContain('✓ correct');
    expect(html).toContain('✓ with retrieval');
  });
});

describe('chart data', () => {
  const result = buildRunResult();
  const colors = new Map([
    ['full', '#1f77b4'],
    ['rolling-window', '#ff7f0e'],
  ]);

  it('context: a curve per strategy, the window, the triggers, compaction and crash markers', () => {
    const spec = buildContextChart(result.scenarios[0], result.units, colors);
    expect(labels(spec)).toEqual(['full', 'rolling-window', 'window 8000', 'rolling-window: trigger 6000', 'compaction', 'crash']);
    const [, , , , compaction, crash] = spec.config.data.datasets;
    expect(compaction?.data).toEqual([{ x: 2, y: 3100, label: 'rolling-window: compact at step 2, 6200 → 3100' }]);
    expect(crash?.data).toEqual([{ x: 2, y: 9300, label: 'full: crashed (overflow) at step 2' }]);
    expect(spec.note).toBeUndefined();
  });

  it('context: leaves out triggers far above the window, and says so', () => {
    const far = buildRunResult();
    const rolling = far.units[1];
    if (rolling === undefined) throw new Error('fixture has two units');
    far.units[1] = { ...rolling, thresholds: [{ label: 'never', tokens: 1_000_000 }] };
    const spec = buildContextChart(far.scenarios[0], far.units, colors);
    expect(labels(spec).some((label) => label.includes('never'))).toBe(false);
    expect(spec.note).toBe('1 trigger far above the window not drawn.');
  });

  it('quota: tokens in the trailing minute, with 429s marked and the TPM line only when within reach', () => {
    const spec = buildQuotaChart(result.scenarios[0], result.units, colors);
    expect(labels(spec)).toEqual(['full', 'rolling-window', '429 rate limit']);
    expect(spec.note).toBe('Peak use 4% of the 250k TPM quota (line off the scale).');
    const info = result.scenarios[0];
    if (info === undefined) throw new Error('fixture has a scenario');
    const tight = buildQuotaChart({ ...info, tpm: 10_000 }, result.units, colors);
    expect(labels(tight)).toContain('TPM quota 10k');
    expect(buildQuotaChart({ ...info, tpm: undefined }, result.units, colors).note).toBe('No TPM quota in this scenario.');
  });

  it('trailingMinuteTokens counts ok steps sent in the last 60 s; cumulativeTokens sums everything charged', () => {
    const steps = result.units[1]?.steps ?? [];
    expect(trailingMinuteTokens(steps, 9200)).toBe(3000 + 3000 + 3100 + 700);
    expect(trailingMinuteTokens(steps, 70_000)).toBe(0);
    // The one-pass series equals the scan at every step, with steps in time order or not.
    const spread = steps.map((step, i) => ({ ...step, atMs: i * 31_000 }));
    for (const series of [steps, spread, [...spread].reverse()])
      expect(trailingMinuteSeries(series)).toEqual(series.map((step) => trailingMinuteTokens(series, step.atMs)));
    expect(cumulativeTokens(steps)).toEqual([
      { x: 0, y: 3120 },
      { x: 1, y: 6240 },
      { x: 2, y: 10_160 },
    ]);
  });

  it('meanRetention averages the probes measured at each step', () => {
    const rolling = result.units[1];
    if (rolling === undefined) throw new Error('fixture has two units');
    expect(meanRetention(rolling)).toEqual([
      { x: 0, y: 1 },
      { x: 1, y: 1 },
      { x: 2, y: 0.5 },
    ]);
  });

  it('paretoFront keeps the points nothing beats on both tokens and recall', () => {
    const point = (strategy: string, tokens: number, recall: number) => ({ strategy, tokens, recall });
    const front = paretoFront([
      point('a', 100, 0.2),
      point('b', 50, 0.2),
      point('c', 200, 0.9),
      point('d', 150, 0.5),
      point('e', 160, 0.4),
      point('f', 50, 0.1),
    ]);
    expect(front.map((p) => p.strategy)).toEqual(['b', 'd', 'c']);
    expect(paretoFront([])).toEqual([]);
  });
});
