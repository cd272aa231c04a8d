import { basename } from 'node:path';
import { InputError } from '../errors.js';
import { createTokenizer, encodingForModel } from '../tokens/tokenizer.js';
import { loadTranscript } from '../scenario/load-transcript.js';
import { calibrateCompaction, findCompactions, type CompactionCalibration, type FoundCompaction } from './calibrate.js';
import { fitSummarizer, type CompactionSample } from './fit.js';
import { poolCalibrations, type PooledCalibration } from './pool.js';
import { roundFit, type SummarizerFit } from '../simulator/summary-fit.js';

export interface CalibrationReport {
  /** Every distinct compaction, replayed under the shipped fit (summary-fit.ts FITTED). */
  compactions: CompactionCalibration[];
  /** Their pooled comparison and its spread across compactions. */
  pooled: PooledCalibration;
  /**
   * Leave one author out: each author's compactions replayed under a fit on the other authors'
   * only — how the fit does on logs it has not seen. Absent with fewer than two authors.
   */
  heldOut?: { authors: string[]; compactions: CompactionCalibration[]; pooled: PooledCalibration };
  /** The fit on all of these compactions (what FITTED should be when they are the calibration set). */
  fitted: SummarizerFit;
  /** Summaries met again (a continued file repeats the one that closed the file before): counted once. */
  repeated: number;
  /** Files that hold no compaction with a summary. */
  withoutCompaction: string[];
}

/**
 * Whose log a file is: the file name up to its first `-` (`swordintel-0c45b0a6.jsonl` →
 * `swordintel`), the whole name without extension when it has none. Name calibration logs
 * `<author>-<session>` to hold authors out.
 */
function authorOf(file: string): string {
  const name = basename(file);
  const dash = name.indexOf('-');
  return dash > 0 ? name.slice(0, dash) : name.replace(/\..*$/, '');
}

/** The distinct compactions of a set of logs (calibrateFiles' input, before any replay or fit). */
export interface CompactionSet {
  found: FoundCompaction[];
  /** Summaries met again (a continued file repeats the one that closed the file before): counted once. */
  repeated: number;
  /** Files that hold no compaction with a summary. */
  withoutCompaction: string[];
}

/**
 * Loads each log (canonical or any importable agent log) and finds every compaction with a summary
 * and the history it replaced (a repeated summary, or one that replaced no history, only once).
 * @throws InputError (exit 2) when a log does not load, or when none of them holds a compaction.
 */
export async function collectCompactions(paths: readonly string[], options: { lenient?: boolean } = {}): Promise<CompactionSet> {
  const found: FoundCompaction[] = [];
  const withoutCompaction: string[] = [];
  const seen = new Set<string>();
  let repeated = 0;
  for (const path of paths) {
    const transcript = await loadTranscript({ kind: 'file', path, lenient: options.lenient === true }, 0);
    const tokenizer = createTokenizer(encodingForModel(transcript.header.model ?? ''));
    const count = (text: string): number => tokenizer.count(text);
    let here = 0;
    for (const compaction of findCompactions(transcript)) {
      if (compaction.history.length === 0) continue;
      const key = compaction.summary.trim();
      if (seen.has(key)) {
        repeated += 1;
        continue;
      }
      seen.add(key);
      found.push({ ...compaction, file: transcript.file, author: authorOf(transcript.file), count });
      here += 1;
    }
    if (here === 0) withoutCompaction.push(transcript.file);
  }
  if (found.length === 0) {
    throw new InputError(
      { file: paths.join(', ') },
      'no compaction with a summary in these logs (Claude Code `isCompactSummary`, Codex `compacted`); nothing to calibrate on',
    );
  }
  return { found, repeated, withoutCompaction };
}

/**
 * Replays each compaction through the simulated summarizer under the shipped fit and under a fit
 * that held its author out, pools the comparison (calibrate.ts, pool.ts), and fits on them all.
 */
export function calibrateCompactions({ found, repeated, withoutCompaction }: CompactionSet): CalibrationReport {
  const compactions = found.map((c) => calibrateCompaction(c));
  const report: CalibrationReport = {
    compactions,
    pooled: poolCalibrations(compactions),
    fitted: roundFit(fitSummarizer(found.map(compactionSample))),
    repeated,
    withoutCompaction,
  };
  const authors = [...new Set(found.map((c) => c.author))];
  if (authors.length >= 2) {
    const held = authors.flatMap((author) => {
      const fit = fitSummarizer(found.filter((c) => c.author !== author).map(compactionSample));
      return found.filter((c) => c.author === author).map((c) => calibrateCompaction(c, fit));
    });
    report.heldOut = { authors, compactions: held, pooled: poolCalibrations(held) };
  }
  return report;
}

/**
 * The calibration of a set of logs: their compactions (collectCompactions) replayed and pooled
 * (calibrateCompactions).
 * @throws InputError (exit 2) when a log does not load, or when none of them holds a compaction.
 */
export async function calibrateFiles(paths: readonly string[], options: { lenient?: boolean } = {}): Promise<CalibrationReport> {
  return calibrateCompactions(await collectCompactions(paths, options));
}

/** A compaction as the fit reads it (fit.ts). */
export function compactionSample(c: FoundCompaction): CompactionSample {
  return { history: c.history, summary: c.summary, summaryTokens: c.count(c.summary), author: c.author };
}
