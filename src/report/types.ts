import type { RunResult, UnitResult } from '../metrics/types.js';

/** One file a reporter produces; `file` is relative to the report directory. */
export interface ReportFile {
  file: string;
  /** The whole text (for a file in `parts`, joined when read: tests and small files). */
  readonly contents: string;
  /**
   * The text in parts, in order, when the file can be large: no single string then holds a
   * corpus-sized `result.json` (V8 cannot build one past 512 MiB), and the writer redacts and
   * writes one part at a time. Parts split only where no secret can straddle them (between units).
   * Made as they are read (each time they are read): a corpus's units are read one at a time from
   * `UnitDetails`, so no part outlives its writing.
   */
  parts?: Iterable<string>;
  /**
   * A binary file's bytes in chunks (`steps.parquet`), made as they are read; `contents` is then
   * empty. Written as they are: what goes into a binary file was redacted before it was rendered
   * (a run's journaled units, a read result passed through redact/result.ts).
   */
  bytes?: () => Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
}

/** A report file given in parts (`parts` is called each time they are read); reading `contents` joins them. */
export function partedFile(file: string, parts: () => Iterable<string>): ReportFile {
  return {
    file,
    parts: { [Symbol.iterator]: () => parts()[Symbol.iterator]() },
    get contents() {
      let text = '';
      for (const part of parts()) text += part;
      return text;
    },
  };
}

/**
 * The whole of each unit of a result, for reporters that write every step, event or answer
 * (result.json, the CSVs, JUnit's times). A run whose units came back summary-only (a corpus's, see
 * metrics/summary-only.ts) reads them one at a time from where they were streamed; otherwise they are
 * the result's own units.
 */
export interface UnitDetails {
  /** Units of the result. */
  readonly count: number;
  /** The whole unit at position `i` of the result's `units` (read, never changed, by the caller). */
  load(i: number): UnitResult;
}

/** The details of a result whose units are whole. */
export function detailsOf(result: RunResult): UnitDetails {
  return { count: result.units.length, load: (i) => result.units[i] as UnitResult };
}

/**
 * A report format. `render` is pure: the same result gives the same bytes, and only
 * `report/write.ts` puts them on disk. `name` equals the reporter's file name in `src/report/`.
 */
export interface Reporter {
  name: string;
  /** `details` defaults to the result's own units. */
  render(result: RunResult, details?: UnitDetails): ReportFile[];
}
