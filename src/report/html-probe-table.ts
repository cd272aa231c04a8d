import type { ProbeAnswer, UnitResult } from '../metrics/types.js';
import { escapeHtml } from './html-escape.js';

/** Answers longer than this are cut in the cell; the full text is in the cell's tooltip. */
const ANSWER_CHARS = 280;

interface ProbeRow {
  key: string;
  first: ProbeAnswer;
  /** Each strategy's answers at this ask point (several when asked after several compactions). */
  answers: Map<string, ProbeAnswer[]>;
}

/**
 * Every probe asked, one row per probe and ask point (`end`, `after-compaction`, `step`): the
 * question, the expected answer, and each strategy's answers with their verdicts. Collapsed by
 * default; empty string when no strategy answered a probe.
 */
export function renderProbeTable(units: readonly UnitResult[]): string {
  const rows = collectRows(units);
  if (rows.length === 0) return '';
  const strategies = units.filter((unit) => (unit.probes?.answers.length ?? 0) > 0).map((unit) => unit.strategy);
  const head = ['probe', 'asked', 'question', 'expected', ...strategies].map((title) => `<th scope="col">${escapeHtml(title)}</th>`).join('');
  const body = rows.map((row) => renderRow(row, strategies)).join('\n');
  const asked = rows.reduce((n, row) => n + [...row.answers.values()].reduce((m, list) => m + list.length, 0), 0);
  return [
    '<details class="probes">',
    `<summary><strong>Probe answers</strong> <span class="dim">${rows.length} probe ask points, ${asked} answers</span></summary>`,
    '<div class="table-wrap"><table class="probe-table">',
    `<thead><tr>${head}</tr></thead>`,
    `<tbody>\n${body}\n</tbody>`,
    '</table></div>',
    '</details>',
  ].join('\n');
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

function renderRow(row: ProbeRow, strategies: readonly string[]): string {
  const { first } = row;
  const cells = [
    `<td><code>${escapeHtml(first.probeId)}</code><br><span class="dim">${escapeHtml(first.kind)}</span></td>`,
    `<td>${escapeHtml(first.askedAt)}</td>`,
    `<td class="text">${escapeHtml(first.question)}</td>`,
    `<td class="text">${escapeHtml(first.expected)}</td>`,
    ...strategies.map((strategy) => renderAnswers(row.answers.get(strategy) ?? [])),
  ];
  return `<tr>${cells.join('')}</tr>`;
}

function renderAnswers(answers: readonly ProbeAnswer[]): string {
  if (answers.length === 0) return '<td class="dim">not asked</td>';
  const items = answers.map((answer) => {
    const text = answer.answer.length > ANSWER_CHARS ? `${answer.answer.slice(0, ANSWER_CHARS)}…` : answer.answer;
    const where = answers.length > 1 || answer.askedAt !== 'end' ? `<span class="dim">step ${answer.step}</span> ` : '';
    return `<div class="answer" title="${escapeHtml(answer.reason)}">${where}${renderVerdict(answer)} ${escapeHtml(text)}</div>`;
  });
  return `<td class="text">${items.join('')}</td>`;
}

function renderVerdict(answer: ProbeAnswer): string {
  if (answer.correct) return '<span class="badge good">✓ correct</span>';
  if (answer.correctWithRetrieval) return '<span class="badge warn">✓ with retrieval</span>';
  return '<span class="badge bad">✗ wrong</span>';
}
