import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { SUMMARY_COLUMNS } from '../../src/metrics/columns.js';
import { DEFAULT_MIN_DISTANCE } from '../../src/probes/needed/extract.js';

/** A real Claude Code session of 119 steps whose context grows past 100k tokens. */
const log = resolve(import.meta.dirname, '../../fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl');

/** A CSV whose cells hold no comma (summary.csv of these strategies). */
function readCsv(dir: string, file: string): { columns: string[]; rows: Record<string, string>[] } {
  const [header = '', ...lines] = readFileSync(join(dir, file), 'utf8').trim().split('\n');
  const columns = header.split(',');
  return { columns, rows: lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i], cell]))) };
}

interface NeededResult {
  units: {
    strategy: string;
    probes: { needed: { fact: string; sourceStep: number; useStep: number; outcome: string }[]; answers: { neededLater?: boolean }[] };
  }[];
}

describe('needed facts in a run of a real log', () => {
  it('writes needed.csv and the needed columns after answer_recall_ci_high; full holds every use it reached, tri-modal loses some', async () => {
    const out = tempDir();
    const run = await cli(['run', log, '--window', '100000', '--strategies', 'full,tri-modal', '--quiet', '--reports', 'json,csv', '--out', out]);
    expect(run.code).toBe(0);

    const summary = readCsv(out, 'summary.csv');
    const at = summary.columns.indexOf('answer_recall_ci_high');
    expect(summary.columns.slice(at + 1, at + 8)).toEqual([
      'needed_facts',
      'needed_recall',
      'needed_recoverable',
      'needed_lost',
      'needed_recall_ci_low',
      'needed_recall_ci_high',
      'answer_recall_needed',
    ]);
    expect(summary.columns).toEqual([...SUMMARY_COLUMNS]);
    const row = (strategy: string) => summary.rows.find((r) => r.strategy === strategy) as Record<string, string>;
    // full overflows at step 109 of 119: the uses after it are unanswered, every one before it kept.
    expect(row('full').crashed).toBe('true');
    expect(Number(row('full').needed_recall)).toBe(1);
    expect(Number(row('full').needed_facts)).toBeGreaterThanOrEqual(20);
    expect(Number(row('tri-modal').needed_recall)).toBeLessThan(1);
    const tri = row('tri-modal');
    expect(Number(tri.needed_recall) + Number(tri.needed_recoverable) + Number(tri.needed_lost)).toBeCloseTo(1, 3);

    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as NeededResult;
    const records = (strategy: string) => result.units.find((unit) => unit.strategy === strategy)?.probes.needed ?? [];
    const needed = readFileSync(join(out, 'needed.csv'), 'utf8').trim().split('\n');
    expect(needed[0]).toBe('scenario,strategy,fact,kind,source_step,use_step,outcome');
    expect(needed).toHaveLength(1 + records('full').length + records('tri-modal').length);
    const full = records('full');
    expect(full.filter((r) => r.outcome !== 'kept' && r.outcome !== 'unanswered')).toEqual([]);
    expect(full.filter((r) => r.outcome === 'unanswered').every((r) => r.useStep >= Number(row('full').crash_step))).toBe(true);
    expect(full.every((r) => r.useStep - r.sourceStep >= DEFAULT_MIN_DISTANCE)).toBe(true);
    // Reached uses of a strategy are its needed_facts.
    expect(records('tri-modal').filter((r) => r.outcome !== 'unanswered')).toHaveLength(Number(tri.needed_facts));

    expect(readFileSync(join(out, 'probes.csv'), 'utf8').split('\n')[0]).toContain(',needed_later');
    const later = result.units.flatMap((unit) => unit.probes.answers.map((a) => a.neededLater));
    expect(new Set(later)).toEqual(new Set([true, false]));
  }, 120_000);
});
