import { describe, expect, it } from 'vitest';
import { parquetReadObjects } from 'hyparquet';
import { parquet, stepParquetFile } from '../../src/report/parquet.js';
import { renderCsv } from '../../src/report/csv.js';
import type { ReportFile } from '../../src/report/types.js';
import type { UnitResult } from '../../src/metrics/types.js';
import { buildRunResult } from './run-result.js';

async function bytesOf(file: ReportFile): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of file.bytes?.() ?? []) chunks.push(chunk);
  const all = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

describe('steps.parquet', () => {
  it('holds the rows of steps.csv, typed, one row group per unit, and the same bytes each time', async () => {
    const result = buildRunResult();
    const [file] = parquet.render(result);
    expect(file?.file).toBe('steps.parquet');
    const bytes = await bytesOf(file as ReportFile);
    expect(Buffer.from(await bytesOf(parquet.render(result)[0] as ReportFile)).equals(Buffer.from(bytes))).toBe(true);
    const rows = await parquetReadObjects({ file: bytes.buffer as ArrayBuffer });
    const csv = (renderCsv(result).find((f) => f.file === 'steps.csv') as ReportFile).contents.trim().split('\n');
    const header = (csv[0] as string).split(',');
    expect(Object.keys(rows[0] as object)).toEqual(header);
    expect(rows).toHaveLength(csv.length - 1);
    // Every cell reads as the CSV writes it: a number as a number, an absent field as null (an empty cell).
    rows.forEach((row, i) => {
      const cells = (csv[i + 1] as string).split(',');
      header.forEach((column, c) => {
        const value = (row as Record<string, string | number | null>)[column] ?? null;
        const cell = cells[c] as string;
        if (value === null) expect({ column, cell }).toEqual({ column, cell: column === 'retrieval_tokens' || column === 'cache_write_tokens' ? '0' : '' });
        else expect({ column, cell: String(typeof value === 'number' ? Number(value.toFixed(4)) : value) }).toEqual({ column, cell });
      });
    });
    expect(result.units.every((unit) => unit.steps.length > 0)).toBe(true);
    expect(new Set(rows.map((row) => (row as { strategy: string }).strategy))).toEqual(new Set(result.units.map((unit) => unit.strategy)));
  });

  it('has the same bytes when its units are read one at a time by a loader that waits (merge)', async () => {
    const result = buildRunResult();
    const loaded: number[] = [];
    const file = stepParquetFile(result.units.length, async (i) => {
      await new Promise((resolve) => setImmediate(resolve));
      loaded.push(i);
      return result.units[i] as UnitResult;
    });
    expect(Buffer.from(await bytesOf(file)).equals(Buffer.from(await bytesOf(parquet.render(result)[0] as ReportFile)))).toBe(true);
    expect(loaded).toEqual([0, 1]);
  });
});
