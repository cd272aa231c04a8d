import { beforeAll, describe, expect, it } from 'vitest';
import { measureFidelity } from '../../src/fidelity/measure.js';
import type { FidelityReport } from '../../src/fidelity/types.js';
import { median } from '../../src/stats.js';

/**
 * Replay fidelity of the Claude Code sessions with compactions: 1.0.8x (swordintel: no
 * `compact_boundary`, the summary a user line with a null `parentUuid`), 2.x (mclaude: a boundary,
 * one a manual /compact), and the long 1.0.53 sessions. The bounds are the errors reached (quoted)
 * with a small margin; an importer change that loses a compaction or its summary fails here.
 */
const FILES = [
  'fixtures/real/claude-code-long/vsla-0a725fb5.jsonl',
  'fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl',
  ...['mclaude-97b0ffde', 'mclaude-c7d2069e', 'swordintel-0c45b0a6', 'swordintel-b260c379', 'swordintel-e95a823a'].map(
    (name) => `fixtures/real/claude-code-compactions/${name}.jsonl`,
  ),
];

let report: FidelityReport;

beforeAll(async () => {
  report = await measureFidelity(FILES, { lenient: true });
}, 300_000);

describe('fidelity of Claude Code sessions with compactions', () => {
  it('follows every compaction the agents made: 2.x boundaries and 1.0.8x summaries alike', () => {
    expect(report.files.map((f) => [f.file.split('/').at(-1), f.compactions, f.compared.length])).toEqual([
      ['vsla-0a725fb5.jsonl', 1, 201],
      ['vsla-5f8cbb78.jsonl', 0, 119],
      ['mclaude-97b0ffde.jsonl', 1, 62],
      ['mclaude-c7d2069e.jsonl', 1, 282],
      ['swordintel-0c45b0a6.jsonl', 3, 395],
      ['swordintel-b260c379.jsonl', 2, 127],
      ['swordintel-e95a823a.jsonl', 2, 211],
    ]);
  });

  it('median |error| under 2 % (reached 1.16 %), p95 under 5 % (reached 4.00 %; 9.09 % before the persistent excess, 5.98 % before escapes were weighed and per-call content found on large calls), every log under 5 % median', () => {
    const claude = report.formats.find((f) => f.format === 'claude-code');
    expect(claude?.offset?.medianAbs).toBeLessThan(0.02);
    expect(claude?.offset?.p95Abs).toBeLessThan(0.05);
    for (const file of report.files) {
      const errors = file.compared.flatMap((s) => (s.offsetError === undefined ? [] : [Math.abs(s.offsetError)]));
      expect(median(errors), file.file).toBeLessThan(0.05);
    }
  });

  it('every log within 3 % median and 8 % p95 |error|: escape sequences weighed, per-call content found on sessions of large calls (swordintel-e95a823a p95 8.22 % → 1.22 %, swordintel-b260c379 −1.30 % median, −4.43 % with the weight alone)', () => {
    for (const file of report.files) {
      const errors = file.compared.flatMap((s) => (s.offsetError === undefined ? [] : [s.offsetError]));
      const p95 = nearestRank(errors.map(Math.abs), 0.95);
      expect(Math.abs(median(errors)), file.file).toBeLessThan(0.03);
      expect(p95, file.file).toBeLessThan(0.08);
    }
    const worst = (name: string): number =>
      nearestRank(
        (report.files.find((f) => f.file.endsWith(name))?.compared ?? []).map((s) => Math.abs(s.offsetError)),
        0.95,
      );
    expect(worst('swordintel-e95a823a.jsonl')).toBeLessThan(0.02);
  });

  it('charges the ~200 tokens a call Claude Code 1.0.81 sent unlogged on swordintel-0c45b0a6: its median error −4.2 % → −1.2 %', () => {
    const file = report.files.find((f) => f.file.endsWith('swordintel-0c45b0a6.jsonl'));
    const errors = file?.compared.map((s) => s.offsetError) ?? [];
    expect(Math.abs(median(errors))).toBeLessThan(0.02);
    // Charged on most of its calls, as a small amount each: not found as a few jumps.
    expect(file?.unlogged?.messages).toBeGreaterThan(200);
    expect((file?.unlogged?.tokens ?? 0) / (file?.unlogged?.messages ?? 1)).toBeLessThan(600);
  });
});

/** The value at rank ceil(q × n) of the sorted values (the p95 of the fidelity tables). */
function nearestRank(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}
