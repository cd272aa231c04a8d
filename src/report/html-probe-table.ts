import { PROBE_OUTCOMES, type ProbeAnswer, type UnitResult } from '../metrics/types.js';
import { escapeHtml } from './html-escape.js';

/** Answers longer than this are cut in the cell; the full text is in the cell's tooltip. */
const ANSWER_CHARS = 240;

interface ProbeRow {
  key: string;
  first: ProbeAnswer;
  /** Each strategy's answers at this ask point (several when asked after several compactions). */
  answers: Map<string, ProbeAnswer[]>;
}

/**
 * Every probe asked, grouped by probe and ask point (`end`, `after-compaction`, `step`): the
 * question and the expected answer, then one line per strategy with the step it was asked at, the
 * verdict and the answer. Collapsed by default; empty string when no strategy answered a probe.
 */
export function renderProbeTable(units: readonly UnitResult[]): string {
  const rows = collectRows(units);
  if (rows.length === 0) return '';
  const strategies = units.filter((unit) => (unit.probes?.answers.length ?? 0) > 0).map((unit) => unit.strategy);
  const head = ['probe', 'question', 'expected', 'strategy', 'step', 'verdict', 'answer'].map((title) => `<th scope="col">${title}</th>`).join('');
  const body = rows.map((row) => renderGroup(row, strategies)).join('\n');
  const answers = rows.reduce((n, row) => n + [...row.answers.values()].reduce((m, list) => m + list.length, 0), 0);
  return [
    renderOutcomeShares(units),
    '<details class="probes">',
    `<summary><strong>Probe answers</strong> <span class="dim">${rows.length} probes asked, ${answers} answers; hover a verdict for the grader’s reason</span></summary>`,
    '<div class="table-wrap"><table class="probe-table">',
    `<thead><tr>${head}</tr></thead>`,
    body,
    '</table></div>',
    '</details>',
  ].join('\n');
}

/**
 * Per strategy, the share of its ask points in each outcome class (kept … unanswered) and how many
 * were invalid (the reader failed on `full`'s context there): why a strategy's recall fell.
 */
function renderOutcomeShares(units: readonly UnitResult[]): string {
  const rows = units.flatMap((unit) => {
    const answers = unit.probes?.answers ?? [];
    const outcomes = unit.probes?.outcomes;
    if (answers.length === 0 || outcomes === undefined) return [];
    const cells = PROBE_OUTCOMES.map((outcome) => {
      const share = outcomes[outcome] / answers.length;
      return `<td class="num" title="${outcomes[outcome]} of ${answers.length}">${share === 0 ? '–' : `${Math.round(share * 100)} %`}</td>`;
    });
    const invalid = answers.filter((a) => a.invalid === true).length;
    return [`<tr><th scope="row">${escapeHtml(unit.strategy)}</th>${cells.join('')}<td class="num">${answers.length}</td><td class="num">${invalid}</td></tr>`];
  });
  if (rows.length === 0) return '';
  const mix = units.find((unit) => unit.probes?.mix !== undefined)?.probes?.mix;
  const head = ['strategy', ...PROBE_OUTCOMES, 'ask points', 'invalid'].map((title) => `<th scope="col">${title}</th>`).join('');
  return [
    '<div class="table-wrap"><table class="probe-outcomes">',
    '<caption>What each strategy’s context held of the probes’ facts at their ask points (share of ask points; invalid ones, which the reader missed on <code>full</code>’s context, are counted but left out of recall)</caption>',
    `<thead><tr>${head}</tr></thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table></div>',
    mix === undefined ? '' : `<p class="dim">${escapeHtml(describeMix(mix))}</p>`,
  ].join('\n');
}

/** `20 probes: 7 recall, 5 artifact, …; evidence in tool output 12, in the agent's own words 8`. */
function describeMix(mix: NonNullable<NonNullable<UnitResult['probes']>['mix']>): string {
  const kinds = Object.entries(mix.kinds).map(([kind, n]) => `${n} ${kind}`);
  const total = mix.sources.output + mix.sources.agent;
  return `${total} probes: ${kinds.join(', ')}; evidence in tool output ${mix.sources.output}, in the agent’s own words ${mix.sources.agent}`;
}

function collectRows(units: readonly UnitResult[]): ProbeRow[] {
  const rows = new Map<string, ProbeRow>();
  for (const unit of units) {
    for (const answer of unit.probes?.answers ?? []) {
      const key = `${answer.probeId}\u0000${answer.askedAt}`;
      const row = rows.get(key) ?? { key, first: answer, answers: new Map<string, ProbeAnswer[]>() };
      row.answers.set(unit.strategy, [...(row.answers.get(unit.strategy) ?? []), answer]);
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}

/** One `<tbody>` per probe: the probe's cells span the lines of its answers. */
function renderGroup(row: ProbeRow, strategies: readonly string[]): string {
  const { first } = row;
  const lines = strategies.flatMap((strategy) => {
    const answers = row.answers.get(strategy) ?? [];
    if (answers.length === 0) return [`<th scope="row">${escapeHtml(strategy)}</th><td></td><td class="dim">not asked</td><td></td>`];
    return answers.map((answer) => `<th scope="row">${escapeHtml(strategy)}</th>${renderAnswer(answer)}`);
  });
  const span = ` rowspan="${lines.length}"`;
  const probe = [
    `<td${span}><code>${escapeHtml(first.probeId)}</code><br><span class="dim">${escapeHtml(first.kind)} · asked ${escapeHtml(first.askedAt)}</span></td>`,
    `<td${span} class="text">${escapeHtml(first.question)}</td>`,
    `<td${span} class="text">${escapeHtml(first.expected)}</td>`,
  ].join('');
  return `<tbody>\n${lines.map((line, i) => `<tr>${i === 0 ? probe : ''}${line}</tr>`).join('\n')}\n</tbody>`;
}

function renderAnswer(answer: ProbeAnswer): string {
  const text = answer.answer.length > ANSWER_CHARS ? `${answer.answer.slice(0, ANSWER_CHARS)}…` : answer.answer;
  return [
    `<td class="num">${answer.step}</td>`,
    `<td title="${escapeHtml(answer.reason)}">${renderVerdict(answer)}</td>`,
    // The full answer is in probes.csv; a cut one keeps it in the tooltip.
    `<td class="text answer"${text === answer.answer ? '' : ` title="${escapeHtml(answer.answer)}"`}>${escapeHtml(text)}</td>`,
  ].join('');
}

function renderVerdict(answer: ProbeAnswer): string {
  const outcome = answer.outcome === undefined ? '' : ` <span class="dim">${escapeHtml(answer.outcome)}${answer.invalid === true ? ', invalid' : ''}</span>`;
  // With reader.contextRot on: a correct read the context's length cost (reported apart from recall).
  const rot =
    answer.rot !== undefined && answer.correct && !answer.rot.correct
      ? ` <span class="badge warn" title="the reader retrieves evidence at this length with p = ${answer.rot.probability}">lost to context rot</span>`
      : '';
  return `${renderGrade(answer)}${outcome}${rot}`;
}

function renderGrade(answer: ProbeAnswer): string {
  if (answer.unanswered === true) return '<span class="badge">not reached</span>';
  if (answer.correct) return '<span class="badge good">✓ correct</span>';
  if (answer.correctWithRetrieval) return '<span class="badge warn">✓ with retrieval</span>';
  return '<span class="badge bad">✗ wrong</span>';
}
