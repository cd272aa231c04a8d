import { describePartial, describeSeed, describeSkipped, STRESS_LABEL } from './notes.js';
import { escapeControl } from '../control-chars.js';
import { strategyCrashReasons } from '../metrics/crash-reasons.js';
import type { RunResult, ScenarioInfo, SummaryRow } from '../metrics/types.js';
import type { Recommendation } from '../metrics/recommendation.js';
import { recommendationBlock } from './recommendation-block.js';
import { formatCount, formatDuration } from './terminal.js';
import type { ReportFile, Reporter } from './types.js';
import { formatCostCell } from './format-cost.js';
import { maxOf } from '../stats.js';

/** A difference worth a line under the table; `text` follows the strategy names. */
export interface Finding {
  kind: 'crash' | 'saving' | 'recall' | 'rate-limit';
  strategies: string[];
  text: string;
}

interface Column {
  title: string;
  align: 'left' | 'right';
  cell(row: SummaryRow): string;
}

const COLUMNS: Column[] = [
  { title: 'strategy', align: 'left', cell: (r) => escapeMarkdown(r.strategy) },
  { title: 'done', align: 'right', cell: (r) => `${r.steps_completed}/${r.steps}` },
  {
    title: 'crash',
    align: 'left',
    // Over several logs: the kind, and how many of the logs crashed.
    cell: (r) =>
      !r.crashed
        ? '–'
        : r.logs !== null
          ? `**${escapeMarkdown(r.crash_kind ?? 'crash')} in ${r.crashed_logs ?? '?'}/${r.logs} logs**`
          : `**${escapeMarkdown(r.crash_kind ?? 'crash')} @ ${r.crash_step ?? '?'}**`,
  },
  { title: 'total tokens', align: 'right', cell: (r) => formatCount(r.total_tokens) },
  { title: 'peak ctx', align: 'right', cell: (r) => formatCount(r.peak_context_tokens) },
  { title: 'saving', align: 'right', cell: (r) => `${percent(r.saving_vs_full)}${interval(r.saving_ci_low, r.saving_ci_high)}` },
  {
    title: 'cost (vs full)',
    align: 'right',
    cell: (r) => `${formatCostCell(r.cost_usd, r.cost_vs_full) ?? '–'}${interval(r.cost_vs_full_ci_low, r.cost_vs_full_ci_high, true)}`,
  },
  { title: '429s', align: 'right', cell: (r) => String(r.rate_limit_hits) },
  { title: 'wait', align: 'right', cell: (r) => formatDuration(r.wait_ms) },
  { title: 'compactions', align: 'right', cell: (r) => String(r.compactions) },
  { title: 'retention', align: 'right', cell: (r) => percent(r.retention) },
  { title: 'recall', align: 'right', cell: (r) => `${percent(r.answer_recall)}${interval(r.answer_recall_ci_low, r.answer_recall_ci_high)}` },
  { title: 'unanswered', align: 'right', cell: (r) => (r.unanswered === null ? '–' : String(r.unanswered)) },
];

/** Beside recall, only when the reader's context-length effect was on: recall under it, reported apart. */
const ROT_COLUMN: Column = { title: 'recall (context rot)', align: 'right', cell: (r) => percent(r.answer_recall_rot ?? null) };

/**
 * Beside recall, when needed facts were measured: the share of needed uses the context held, with
 * its interval over logs, and how many uses were reached (docs/probes.md, "Needed recall").
 */
const NEEDED_COLUMN: Column = {
  title: 'needed recall (uses)',
  align: 'right',
  cell: (r) => `${percent(r.needed_recall)}${interval(r.needed_recall_ci_low, r.needed_recall_ci_high)} (${r.needed_facts ?? '–'})`,
};

/** The columns beside recall that some row measured. */
function besideRecall(rows: readonly SummaryRow[]): Column[] {
  return [
    ...(rows.some((row) => row.answer_recall_rot !== undefined) ? [ROT_COLUMN] : []),
    ...(rows.some((row) => row.needed_facts !== null) ? [NEEDED_COLUMN] : []),
  ];
}

/** GitHub refuses comments over 65,536 characters; stay clear of it. */
export const MARKDOWN_LIMIT = 60_000;

/**
 * `summary.md`: per scenario the summary table and the notable differences (crashes, biggest
 * saving, best recall, most 429s). Sized for a pull-request comment or `$GITHUB_STEP_SUMMARY`:
 * a run too big for one drops the tables and keeps the differences, then drops whole scenarios,
 * saying so. Every name from the input is escaped so it cannot break the table.
 */
export function renderMarkdown(result: RunResult): ReportFile[] {
  const strategies = new Set(result.units.map((unit) => unit.strategy));
  const header = [
    `## ctxbench: ${plural(result.scenarios.length, 'scenario')} × ${plural(strategies.size, 'strategy', 'strategies')}`,
    '',
    `${describeSeed(result)} · ctxbench ${escapeMarkdown(result.tool.version)} · ${result.mode} providers`,
    ...[
      result.partial !== undefined ? describePartial(result.partial) : undefined,
      describeSkipped(result),
      result.redaction === 'off' ? 'redaction off (--no-redact): secrets are not masked' : undefined,
    ]
      .filter((line) => line !== undefined)
      .map((line) => `\n> **${escapeMarkdown(line)}**`),
    ...(result.recommendation !== undefined ? ['', renderRecommendation(result.recommendation)] : []),
  ].join('\n');
  const render = (tables: boolean): string[] =>
    scenarioNames(result).map((name) => {
      const units = result.units.filter((unit) => unit.scenario === name);
      const reasons = strategyCrashReasons(units).map((r) => `- **${escapeMarkdown(r.strategy)}** crashed: ${escapeMarkdown(r.text)}`);
      return [
        ...renderScenario(
          name,
          result.scenarios.find((s) => s.name === name),
          units.map((unit) => unit.summary),
          tables,
        ),
        ...reasons,
      ].join('\n');
    });
  let blocks = render(true);
  let note = '';
  if (measure(header, blocks) > MARKDOWN_LIMIT) {
    blocks = render(false);
    note = '_Tables left out to fit a pull-request comment: see summary.csv or index.html._';
  }
  const kept = fitBlocks(header.length + note.length, blocks);
  if (kept.length < blocks.length) note = `${note}\n\n_${blocks.length - kept.length} more scenarios in summary.csv._`.trim();
  const contents = [header, ...(note === '' ? [] : [note]), ...kept].join('\n\n');
  // Text from transcripts (a model's name, a crash reason) can hold ESC sequences: never raw in the file.
  return [{ file: 'summary.md', contents: escapeControl(`${contents}\n`) }];
}

/** The decision first (issue 27): what to ship and why, the runner-up, what was excluded and why. */
function renderRecommendation(recommendation: Recommendation): string {
  const block = recommendationBlock(recommendation);
  const bullets = [
    ...(block.runnerUp !== null ? [`runner-up: ${escapeMarkdown(block.runnerUp)}`] : []),
    ...(block.excluded.length > 0 ? [`excluded: ${block.excluded.map(escapeMarkdown).join('; ')}`] : []),
    ...block.disagreements.map((line) => `scenarios disagree: ${escapeMarkdown(line)}`),
  ];
  return [
    `### Recommendation: ${escapeMarkdown(block.headline)}`,
    '',
    escapeMarkdown(block.why),
    ...(bullets.length > 0 ? ['', ...bullets.map((b) => `- ${b}`)] : []),
  ].join('\n');
}

function measure(header: string, blocks: readonly string[]): number {
  return blocks.reduce((n, block) => n + block.length + 2, header.length);
}

/** The leading blocks that fit under the limit with `used` characters already taken. */
function fitBlocks(used: number, blocks: readonly string[]): string[] {
  const kept: string[] = [];
  let total = used + 200; // room for the note on what was left out
  for (const block of blocks) {
    total += block.length + 2;
    if (total > MARKDOWN_LIMIT) break;
    kept.push(block);
  }
  return kept;
}

function renderScenario(name: string, info: ScenarioInfo | undefined, rows: readonly SummaryRow[], table: boolean): string[] {
  const lines = [`### ${escapeMarkdown(name)}`, ''];
  if (info !== undefined) lines.push(describeScenario(info), '');
  if (rows.length === 0) return [...lines, '_No strategies ran._'];
  if (table) {
    const beside = besideRecall(rows);
    const columns = COLUMNS.flatMap((c) => (c.title === 'recall' ? [c, ...beside] : [c]));
    lines.push(
      `| ${columns.map((c) => c.title).join(' | ')} |`,
      `| ${columns.map((c) => (c.align === 'left' ? ':--' : '--:')).join(' | ')} |`,
      ...rows.map((row) => `| ${columns.map((c) => c.cell(row)).join(' | ')} |`),
      '',
    );
  }
  const findings = findNotables(rows);
  if (findings.length === 0) return [...lines, 'No crashes, no rate limits, no probe differences.'];
  return [...lines, ...findings.map((f) => `- ${f.strategies.map((s) => `**${escapeMarkdown(s)}**`).join(', ')} ${escapeMarkdown(f.text)}`)];
}

/**
 * The differences a reviewer should not miss, in this order: every crash (strategies that crashed
 * the same way at the same step share a line), the biggest saving against `full` (among
 * strategies that did not crash), the best answer recall (or, when the best is 0 %, that no
 * probe was answered), the most 429s. Ties name every strategy tied.
 */
export function findNotables(rows: readonly SummaryRow[]): Finding[] {
  const findings: Finding[] = groupCrashes(rows);
  const finished = rows.filter((row) => !row.crashed);
  const saving = leaders(finished, (row) => row.saving_vs_full);
  if (saving !== undefined && saving.value > 0) {
    findings.push({
      kind: 'saving',
      strategies: saving.strategies,
      text: `${verb(saving, 'saves', 'save')} the most against full: ${percent(saving.value)} fewer tokens${recallCaveat(rows, saving.strategies)}`,
    });
  }
  const recall = leaders(rows, (row) => row.answer_recall);
  // A top score of 0 % is no one's achievement: say that nothing was answered, praise no one.
  if (recall !== undefined && recall.value > 0)
    findings.push({ kind: 'recall', strategies: recall.strategies, text: `${verb(recall, 'has', 'have')} the best answer recall: ${percent(recall.value)}` });
  else if (recall !== undefined)
    findings.push({ kind: 'recall', strategies: recall.strategies, text: `${verb(recall, 'answers', 'answer')} no probe correctly (answer recall 0%)` });
  const limits = leaders(rows, (row) => row.rate_limit_hits);
  if (limits !== undefined && limits.value > 0) {
    const wait = maxOf(rows.filter((row) => limits.strategies.includes(row.strategy)).map((row) => row.wait_ms));
    const each = limits.strategies.length > 1 ? ' each' : '';
    findings.push({
      kind: 'rate-limit',
      strategies: limits.strategies,
      text: `hit the most 429s: ${limits.value}${each}, waiting up to ${formatDuration(wait)}`,
    });
  }
  return findings;
}

/**
 * A saving is no praise when it was bought with recall: `, but recall 10% vs full's 85%` when a
 * leader answers more than 5 points worse than `full` (the recommendation's default floor).
 */
function recallCaveat(rows: readonly SummaryRow[], strategies: readonly string[]): string {
  const full = rows.find((row) => row.strategy === 'full')?.answer_recall ?? null;
  if (full === null) return '';
  const worst = rows.filter((row) => strategies.includes(row.strategy) && row.answer_recall !== null && row.answer_recall < full - 0.05);
  const lowest = worst.reduce<number | null>((low, row) => (low === null || (row.answer_recall ?? 1) < low ? row.answer_recall : low), null);
  return lowest === null ? '' : `, but recall ${percent(lowest)} vs full's ${percent(full)}`;
}

function groupCrashes(rows: readonly SummaryRow[]): Finding[] {
  const groups = new Map<string, Finding>();
  for (const row of rows.filter((r) => r.crashed)) {
    // Over several logs the unit's steps run on from log to log: a step of them all means nothing to a reader.
    const text =
      row.logs !== null
        ? `crashed (${row.crash_kind ?? 'unknown'}) on ${row.crashed_logs ?? '?'} of ${row.logs} logs`
        : `crashed (${row.crash_kind ?? 'unknown'}) at step ${row.crash_step ?? '?'} of ${row.steps}`;
    const group = groups.get(text) ?? { kind: 'crash', strategies: [], text };
    group.strategies.push(row.strategy);
    groups.set(text, group);
  }
  return [...groups.values()];
}

/** The rows with the highest measured value, or `undefined` when nothing was measured. */
function leaders(rows: readonly SummaryRow[], value: (row: SummaryRow) => number | null): { strategies: string[]; value: number } | undefined {
  const measured = rows.flatMap((row) => {
    const v = value(row);
    return v === null ? [] : [{ strategy: row.strategy, value: v }];
  });
  if (measured.length === 0) return undefined;
  const top = maxOf(measured.map((m) => m.value));
  return { strategies: measured.filter((m) => m.value === top).map((m) => m.strategy), value: top };
}

function describeScenario(info: ScenarioInfo): string {
  const parts = [`${escapeMarkdown(info.provider)} ${escapeMarkdown(info.model)}`, `window ${formatCount(info.window)}`];
  if (info.stress === true) parts.unshift(STRESS_LABEL);
  if (info.tpm !== undefined && info.tpm > 0) parts.push(`TPM ${formatCount(info.tpm)}`);
  parts.push(`${info.steps} steps`, `seed ${info.seed}`);
  if (info.logs !== undefined && info.logs > 1) parts.push(`${info.logs} logs ([low, high]: 95 % bootstrap interval over them)`);
  if (info.promptCache !== undefined) parts.push(`cache ${escapeMarkdown(info.promptCache)}`);
  if (info.contextRot !== undefined) parts.push(`reader context rot ${escapeMarkdown(info.contextRot.name)} (recall under it reported apart)`);
  return parts.join(' · ');
}

function scenarioNames(result: RunResult): string[] {
  const names = result.scenarios.map((scenario) => scenario.name);
  for (const unit of result.units) if (!names.includes(unit.scenario)) names.push(unit.scenario);
  return names;
}

/**
 * Text made inert in GitHub-flavoured Markdown: table pipes, emphasis, code, links and HTML
 * (GitHub renders inline HTML) are escaped, line breaks become spaces.
 */
export function escapeMarkdown(text: string): string {
  return escapeControl(text)
    .replace(/\r?\n|\r/g, ' ')
    .replace(/[\\`*_[\]|#~!]/g, (char) => `\\${char}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function percent(fraction: number | null): string {
  return fraction === null ? '–' : `${Math.round(fraction * 100)}%`;
}

/**
 * ` [23, 33]`: the 95 % bootstrap interval over a scenario's logs, in percent (signed for a
 * change against full); empty when there is none (one log, or a result written before them).
 */
function interval(low: number | null | undefined, high: number | null | undefined, signed = false): string {
  if (low == null || high == null) return '';
  const show = (v: number): string => {
    const pct = Math.round(v * 100);
    return signed && pct > 0 ? `+${pct}` : String(pct);
  };
  return ` [${show(low)}, ${show(high)}]`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function verb(leader: { strategies: string[] }, one: string, many: string): string {
  return leader.strategies.length === 1 ? one : many;
}

export const md = { name: 'md', render: renderMarkdown } satisfies Reporter;
