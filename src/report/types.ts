import type { RunResult } from '../metrics/types.js';

/** One file a reporter produces; `file` is relative to the report directory. */
export interface ReportFile {
  file: string;
  /** The whole text (for a file in `parts`, joined when read: tests and small files). */
  readonly contents: string;
  /**
   * The text in parts, in order, when the file can be large: no single string then holds a
   * corpus-sized `result.json` (V8 cannot build one past 512 MiB), and the writer redacts and
   * writes one part at a time. Parts split only where no secret can straddle them (between units).
   */
  parts?: readonly string[];
}

/** A report file given in parts; reading `contents` joins them. */
export function partedFile(file: string, parts: readonly string[]): ReportFile {
  return {
    file,
    parts,
    get contents() {
      return parts.join('');
    },
  };
}

/**
 * A report format. `render` is pure: the same result gives the same bytes, and only
 * `report/write.ts` puts them on disk. `name` equals the reporter's file name in `src/report/`.
 */
export interface Reporter {
  name: string;
  render(result: RunResult): ReportFile[];
}
