import type { RunResult } from '../metrics/types.js';

/** One file a reporter produces; `file` is relative to the report directory. */
export interface ReportFile {
  file: string;
  contents: string;
}

/**
 * A report format. `render` is pure: the same result gives the same bytes, and only
 * `report/write.ts` puts them on disk. `name` equals the reporter's file name in `src/report/`.
 */
export interface Reporter {
  name: string;
  render(result: RunResult): ReportFile[];
}
