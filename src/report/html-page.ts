import type { RunResult } from '../metrics/types.js';
import type { ChartSpec } from './html-chart-kit.js';
import { assignColors } from './html-colors.js';
import { CLIENT_SCRIPT } from './html-client.js';
import { embedJson, escapeHtml, inlineScript } from './html-escape.js';
import { renderOverview } from './html-overview.js';
import { renderScenarioSection } from './html-scenario.js';
import { STYLE } from './html-style.js';
import { describePartial, describeSeed, runSeeds } from './notes.js';
import { renderHtmlDocument } from './html-document.js';
import { renderDecision } from './html-decision.js';

/**
 * The whole report as one self-contained HTML document: Chart.js (`chartScript`, its UMD source)
 * and the page's script inlined, chart data as JSON, no URL to fetch. The Content-Security-Policy
 * forbids every request and runs only the two inline scripts, by hash: even text that escaped
 * escaping could neither execute nor load anything. Pure: the same inputs give the same bytes.
 */
export function renderHtmlPage(result: RunResult, chartScript: string): string {
  const colors = assignColors(result.units.map((unit) => unit.strategy));
  const charts: Record<string, ChartSpec> = {};
  const names = scenarioNames(result);
  const ids = new Map(names.map((name, index) => [name, `scenario-${index}`]));
  const overview = renderOverview(result, names, ids, colors);
  Object.assign(charts, overview.charts);
  const sections = names.map((name) => {
    const units = result.units.filter((unit) => unit.scenario === name);
    const section = renderScenarioSection(
      ids.get(name) ?? '',
      name,
      result.scenarios.find((s) => s.name === name),
      units,
      colors,
    );
    Object.assign(charts, section.charts);
    return section.html;
  });
  return renderHtmlDocument({
    title: pageTitle(result),
    style: STYLE,
    scripts: [inlineScript(chartScript), CLIENT_SCRIPT],
    body: [
      renderHeader(result),
      '<main>',
      renderDecision(result, colors),
      renderHighlighter(result, colors),
      overview.html,
      ...sections,
      '</main>',
      `<footer>ctxbench ${escapeHtml(result.tool.version)} · result schema ${result.schemaVersion} · token counts and times are deterministic for the seed; time is virtual, not wall-clock.</footer>`,
      `<script type="application/json" id="ctxbench-charts">${embedJson(charts)}</script>`,
    ],
  });
}

/** The strategies every chart draws strong from the start: the recommended one and the baselines. */
function emphasized(result: RunResult): string[] {
  const labels = new Set(result.units.map((unit) => unit.strategy));
  const wanted = [result.recommendation?.strategy ?? undefined, result.recommendation?.runnerUp?.strategy, 'full', 'recorded'];
  return wanted.filter((label): label is string => label !== undefined && labels.has(label));
}

/**
 * A button per strategy: pressed ones are drawn strong in every chart and the rest faded (the
 * page's script applies it). The recommended strategy and the baselines start pressed; a click on
 * a chart's legend hides or shows a curve as usual. Left out for runs of four strategies or fewer,
 * whose charts read well as they are.
 */
function renderHighlighter(result: RunResult, colors: Map<string, string>): string {
  const strategies = [...colors.keys()];
  if (strategies.length <= 4) return '';
  const strong = new Set(emphasized(result));
  const buttons = strategies.map(
    (label) =>
      `<button type="button" class="chip" data-strategy="${escapeHtml(label)}" aria-pressed="${strong.has(label) ? 'true' : 'false'}"><span class="swatch" style="background:${colors.get(label) ?? '#111827'}"></span>${escapeHtml(label)}</button>`,
  );
  return `<nav class="highlight" aria-label="strategies drawn strong in the charts"><span class="dim">Charts draw strong:</span> ${buttons.join('')}</nav>`;
}

function renderHeader(result: RunResult): string {
  const strategies = [...new Set(result.units.map((unit) => unit.strategy))];
  const names = scenarioNames(result);
  const seeds = runSeeds(result);
  const meta: [string, string][] = [
    [seeds.length === 1 ? 'seed' : 'seeds', seeds.join(', ')],
    ['ctxbench', result.tool.version],
    ['providers', result.mode === 'mock' ? 'mock (simulated)' : 'live'],
    ['scenarios', String(names.length)],
    ['strategies', String(strategies.length)],
    ...(result.redaction === 'off' ? [['redaction', 'off (--no-redact): secrets in transcripts are not masked'] as [string, string]] : []),
  ];
  return [
    '<header class="page">',
    '<h1>ctxbench report</h1>',
    `<dl class="meta">${meta.map(([key, value]) => `<div><dt>${key}</dt><dd>${escapeHtml(value)}</dd></div>`).join('')}</dl>`,
    ...(result.partial !== undefined ? [`<p class="banner warn" role="alert">${escapeHtml(describePartial(result.partial))}</p>`] : []),
    '</header>',
  ].join('\n');
}

function pageTitle(result: RunResult): string {
  const names = scenarioNames(result);
  return `ctxbench · ${names.length === 1 ? (names[0] ?? '') : `${names.length} scenarios`} · ${describeSeed(result)}`;
}

function scenarioNames(result: RunResult): string[] {
  const names = result.scenarios.map((scenario) => scenario.name);
  for (const unit of result.units) if (!names.includes(unit.scenario)) names.push(unit.scenario);
  return names;
}
