import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { RunResult, UnitResult } from '../metrics/types.js';
import { partedFile, type ReportFile } from '../report/types.js';
import { givenPath } from '../paths.js';

/** The CSVs whose rows a merge of results stored summary-only takes from the shards' files, unit by unit (not rendered again: the same bytes, for less work). */
export const SHARD_CSV_FILES = ['steps.csv', 'events.csv', 'probes.csv', 'needed.csv'] as const;

/** Bytes read at a time while a shard's CSV is scanned. */
const SCAN_CHUNK = 1 << 20;

/** Where one shard's rows of each of its units lie in its CSV: a byte range, and the header's. */
interface ShardRows {
  path: string;
  header: { start: number; end: number };
  /** The byte range of the rows of the unit at each position (start = end: none). */
  units: { start: number; end: number }[];
}

/**
 * `name` (one of `SHARD_CSV_FILES`) of the merged run, in parts: the header of the first shard's,
 * then each plan index's rows as its shard wrote them (a unit's rows follow each other, in the
 * shard's unit order). Each shard's file is scanned once for where its units' rows lie, then each
 * unit's rows are read from it as their part is written: no shard's file, nor the rows of more
 * than one unit, is ever in memory. A missing file is an InputError naming it.
 */
export function mergedShardCsv(name: string, shards: readonly { file: string; result: RunResult }[], planned: number): ReportFile {
  return partedFile(name, function* () {
    const where = new Map<number, { rows: ShardRows; position: number }>();
    let first: ShardRows | undefined;
    for (const { file, result } of shards) {
      const path = join(dirname(resolve(file)), name);
      if (!existsSync(path))
        throw new InputError(
          { file: givenPath(path) },
          `missing: the merge of results stored summary-only takes its rows from it (run each shard with the default reports, or --reports json,csv,parquet, and merge it from its folder)`,
        );
      const rows = scanShardRows(path, result.units);
      first ??= rows;
      result.shard?.units.forEach((planIndex, position) => where.set(planIndex, { rows, position }));
    }
    yield first === undefined ? '' : readRange(first.path, first.header);
    for (let i = 0; i < planned; i++) {
      const at = where.get(i);
      yield at === undefined ? '' : readRange(at.rows.path, at.rows.units[at.position] as { start: number; end: number });
    }
  });
}

function readRange(path: string, range: { start: number; end: number }): string {
  if (range.end <= range.start) return '';
  const buffer = Buffer.alloc(range.end - range.start);
  const fd = openSync(path, 'r');
  try {
    let read = 0;
    while (read < buffer.length) {
      const got = readSync(fd, buffer, read, buffer.length - read, range.start + read);
      if (got === 0) break;
      read += got;
    }
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

/**
 * Reads a CSV ctxbench wrote (a quoted cell may hold newlines; `""` is a quote inside one) a chunk
 * at a time, and finds each unit's rows: the runs of records whose first two cells are its
 * scenario and strategy, in unit order. Bytes, not characters: `"`, `,` and the newline are never
 * part of another UTF-8 character.
 */
function scanShardRows(path: string, units: readonly UnitResult[]): ShardRows {
  const ranges = units.map(() => ({ start: 0, end: 0 }));
  let header: { start: number; end: number } | undefined;
  let position = 0;
  const scanner = createRecordScanner((start, end, key) => {
    if (header === undefined) {
      header = { start, end };
      return;
    }
    while (position < units.length && key !== unitKey(units[position] as UnitResult)) position++;
    const range = ranges[position];
    if (range === undefined) return;
    if (range.end === range.start) range.start = start;
    range.end = end;
  });
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(SCAN_CHUNK);
    for (let offset = 0; ;) {
      const got = readSync(fd, buffer, 0, buffer.length, offset);
      if (got === 0) break;
      scanner.feed(buffer.subarray(0, got), offset);
      offset += got;
    }
  } finally {
    closeSync(fd);
  }
  return { path, header: header ?? { start: 0, end: 0 }, units: ranges };
}

const QUOTE = 34;
const COMMA = 44;
const NEWLINE = 10;

/**
 * Calls `onRecord(start, end, key)` for each record (its byte range, newline included) as the bytes
 * come; `key` is its first two cells, unquoted, joined by NUL. A last record without a newline is
 * not reported (ctxbench ends every record with one).
 */
function createRecordScanner(onRecord: (start: number, end: number, key: string) => void): { feed(chunk: Buffer, offset: number): void } {
  let quoted = false;
  let start = 0;
  let cell = 0;
  const cells: Buffer[][] = [[], []];
  return {
    feed(chunk, offset) {
      let from = 0;
      const keep = (to: number): void => {
        if (cell < 2 && to > from) (cells[cell] as Buffer[]).push(chunk.subarray(from, to));
      };
      for (let at = 0; at < chunk.length; at++) {
        const byte = chunk[at];
        if (byte === QUOTE) quoted = !quoted;
        else if (quoted) continue;
        else if (byte === COMMA) {
          keep(at);
          cell++;
          from = at + 1;
        } else if (byte === NEWLINE) {
          keep(at);
          onRecord(start, offset + at + 1, `${unquote(cells[0] as Buffer[])}\u0000${unquote(cells[1] as Buffer[])}`);
          cells[0] = [];
          cells[1] = [];
          cell = 0;
          start = offset + at + 1;
          from = at + 1;
        }
      }
      // The record read so far continues in the next chunk: keep a copy of its key cells (the chunk's buffer is reused).
      keep(chunk.length);
      for (const parts of cells) for (const [i, part] of parts.entries()) parts[i] = Buffer.from(part);
    },
  };
}

/** A cell as written, unquoted: `"a ""b"""` is `a "b"`. */
function unquote(parts: readonly Buffer[]): string {
  const text = Buffer.concat(parts).toString('utf8');
  return text.startsWith('"') ? text.slice(1, text.endsWith('"') && text.length > 1 ? -1 : undefined).replace(/""/g, '"') : text;
}

function unitKey(unit: UnitResult): string {
  return `${unit.scenario}\u0000${unit.strategy}`;
}
