import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/metrics/types.js';
import { renderCsv } from '../../src/report/csv.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/md.js';
import { renderTerminalTable } from '../../src/report/terminal.js';
import type { ReportFile } from '../../src/report/types.js';
import { buildRunResult } from './run-result.js';

/** The hand-built run as if `reader.contextRot` had been on: each row's recall under rot, the scenario's curve. */
function withRot(result: RunResult): RunResult {
  return {
    ...result,
    scenarios: result.scenarios.map((s) => ({ ...s, contextRot: { name: 'nolima:gpt-4o', points: [[500, 1]] } })),
    units: result.units.map((unit, i) => ({ ...unit, summary: { ...unit.summary, answer_recall_rot: i === 0 ? 0.4321 : null } })),
  };
}

function file(files: readonly ReportFile[], name: string): string {
  const found = files.find((f) => f.file === name);
  if (found === undefined) throw new Error(`${name} not rendered`);
  return found.contents;
}

describe('recall under context rot in the reports', () => {
  const plain = buildRunResult();
  const rot = withRot(plain);

  it('is a column of summary.csv, after every other, only when on', () => {
    const off = file(renderCsv(plain), 'summary.csv');
    const on = file(renderCsv(rot), 'summary.csv');
    expect(off.split('\n')[0]).not.toContain('answer_recall_rot');
    expect(on.split('\n')[0]).toBe(`${off.split('\n')[0] ?? ''},answer_recall_rot`);
    expect(on.split('\n')[1]?.endsWith(',0.4321')).toBe(true);
    expect(file(renderCsv(rot), 'probes.csv').split('\n')[0]?.endsWith(',valid,needed_later,correct_rot,rot_probability')).toBe(true);
  });

  it('is a column beside recall in summary.md, the HTML table and the terminal, named with its curve, only when on', () => {
    const md = file(renderMarkdown(rot), 'summary.md');
    expect(md).toContain('| recall | recall (context rot) |');
    expect(md).toContain('43%');
    expect(md).toContain('reader context rot nolima:gpt-4o');
    expect(file(renderMarkdown(plain), 'summary.md')).not.toContain('context rot');
    const html = file(renderHtml(rot), 'index.html');
    expect(html).toContain('recall (rot)</th>');
    expect(file(renderHtml(plain), 'index.html')).not.toContain('recall (rot)');
    expect(renderTerminalTable(rot, { color: false })).toMatch(/recall\s+rot/);
    expect(renderTerminalTable(plain, { color: false })).not.toMatch(/recall\s+rot/);
  });
});
