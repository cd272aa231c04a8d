import type { Transcript } from '../types.js';

export interface ImportOptions {
  /**
   * Skip broken input (bad JSON lines, records of the wrong shape) and record each in
   * `transcript.skipped` instead of failing on the first one.
   */
  lenient?: boolean;
}

/**
 * Turns one foreign agent-log format into the canonical transcript (DESIGN.md §2). One importer
 * per file in `src/transcript/importers/`, its `name` equal to the file name.
 */
export interface Importer {
  /** The format name, used by `--from` and recorded as the header's `source.format`. */
  name: string;
  /** One line for `--help` and error messages. */
  description: string;
  /**
   * Whether the file looks like this format, judged from its first lines only (a prefix of the
   * file: the last line given may be cut short), or, when no importer knows those and the file is
   * one JSON document, from its outline (every top-level key, long values cut; index.ts). Never throws.
   */
  detect(firstLines: string[]): boolean;
  /**
   * Reads the file and returns the canonical transcript. Unmapped foreign record types are counted
   * in `transcript.unknown`; skipped input (lenient mode) is listed in `transcript.skipped`.
   * @throws InputError naming file, line and field for broken input (unless lenient).
   */
  import(file: string, options: ImportOptions): Promise<Transcript>;
}
