import type { Candidate, Recommendation, Verdict } from '../metrics/recommendation.js';
import type { RunResult, UnitResult } from '../metrics/types.js';
import { escapeHtml } from './html-escape.js';
import { describeCrash } from './html-crash.js';
import { familyOf } from './html-colors.js';
import { formatPercent } from './html-summary-table.js';
import { formatCount } from './terminal.js';
import { describeChoice, describeFloor } from '../metrics/recommend-words.js';

/** How each verdict reads, and its badge. */
const VERDICTS: Record<Verdict, { text: string; badge: string }> = {
  recommended: { text: 'recommended', badge: 'good' },
  acceptable: { text: 'acceptable', badge: 'ok' },
  'unsafe-recall': { text: 'unsafe: recall', badge: 'warn' },
  crashes: { text: 'crashes', badge: 'bad' },
  'dearer-than-full': { text: 'dearer than full', badge: 'dim' },
};

/** One row of the decision table, from a candidate or (no recommendation) from summary rows. */
interface DecisionRow {
  rank: number;
  strategy: string;
  settings: Record<string, unknown>;
  verdict?: Verdict;
  reason: string;
  costUsd: number | null;
  costVsFull: number | null;
  totalTokens: number;
  saving: number | null;
  answerRecall: number | null;
  peak: number;
  crashes: number;
}

/**
 * The decision, first thing on the page: the strategy to ship and why, then every strategy ranked
 * by the objective with its verdict and the reason in words. From `result.recommendation` when the
 * run computed one; otherwise (a result.json of an older ctxbench) the same table from the summary
 * rows, ranked by cost (tokens when unpriced), without verdicts.
 */
export function renderDecision(result: RunResult, colors: Map<string, string>): string {
  const rec = result.recommendation;
  const rows = rec === undefined ? rowsFromSummaries(result.units) : rowsFromCandidates(rec, result.units);
  if (rows.length === 0) return '';
  return [
    '<section class="decision" id="decision">',
    `<h2>Decision</h2>`,
    `<p class="verdict-line">${rec === undefined ? describeUnranked(result) : describeRecommendation(rec)}</p>`,
    '<div class="table-wrap"><table class="decision-table">',
    '<thead><tr><th scope="col">#</th><th scope="col" class="sticky">strategy</th><th scope="col">verdict</th><th scope="col" class="num">cost</th><th scope="col" class="num">vs full</th><th scope="col" class="num">recall</th><th scope="col" class="num">tokens saved</th><th scope="col" class="num">peak context</th><th scope="col" class="num">crashes</th><th scope="col" class="reason">why</th></tr></thead>',
    `<tbody>\n${rows.map((row) => renderRow(row, colors.get(row.strategy) ?? '#111827')).join('\n')}\n</tbody>`,
    '</table></div>',
    '</section>',
  ].join('\n');
}

function describeRecommendation(rec: Recommendation): string {
  const objective = { cost: 'the lowest cost', tokens: 'the fewest tokens', peak: 'the smallest peak context' }[rec.objective];
  const floor = describeFloor(rec.constraints.minRecall);
  const rule = `${objective}, ${floor}, at most ${rec.constraints.maxCrashes} crash${rec.constraints.maxCrashes === 1 ? '' : 'es'} where another strategy completes; over scenarios: ${rec.aggregate}`;
  if (rec.strategy === null) return `<strong>Nothing completes.</strong> ${escapeHtml(rec.reason)} <span class="dim">(${escapeHtml(rule)})</span>`;
  if (rec.meetsFloor === false)
    return `Closest: <strong>${escapeHtml(label(rec.strategy, rec.settings))}</strong> (it does not meet the floor): ${escapeHtml(rec.reason)}. <span class="dim">Objective: ${escapeHtml(rule)}.</span>`;
  const runnerUp = rec.runnerUp === null ? '' : ` Runner-up: <strong>${escapeHtml(label(rec.runnerUp.strategy, rec.runnerUp.settings))}</strong>.`;
  return `Ship <strong>${escapeHtml(label(rec.strategy, rec.settings))}</strong>: ${escapeHtml(rec.reason)}.${runnerUp} <span class="dim">Objective: ${escapeHtml(rule)}.</span>`;
}

function describeUnranked(result: RunResult): string {
  const scenarios = new Set(result.units.map((unit) => unit.scenario)).size;
  const priced = result.units.every((unit) => unit.summary.cost_usd !== null);
  const over = scenarios > 1 ? ` summed over ${scenarios} scenarios (recall: their mean)` : '';
  return `<span class="dim">This result carries no recommendation (written by an older ctxbench): strategies ranked by ${priced ? 'cost' : 'total tokens (no price)'}${over}, without verdicts.</span>`;
}

function rowsFromCandidates(rec: Recommendation, units: readonly UnitResult[]): DecisionRow[] {
  const saving = averageBy(units, (unit) => unit.summary.saving_vs_full);
  const costVsFull = averageBy(units, (unit) => unit.summary.cost_vs_full);
  return [...rec.candidates]
    .sort((a, b) => a.rank - b.rank)
    .map((c: Candidate) => ({
      rank: c.rank,
      strategy: c.strategy,
      settings: c.settings,
      verdict: c.verdict,
      reason: c.reason,
      costUsd: c.costUsd,
      costVsFull: costVsFull.get(c.strategy) ?? null,
      totalTokens: c.totalTokens,
      saving: saving.get(c.strategy) ?? null,
      answerRecall: c.answerRecall,
      peak: c.peakContextTokens,
      crashes: c.crashes,
    }));
}

/** Per strategy: cost and tokens summed over scenarios, recall and savings their mean; ranked by cost, else tokens. */
function rowsFromSummaries(units: readonly UnitResult[]): DecisionRow[] {
  const strategies = [...new Set(units.map((unit) => unit.strategy))];
  const rows = strategies.map((strategy): Omit<DecisionRow, 'rank'> => {
    const mine = units.filter((unit) => unit.strategy === strategy);
    const costs = mine.map((unit) => unit.summary.cost_usd);
    const crashed = mine.filter((unit) => unit.summary.crashed);
    return {
      strategy,
      settings: {},
      reason: crashed.map((unit) => describeCrash(unit) ?? '').join('; '),
      costUsd: costs.some((cost) => cost === null) ? null : costs.reduce((a: number, b) => a + (b ?? 0), 0),
      costVsFull: mean(mine.map((unit) => unit.summary.cost_vs_full)),
      totalTokens: mine.reduce((n, unit) => n + unit.summary.total_tokens, 0),
      saving: mean(mine.map((unit) => unit.summary.saving_vs_full)),
      answerRecall: mean(mine.map((unit) => unit.summary.answer_recall)),
      peak: mine.reduce((n, unit) => Math.max(n, unit.summary.peak_context_tokens), 0),
      crashes: mine.reduce((n, unit) => n + (unit.summary.crashed_logs ?? (unit.summary.crashed ? 1 : 0)), 0),
    };
  });
  const key = (row: Omit<DecisionRow, 'rank'>): number => row.costUsd ?? row.totalTokens;
  return rows
    .map((row, order) => ({ row, order }))
    .sort((a, b) => key(a.row) - key(b.row) || a.order - b.order)
    .map(({ row }, i) => ({ ...row, rank: i + 1 }));
}

function averageBy(units: readonly UnitResult[], value: (unit: UnitResult) => number | null): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const strategy of new Set(units.map((unit) => unit.strategy))) out.set(strategy, mean(units.filter((unit) => unit.strategy === strategy).map(value)));
  return out;
}

function mean(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
}

function label(strategy: string, settings: Record<string, unknown>): string {
  return describeChoice({ strategy, settings });
}

function renderRow(row: DecisionRow, color: string): string {
  const verdict =
    row.verdict === undefined ? '<span class="dim">–</span>' : `<span class="badge ${VERDICTS[row.verdict].badge}">${VERDICTS[row.verdict].text}</span>`;
  const cost = row.costUsd === null ? '–' : `$${row.costUsd < 1 ? row.costUsd.toFixed(4) : row.costUsd.toFixed(2)}`;
  const vsFull = row.costVsFull === null ? '–' : `${row.costVsFull > 0 ? '+' : ''}${Math.round(row.costVsFull * 100)}%`;
  const classes = [
    row.verdict === 'recommended' ? 'recommended' : '',
    row.verdict === undefined || row.verdict === 'recommended' || row.verdict === 'acceptable' ? '' : 'excluded',
  ].filter((c) => c !== '');
  return [
    `<tr data-strategy="${escapeHtml(row.strategy)}"${classes.length > 0 ? ` class="${classes.join(' ')}"` : ''}>`,
    `<td class="num">${row.rank}</td>`,
    `<th scope="row" class="sticky" title="family: ${escapeHtml(familyOf(row.strategy))}"><span class="swatch" style="background:${color}"></span>${escapeHtml(label(row.strategy, row.settings))}</th>`,
    `<td>${verdict}</td>`,
    `<td class="num">${cost}</td>`,
    `<td class="num">${vsFull}</td>`,
    `<td class="num">${formatPercent(row.answerRecall)}</td>`,
    `<td class="num">${formatPercent(row.saving)}</td>`,
    `<td class="num">${formatCount(row.peak)}</td>`,
    `<td class="num">${row.crashes}</td>`,
    `<td class="reason">${escapeHtml(row.reason)}</td>`,
    '</tr>',
  ].join('');
}
