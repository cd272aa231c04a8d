import type { ScenarioInfo, UnitResult } from '../metrics/types.js';
import { STRESS_LABEL } from './notes.js';
import type { ChartSpec } from './html-chart-kit.js';
import { buildContextChart, buildCumulativeChart, buildQuotaChart } from './html-charts.js';
import { buildCachedShareChart, buildCostChart } from './html-charts-cost.js';
import { buildRecallByKindChart, buildRecallCurveChart, buildRetentionChart, buildTradeoffChart } from './html-charts-probes.js';
import { escapeHtml } from './html-escape.js';
import { renderProbeTable } from './html-probe-table.js';
import { renderSummaryTable } from './html-summary-table.js';
import { renderTimelines } from './html-timeline.js';
import { findNotables } from './md.js';
import { formatCount } from './terminal.js';
import { isCorpus } from '../metrics/corpus.js';
import { renderCorpusViews } from './html-corpus.js';

/** A scenario's section and the charts its canvases name. */
export interface ScenarioSection {
  html: string;
  charts: Record<string, ChartSpec>;
}

interface Panel {
  key: string;
  title: string;
  caption: string;
  spec: ChartSpec | undefined;
  /** Shown instead of an empty chart. */
  empty: string;
}

/**
 * One scenario: its settings, the notable differences, the summary table, the charts, the
 * timeline of what each strategy did and the probe answers. `id` prefixes the chart ids (it is
 * generated, never taken from the input, so it is safe in attributes).
 */
export function renderScenarioSection(
  id: string,
  name: string,
  info: ScenarioInfo | undefined,
  units: readonly UnitResult[],
  colors: Map<string, string>,
): ScenarioSection {
  if (isCorpus(units)) return renderCorpusScenario(id, name, info, units, colors);
  const panels = buildPanels(info, units, colors);
  const noProbes = panels.find((panel) => panel.key === 'retention')?.empty ?? '';
  const charts: Record<string, ChartSpec> = {};
  for (const panel of panels) if (panel.spec !== undefined) charts[`${id}-${panel.key}`] = panel.spec;
  const probeTable = renderProbeTable(units);
  const html = [
    `<section class="scenario" id="${id}">`,
    `<h2>${escapeHtml(name)}</h2>`,
    info === undefined ? '' : `<p class="scenario-meta">${describeScenario(info)}</p>`,
    renderFindings(units),
    units.length === 0 ? '<p class="dim">No strategies ran in this scenario.</p>' : renderSummaryTable(units, colors),
    `<div class="charts">\n${panels.map((panel) => renderPanel(id, panel)).join('\n')}\n</div>`,
    '<h3>What each strategy did</h3>',
    renderTimelines(units, colors),
    '<h3>Probes</h3>',
    probeTable === '' ? `<p class="dim">${noProbes}</p>` : probeTable,
    '</section>',
  ];
  return { html: html.filter((part) => part !== '').join('\n'), charts };
}

/**
 * A corpus of logs: the summary table over every log, then its aggregate views and per-log
 * drill-down (html-corpus.ts) in place of per-step charts, timelines and the table of every answer.
 */
function renderCorpusScenario(
  id: string,
  name: string,
  info: ScenarioInfo | undefined,
  units: readonly UnitResult[],
  colors: Map<string, string>,
): ScenarioSection {
  const corpus = renderCorpusViews(id, units, colors);
  const tradeoff = buildTradeoffChart(units, colors);
  const charts: Record<string, ChartSpec> = { ...corpus.charts, ...(tradeoff !== undefined ? { [`${id}-tradeoff`]: tradeoff } : {}) };
  const html = [
    `<section class="scenario" id="${id}">`,
    `<h2>${escapeHtml(name)}</h2>`,
    info === undefined ? '' : `<p class="scenario-meta">${describeScenario(info)}</p>`,
    renderFindings(units),
    renderSummaryTable(units, colors),
    tradeoff === undefined
      ? ''
      : `<div class="charts">${renderPanel(id, { key: 'tradeoff', title: 'Tokens versus recall, over every log', caption: 'Up and to the left is better. Dashed: the Pareto front (ringed points); ✕ crashed.', spec: tradeoff, empty: '' })}</div>`,
    corpus.html,
    '</section>',
  ];
  return { html: html.filter((part) => part !== '').join('\n'), charts };
}

/** The six charts, in reading order: tokens first, then quota, then recall. */
function buildPanels(info: ScenarioInfo | undefined, units: readonly UnitResult[], colors: Map<string, string>): Panel[] {
  const hasProbes = units.some((unit) => unit.probes !== undefined && (unit.probes.answers.length > 0 || unit.probes.retention.length > 0));
  const noProbes = hasProbes ? 'no probe answers in this scenario' : 'no probes in this scenario';
  return [
    {
      key: 'context',
      title: 'Context per step',
      caption: 'Tokens sent at each step. Red dashes: the window; dots in a strategy’s colour: its triggers. ▲ compaction, ◆ other action, ✕ crash.',
      spec: buildContextChart(info, units, colors),
      empty: '',
    },
    {
      key: 'cost',
      title: 'Cost per step',
      caption: 'USD of each step: prompt net of the provider’s prompt cache (cached, written, uncached), completion, the strategy’s own calls.',
      spec: buildCostChart(units, colors),
      empty: 'no price for this model (set prices: in the scenario)',
    },
    {
      key: 'cached',
      title: 'Cached share of the prompt',
      caption: 'Share of each step’s prompt the provider serves from its prompt cache (longest prefix still held, per the provider’s rules).',
      spec: buildCachedShareChart(units, colors),
      empty: '',
    },
    {
      key: 'cumulative',
      title: 'Cumulative tokens',
      caption: 'Prompt + completion + the strategy’s own calls, summed over the session.',
      spec: buildCumulativeChart(units, colors),
      empty: '',
    },
    {
      key: 'quota',
      title: 'Quota use over virtual time',
      caption: 'Prompt + own-call tokens sent in the trailing minute; ✕ a 429 (OpenAI also reserves max_tokens at admission).',
      spec: buildQuotaChart(info, units, colors),
      empty: '',
    },
    {
      key: 'retention',
      title: 'Retention over steps',
      caption: 'Share of the probes’ evidence still in the context, among evidence seen so far.',
      spec: buildRetentionChart(units, colors),
      empty: noProbes,
    },
    {
      key: 'recall-curve',
      title: 'Recall over the session',
      caption: 'Share of the valid answers right at each ask point (evidence ten steps old, after a rewrite touched it, the end).',
      spec: buildRecallCurveChart(units, colors),
      empty: noProbes,
    },
    {
      key: 'recall',
      title: 'Recall by probe kind',
      caption: 'Share of probes answered correctly (without retrieval).',
      spec: buildRecallByKindChart(units, colors),
      empty: noProbes,
    },
    {
      key: 'tradeoff',
      title: 'Tokens versus recall',
      caption: 'Up and to the left is better. Dashed: the Pareto front (ringed points); ✕ crashed.',
      spec: buildTradeoffChart(units, colors),
      empty: noProbes,
    },
  ];
}

function renderPanel(id: string, panel: Panel): string {
  const text = panel.spec?.note === undefined ? panel.caption : `${panel.caption} ${panel.spec.note}`;
  const caption = `<figcaption><strong>${escapeHtml(panel.title)}</strong><span>${escapeHtml(text)}</span></figcaption>`;
  const body =
    panel.spec === undefined
      ? `<p class="no-data">${escapeHtml(panel.empty)}</p>`
      : `<div class="canvas-box"><canvas data-chart="${id}-${panel.key}" role="img" aria-label="${escapeHtml(panel.title)}"></canvas></div>`;
  return `<figure class="chart">${caption}${body}</figure>`;
}

function renderFindings(units: readonly UnitResult[]): string {
  const findings = findNotables(units.map((unit) => unit.summary));
  if (findings.length === 0) return '';
  const items = findings.map((f) => `<li>${f.strategies.map((s) => `<strong>${escapeHtml(s)}</strong>`).join(', ')} ${escapeHtml(f.text)}</li>`);
  return `<ul class="findings">\n${items.join('\n')}\n</ul>`;
}

function describeScenario(info: ScenarioInfo): string {
  const parts = [
    info.stress === true ? `<span class="badge warn">${STRESS_LABEL}</span> ` : '',
    info.description === undefined ? '' : `${escapeHtml(info.description)}<br>`,
    `${escapeHtml(info.provider)} <code>${escapeHtml(info.model)}</code>`,
    ` · window ${formatCount(info.window)}`,
    info.tpm === undefined ? '' : ` · TPM ${formatCount(info.tpm)}`,
    info.rpm === undefined ? '' : ` · RPM ${formatCount(info.rpm)}`,
    ` · ${info.steps} steps · seed ${info.seed}`,
    info.promptCache === undefined ? '' : ` · cache ${escapeHtml(info.promptCache)}`,
    info.contextRot === undefined ? '' : ` · reader context rot <code>${escapeHtml(info.contextRot.name)}</code> (column “recall (rot)”, apart from recall)`,
    ` · <span title="${escapeHtml(info.transcript)}">${escapeHtml(info.file)}</span>`,
    info.skippedLines > 0 ? ` · <span class="badge warn">${info.skippedLines} transcript lines skipped</span>` : '',
  ];
  return parts.join('');
}
