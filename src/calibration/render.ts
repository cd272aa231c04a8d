import type { CompactionCalibration } from './calibrate.js';
import type { CalibrationReport } from './load.js';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function percent(share: number | null): string {
  return share === null ? '–' : `${(share * 100).toFixed(1)}%`;
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
}

/** The calibration as the terminal shows it: per compaction, per kind, real and simulated survival and their ratio. */
export function renderCalibration(report: CalibrationReport): string {
  const lines = [
    "ctxbench calibrate · survival = share of the replaced history's distinct specifics that a summary repeats verbatim",
    "simulated = the simulated summarizer on the same history, at the real summary's size; ratio = simulated / real",
    '',
  ];
  for (const compaction of report.compactions) lines.push(...renderCompaction(compaction), '');
  for (const file of report.withoutCompaction) lines.push(`${file}: no compaction with a summary`);
  return `${lines.join('\n').trimEnd()}\n`;
}

function renderCompaction(c: CompactionCalibration): string[] {
  const widths = [12, 8, 8, 10, 7];
  return [
    `${c.file} · compaction ${c.compactionId} · history ${c.historyMessages} messages, ${int.format(c.historyTokens)} tokens · summary ${int.format(c.summaryTokens)} tokens (simulated ${int.format(c.simulatedTokens)})`,
    pad(['kind', 'source', 'real', 'simulated', 'ratio'], widths),
    ...c.kinds.map((k) => pad([k.kind, int.format(k.source), percent(k.real), percent(k.simulated), k.ratio === null ? '–' : k.ratio.toFixed(2)], widths)),
  ];
}
