import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';
import { buildRunResult } from '../report/run-result.js';
import { mergedShardCsv } from '../../src/cli/shard-csv.js';
import { readShardSteps } from '../../src/cli/shard-steps.js';
import { parquet } from '../../src/report/parquet.js';
import { writeReportFiles } from '../../src/report/write.js';
import { savingInputOf } from '../../src/metrics/summary-only.js';
import { InputError } from '../../src/errors.js';
import type { RunResult, UnitResult } from '../../src/metrics/types.js';

/** A shard's result as mergedShardCsv reads it: units (scenario, strategy) at plan indices. */
function shardResult(units: [string, string][], planIndices: number[]): RunResult {
  const base = buildRunResult();
  const template = base.units[0] as UnitResult;
  return {
    ...base,
    units: units.map(([scenario, strategy]) => ({ ...template, scenario, strategy })),
    shard: { index: 1, count: 2, planned: 4, units: planIndices, plan: [] },
  };
}

/** `count` rows of one unit; each a quoted cell with a newline, a doubled quote and characters of two to four bytes. */
function rowsOf(scenario: string, strategy: string, count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) text += `${scenario},${strategy},${i},"line one\nline ""two"" é€😀 ${'x'.repeat(i % 97)}"\n`;
  return text;
}

describe('merging the CSV rows of shards', () => {
  it("copies each unit's rows in plan order from files read a chunk at a time, rows split across chunks and quoted keys included", async () => {
    const header = 'scenario,strategy,step,detail\n';
    const one = tempDir();
    const two = tempDir();
    // Over a megabyte a unit, so that records (and their multi-byte characters) cross the scan's chunks.
    const rows = {
      a: rowsOf('s', 'full', 9000),
      b: rowsOf('s', '"odd, ""label"""', 7000),
      c: rowsOf('s', 'rolling-window', 8000),
      d: rowsOf('s', 'tiered-truncation', 10),
    };
    writeFileSync(join(one, 'steps.csv'), header + rows.a + rows.c);
    writeFileSync(join(two, 'steps.csv'), header + rows.b + rows.d);
    const shards = [
      {
        file: join(one, 'result.json'),
        result: shardResult(
          [
            ['s', 'full'],
            ['s', 'rolling-window'],
          ],
          [0, 2],
        ),
      },
      {
        file: join(two, 'result.json'),
        result: shardResult(
          [
            ['s', 'odd, "label"'],
            ['s', 'tiered-truncation'],
          ],
          [1, 3],
        ),
      },
    ];
    const out = tempDir();
    await writeReportFiles(out, [mergedShardCsv('steps.csv', shards, 4)], { redact: false });
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(out, 'steps.csv'), 'utf8') === header + rows.a + rows.b + rows.c + rows.d).toBe(true);
  });
});

describe("reading a shard's steps.parquet back", () => {
  it("keeps what the pairing with full reads of each unit, and reads a unit's whole steps from its own rows when asked", async () => {
    const result = buildRunResult();
    const dir = tempDir();
    await writeReportFiles(dir, parquet.render(result));
    const steps = await readShardSteps(join(dir, 'result.json'), result);
    result.units.forEach((unit, i) => expect(steps.pairedOf(i)).toEqual(savingInputOf(unit).steps));
    for (const [i, unit] of result.units.entries()) expect(await steps.load(i)).toEqual(unit.steps);
  });

  it('names the file and row of a row that follows no unit of the result', async () => {
    const result = buildRunResult();
    const dir = tempDir();
    await writeReportFiles(dir, parquet.render(result));
    const other = { ...result, units: result.units.slice(0, 1) };
    const reading = readShardSteps(join(dir, 'result.json'), other);
    await expect(reading).rejects.toThrow(InputError);
    await expect(reading).rejects.toThrow(/steps\.parquet.*row \d+ \(long-session × rolling-window\) follows no unit/);
  });
});
