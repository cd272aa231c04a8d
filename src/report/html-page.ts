import type { RunResult } from '../metrics/types.js';
import type { ChartSpec } from './html-chart-kit.js';
import { assignColors } from './html-colors.js';
import { CLIENT_SCRIPT } from './html-client.js';
import { embedJson, escapeHtml, inlineScript } from './html-escape.js';
import { renderOverview } from './html-overview.js';
import { renderScenarioSection } from './html-scenario.js';
import { STYLE } from './html-style.js';
import { describePartial } from './notes.js';
import { renderHtmlDocument } from './html-document.js';

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
      overview.html,
      ...sections,
      '</main>',
      `<footer>ctxbench ${escapeHtml(result.tool.version)} · result schema ${result.schemaVersion} · token counts and times are deterministic for the seed; time is virtual, not wall-clock.</footer>`,
      `<script type="application/json" id="ctxbench-charts">${embedJson(charts)}</script>`,
    ],
  });
}

function renderHeader(result: RunResult): string {
  const strategies = [...new Set(result.units.map((unit) => unit.strategy))];
  const names = scenarioNames(result);
  const meta: [string, string][] = [
    ['seed', String(result.seed)],
    ['ctxbench', result.tool.version],
    ['providers', result.mode === 'mock' ? 'mock (simulated)' : 'live'],
    ['scenarios', String(names.length)],
    ['strategies', strategies.join(', ')],
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
  return `ctxbench · ${names.length === 1 ? (names[0] ?? '') : `${names.length} scenarios`} · seed ${result.seed}`;
}

function scenarioNames(result: RunResult): string[] {
  const names = result.scenarios.map((scenario) => scenario.name);
  for (const unit of result.units) if (!names.includes(unit.scenario)) names.push(unit.scenario);
  return names;
}
