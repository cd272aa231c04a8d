import type { ErrorStats, FidelityFile, FidelityReport, FormatFidelity } from './types.js';
import { OFFSET_STEPS } from './measure.js';
import { renderCacheSection } from './cache.js';
import { maxOf } from '../stats.js';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A signed percentage with two decimals (`-24.12%`, `+0.31%`); `signed: false` for magnitudes. */
function formatPercent(fraction: number, signed = true): string {
  if (!Number.isFinite(fraction)) return '–';
  const text = `${(fraction * 100).toFixed(2)}%`;
  return signed && fraction > 0 && !text.startsWith('0.00') ? `+${text}` : text;
}

/** The fidelity report as the terminal shows it: the files, then the error per format, raw and with the offset. */
export function renderFidelity(report: FidelityReport): string {
  const lines = [
    `ctxbench fidelity · strategy ${report.strategy} · computed = prompt tokens ctxbench charges, recorded = input tokens the agent logged`,
    'error = (computed − recorded) / recorded; negative means ctxbench counts fewer tokens than the provider charged',
    '',
    ...renderFiles(report.files),
    '',
    'Raw error (o200k_base as it is, no hidden prefix: the logged messages alone)',
    ...renderStatsTable(report.formats, 'raw'),
    '',
    'Uncalibrated error (o200k_base as it is, with the hidden prefix estimated in those units)',
    ...renderStatsTable(report.formats, 'uncalibrated'),
    '',
    `Error as replayed (calibrated counts, each file's hidden prefix — the agent's system prompt and tool schemas that the`,
    `log does not hold, the median of recorded − computed over its first ${OFFSET_STEPS} steps — re-sent reasoning, content sent but`,
    `not logged (found where the recorded input jumps beyond what the added messages explain, or outgrows them by a steady`,
    `amount on every call), compactions followed)`,
    ...renderStatsTable(report.formats, 'offset'),
    '',
    'Worst step per format (largest error as replayed)',
    ...report.formats.map(renderWorst),
    ...renderCacheSection(report.files, report.cache),
  ];
  return `${lines.join('\n')}\n`;
}

function renderFiles(files: readonly FidelityFile[]): string[] {
  const rows = files.map((f) => [
    f.file,
    f.format,
    `${f.provider} · ${f.model} · ${f.encoding}${f.calibrated ? ' calibrated' : ''}`,
    `${f.compared.length}/${f.steps}`,
    f.compared.length === 0 ? '–' : int.format(f.offset),
    f.unlogged === undefined ? '–' : `${int.format(f.unlogged.tokens)} in ${f.unlogged.messages}`,
    String(f.compactions),
    f.fit === undefined ? '–' : `${f.fit.slope.toFixed(3)} × computed ${f.fit.intercept < 0 ? '−' : '+'} ${int.format(Math.abs(f.fit.intercept))}`,
  ]);
  const notes = files.flatMap((f) => [
    ...(f.crashed > 0 ? [`  ${f.file}: ${f.crashed} steps could not be sent and are not compared`] : []),
    ...(f.rebuilds ?? []).map(
      (r) =>
        `  ${f.file}: rebuilt from its log before step ${r.step} (the recorded input fell; unlogged content dropped, hidden prefix ${int.format(r.prefix)} from there)` +
        (r.nextResult !== undefined ? `; next tool result: ${JSON.stringify(r.nextResult.replace(/\s+/g, ' ').slice(0, 90))}` : ''),
    ),
  ]);
  return [
    ...table(['file', 'format', 'replayed as', 'compared', 'hidden prefix', 'unlogged', 'compactions', 'fit: recorded ≈ raw'], rows, [
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      false,
    ]),
    ...notes,
  ];
}

function renderStatsTable(formats: readonly FormatFidelity[], kind: 'raw' | 'uncalibrated' | 'offset'): string[] {
  const rows = formats.map((f) => {
    const stats: ErrorStats | undefined = f[kind];
    const cells =
      stats === undefined
        ? ['–', '–', '–', '–', '–']
        : [...[stats.median, stats.p5, stats.p95].map((e) => formatPercent(e)), ...[stats.medianAbs, stats.p95Abs].map((e) => formatPercent(e, false))];
    return [f.format, String(f.steps), ...cells];
  });
  return table(['format', 'steps', 'median', 'p5', 'p95', '|median|', '|p95|'], rows, [false, true, true, true, true, true, true]);
}

function renderWorst(f: FormatFidelity): string {
  const w = f.worst;
  if (w === undefined) return `  ${f.format}: no step with a recorded input count`;
  const model = w.model !== undefined ? `, ${w.model}` : '';
  return (
    `  ${f.format}: ${w.file} step ${w.step} (message ${w.messageId}${model}): computed ${int.format(w.computed)}, ` +
    `recorded ${int.format(w.recorded)}, raw ${formatPercent(w.rawError)}, as replayed ${formatPercent(w.offsetError)}`
  );
}

/** Left- or right-aligned columns, two spaces apart, indented by two. */
function table(header: string[], rows: string[][], right: boolean[]): string[] {
  const widths = header.map((h, i) =>
    maxOf(
      rows.map((r) => (r[i] ?? '').length),
      h.length,
    ),
  );
  const line = (cells: string[]): string =>
    `  ${cells.map((c, i) => (right[i] === true ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)];
}
