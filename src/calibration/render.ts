import type { CompactionCalibration } from './calibrate.js';
import type { CalibrationReport } from './load.js';
import type { PooledCalibration, Spread } from './pool.js';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function percent(share: number | null): string {
  return share === null ? '–' : `${(share * 100).toFixed(1)}%`;
}

function ratio(value: number | null): string {
  return value === null ? '–' : value.toFixed(2);
}

function spread(s: Spread | null): string {
  return s === null ? '–' : `${s.min.toFixed(2)} / ${s.median.toFixed(2)} / ${s.max.toFixed(2)} (${s.of})`;
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
}

/** The calibration as the terminal shows it: per compaction, per kind, real and simulated survival and their ratio; then pooled, in and out of sample. */
export function renderCalibration(report: CalibrationReport): string {
  const lines = [
    "ctxbench calibrate · survival = share of the replaced history's distinct specifics that a summary repeats verbatim",
    'simulated = the simulated summarizer on the same history, at the length its fit predicts; ratio = simulated / real',
    '',
  ];
  for (const compaction of report.compactions) lines.push(...renderCompaction(compaction), '');
  lines.push(
    ...renderPooled(`pooled over ${report.pooled.compactions} compaction${report.pooled.compactions === 1 ? '' : 's'} (the shipped fit)`, report.pooled),
    '',
  );
  if (report.heldOut !== undefined) {
    const title = `held out by author (each of ${report.heldOut.authors.join(', ')} replayed under a fit on the others)`;
    lines.push(...renderPooled(title, report.heldOut.pooled), '');
  }
  if (report.repeated > 0) lines.push(`${report.repeated} repeated summar${report.repeated === 1 ? 'y' : 'ies'} skipped (the same summary in another file)`);
  for (const file of report.withoutCompaction) lines.push(`${file}: no compaction with a summary`);
  return `${lines.join('\n').trimEnd()}\n`;
}

function renderCompaction(c: CompactionCalibration): string[] {
  const widths = [12, 8, 8, 10, 7];
  return [
    `${c.file} · compaction ${c.compactionId} · history ${c.historyMessages} messages, ${int.format(c.historyTokens)} tokens · summary ${int.format(c.summaryTokens)} tokens (simulated ${int.format(c.simulatedTokens)})`,
    pad(['kind', 'source', 'real', 'simulated', 'ratio'], widths),
    ...c.kinds.map((k) => pad([k.kind, int.format(k.source), percent(k.real), percent(k.simulated), ratio(k.ratio)], widths)),
  ];
}

function renderPooled(title: string, pooled: PooledCalibration): string[] {
  const widths = [12, 8, 8, 10, 7, 28];
  return [
    title,
    pad(['kind', 'source', 'real', 'simulated', 'ratio', 'per compaction min/med/max'], widths),
    ...pooled.kinds.map((k) => pad([k.kind, int.format(k.source), percent(k.real), percent(k.simulated), ratio(k.ratio), spread(k.spread)], widths)),
    pad(['size', '', '', '', ratio(pooled.size), spread(pooled.sizeSpread)], widths),
  ];
}
