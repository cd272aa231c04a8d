import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { UnitResult } from '../metrics/types.js';
import type { ProviderMode } from '../contracts/provider.js';
import type { PreparedScenario } from './prepared-scenario.js';
import type { PlannedUnit } from './plan.js';
import { InputError } from '../errors.js';
import { VERSION } from '../version.js';
import { parseInput } from '../validate.js';

/**
 * The run journal (`<out>/.journal.jsonl`): a header line that says how to run the run again,
 * then one finished unit a line, appended as each unit ends. An interrupted run keeps it; `run
 * --resume` reads it, runs only the units it lacks and gives the result an uninterrupted run
 * gives. This module is pure: it formats and parses lines; cli/ writes and reads the file.
 */
export const JOURNAL_FILE = '.journal.jsonl';
const JOURNAL_FORMAT = 'ctxbench-journal/1';

/** What the run was asked to do: enough to run it again (the CLI's options, as plain data). */
type JournalOptions = Record<string, unknown>;

export interface JournalHeader {
  format: typeof JOURNAL_FORMAT;
  version: string;
  /** `fingerprintRun` of the plan: a resume refuses a journal whose inputs changed since. */
  fingerprint: string;
  planned: number;
  options: JournalOptions;
}

export interface Journal {
  header: JournalHeader;
  /** Finished units by plan index (a unit given twice: the last line wins). */
  units: Map<number, UnitResult>;
  /** A last line cut short by a kill (ignored: its unit runs again). */
  truncated: boolean;
}

const headerSchema = z.strictObject({
  format: z.literal(JOURNAL_FORMAT),
  version: z.string(),
  fingerprint: z.string(),
  planned: z.number().int().min(0),
  options: z.record(z.string(), z.unknown()),
});
const unitSchema = z.strictObject({ unit: z.number().int().min(0), result: z.looseObject({ scenario: z.string(), strategy: z.string() }) });

export function formatJournalHeader(header: Omit<JournalHeader, 'format' | 'version'>): string {
  return `${JSON.stringify({ format: JOURNAL_FORMAT, version: VERSION, ...header })}\n`;
}

export function formatJournalUnit(index: number, result: UnitResult): string {
  return `${JSON.stringify({ unit: index, result })}\n`;
}

/**
 * The plan index of a journaled unit from the start of its line (`{"unit":<index>,...`), so that a
 * journal of units tens of MB each can be indexed without parsing them; undefined for another line.
 */
export function journalUnitIndex(lineStart: string): number | undefined {
  const match = /^\{"unit":(\d+),/.exec(lineStart);
  return match === null ? undefined : Number(match[1]);
}

/** The unit of one journaled line (`formatJournalUnit`'s). */
export function parseJournalUnitLine(line: string): UnitResult {
  return (JSON.parse(line) as { result: UnitResult }).result;
}

/** Parses a journal; errors name the file, line and field. A torn last line is dropped. */
export function parseJournal(text: string, file: string): Journal {
  const lines = text.split('\n');
  const complete = text.endsWith('\n');
  if (complete) lines.pop();
  const first = parseLine(lines[0] ?? '', file, 1);
  const header = parseInput(headerSchema, first, { file, line: 1, what: 'not a ctxbench run journal' });
  const units = new Map<number, UnitResult>();
  let truncated = false;
  lines.slice(1).forEach((line, i) => {
    const isLast = i === lines.length - 2;
    if (isLast && !complete) {
      truncated = true;
      return;
    }
    const parsed = parseInput(unitSchema, parseLine(line, file, i + 2), { file, line: i + 2, what: 'not a journaled unit' });
    units.set(parsed.unit, parsed.result as unknown as UnitResult);
  });
  return { header, units, truncated };
}

function parseLine(line: string, file: string, number: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new InputError({ file, line: number }, `not JSON: ${(error as Error).message}`);
  }
}

/**
 * A digest of everything a run's results depend on: the tool version, the mode, the planned
 * units, and each scenario as prepared (resolved settings, transcript events, the probes given). A resume
 * whose inputs changed since the journal was started would mix two runs; it is refused instead.
 */
export function fingerprintRun(prepared: readonly PreparedScenario[], units: readonly PlannedUnit[], mode: ProviderMode): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ version: VERSION, mode, units }));
  for (const p of prepared) {
    hash.update(JSON.stringify(p.scenario));
    hash.update(JSON.stringify(p.transcript.events));
    // A scenario of several logs depends on every log, not only the first one its header came from:
    // a resume must refuse a journal when any of them changed (one log at a time, never one string of all).
    for (const log of p.logs ?? []) {
      hash.update(JSON.stringify(log.file));
      hash.update(JSON.stringify(log.transcript.events));
    }
    // A shard read its own logs of a corpus only (run/corpus-files.ts): the others by their files' bytes.
    if (p.corpusLogs !== undefined && p.corpusFiles !== undefined) hash.update(JSON.stringify(p.corpusFiles));
    // The probes given, not those generated from them: a function of what is hashed here, made while the first units run.
    hash.update(JSON.stringify(p.givenProbes ?? null));
  }
  return hash.digest('hex');
}
