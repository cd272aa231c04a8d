import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration, renderTerminalTable } from '../../src/report/terminal.js';
import { buildRunResult } from './run-result.js';

describe('renderTerminalTable', () => {
  const plain = renderTerminalTable(buildRunResult(), { color: false });

  it('has a title per scenario and one aligned row per strategy', () => {
    const lines = plain.trimEnd().split('\n');
    expect(lines[0]).toBe('long-session  gemini gemini-2.5-flash · window 8000 · tpm 250k · 3 steps · seed 42');
    expect(lines[1]).toMatch(/^ {2}strategy +done +crash +total +peak +saved +429s +wait +compact +retain +recall +unasked$/);
    expect(lines[2]).toMatch(/^ {2}full +2\/3 +overflow@2 +9340 +9300 +0% +0 +0 +0 +- +- +-$/);
    expect(lines[3]).toMatch(/^ {2}rolling-window +3\/3 +- +10\.2k +3100 +33% +1 +1\.5s +1 +67% +50% +0$/);
    // Right-aligned columns end at the same place on every line.
    expect(new Set(lines.slice(1).map((line) => line.length)).size).toBe(1);
  });

  it('fits 100 columns and has no ANSI codes without colour', () => {
    expect(plain.includes('\x1b[')).toBe(false);
    for (const line of plain.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('colours only when asked', () => {
    const coloured = renderTerminalTable(buildRunResult(), { color: true });
    expect(coloured.includes('\x1b[')).toBe(true);
    // eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
    expect(coloured.replace(/\x1b\[[0-9;]*m/g, '')).toBe(plain);
  });

  it('shortens long strategy names to fit a narrow terminal', () => {
    const result = buildRunResult();
    const unit = result.units[1];
    if (unit === undefined) throw new Error('fixture has no second unit');
    unit.summary = { ...unit.summary, strategy: 'tiered-truncation+rolling-window+anchored-summary-with-recap' };
    const text = renderTerminalTable(result, { color: false, width: 100 });
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    expect(text).toMatch(/\n {2}tiered-trunc\S*… +3\/3 /);
  });
});

describe('formatters', () => {
  it.each([
    [950, '950'],
    [9999, '9999'],
    [12_345, '12.3k'],
    [999_949, '999.9k'],
    [999_950, '1M'],
    [250_000, '250k'],
    [4_560_000, '4.56M'],
  ])('formatCount(%d) = %s', (n, text) => expect(formatCount(n)).toBe(text));

  it.each([
    [0, '0'],
    [850, '850ms'],
    [12_300, '12.3s'],
    [250_000, '4.2m'],
    [5_400_000, '1.5h'],
  ])('formatDuration(%d) = %s', (ms, text) => expect(formatDuration(ms)).toBe(text));

  it('shows a cost column when the model is priced, in dollars', () => {
    const result = buildRunResult();
    result.units = result.units.map((unit, i) => ({
      ...unit,
      summary: { ...unit.summary, cost_usd: i === 0 ? 0.0123 : 1.5, cost_vs_full: i === 0 ? 0 : 0.2 },
    }));
    const lines = renderTerminalTable(result, { color: false }).split('\n');
    expect(lines[1]).toMatch(/ +saved +cost +429s/);
    expect(lines[2]).toMatch(/ 0% +\$0\.0123 +0 /);
    expect(lines[3]).toMatch(/ 33% +\$1\.50 +1 /);
  });
});
