import { InputError } from '../errors.js';
import { createTokenizer, encodingForModel } from '../tokens/tokenizer.js';
import { loadTranscript } from '../scenario/load-transcript.js';
import { calibrateTranscript, type CompactionCalibration } from './calibrate.js';

export interface CalibrationReport {
  compactions: CompactionCalibration[];
  /** Files that hold no compaction with a summary. */
  withoutCompaction: string[];
}

/**
 * Loads each log (canonical or any importable agent log) and calibrates the simulated summarizer
 * on every compaction it holds (calibrate.ts).
 * @throws InputError (exit 2) when a log does not load, or when none of them holds a compaction.
 */
export async function calibrateFiles(paths: readonly string[], options: { lenient?: boolean } = {}): Promise<CalibrationReport> {
  const compactions: CompactionCalibration[] = [];
  const withoutCompaction: string[] = [];
  for (const path of paths) {
    const transcript = await loadTranscript({ kind: 'file', path, lenient: options.lenient === true }, 0);
    const tokenizer = createTokenizer(encodingForModel(transcript.header.model ?? ''));
    const found = calibrateTranscript(transcript, (text) => tokenizer.count(text));
    if (found.length === 0) withoutCompaction.push(transcript.file);
    compactions.push(...found);
  }
  if (compactions.length === 0) {
    throw new InputError(
      { file: paths.join(', ') },
      'no compaction with a summary in these logs (Claude Code `isCompactSummary`, Codex `compacted`); nothing to calibrate on',
    );
  }
  return { compactions, withoutCompaction };
}
