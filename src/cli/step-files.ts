import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { UnitResult } from '../metrics/types.js';
import { unitCsvFiles } from '../report/csv.js';
import { createStepParquet, STEPS_PARQUET } from '../report/parquet.js';
import { redactText, redactWhereSecret } from '../redact/index.js';

/** The files of a row per step, event, answer or needed use, which `merge` writes as it makes each unit. */
export interface StepFiles {
  /** Their names in the output folder, in the order the reporters give them. */
  readonly files: readonly string[];
  /** The next unit of the result, in its order: its rows appended to each file. */
  add(unit: UnitResult): void;
  /** Every file closed and renamed into place; their paths. */
  finish(): string[];
  /** The files given up: their temporary copies removed (nothing once finished). */
  abort(): void;
}

/** One file being written: its place, its temporary copy, and what a unit appends to it. */
interface Target {
  path: string;
  temporary: string;
  fd?: number;
  start(): Uint8Array | string;
  add(unit: UnitResult): Uint8Array | string;
  end(): Uint8Array | string;
}

/**
 * `steps.csv`, `events.csv`, `probes.csv` and `needed.csv` (`csv`, `rot`: report/csv.ts
 * `unitCsvFiles`) and `steps.parquet` (`parquet`) in `out`, with the bytes the reporters write for
 * the same units (report/index.ts `renderReports`, then report/write.ts): each unit's rows as of
 * its stored form, each CSV part redacted as the writer redacts it. A unit is rendered as
 * `merge` makes it, so that no unit of a corpus is kept whole once its rows are written (the
 * reporters read each unit back from a store of them, which `merge` no longer keeps). The unit's
 * strings are redacted before its rows are made, as the result's are before it is rendered
 * (redact/result.ts). Written under temporary names, opened with the first unit, renamed once
 * all are in.
 */
export function createStepFiles(out: string, { csv, parquet, rot }: { csv: boolean; parquet: boolean; rot: boolean }): StepFiles {
  const targets: Target[] = [];
  const temporaryOf = (file: string) => ({ path: join(out, file), temporary: join(out, `${file}.${process.pid}.tmp`) });
  if (csv)
    for (const file of unitCsvFiles(rot))
      targets.push({
        ...temporaryOf(file.file),
        start: () => redactText(file.header),
        add: (unit) => redactText(file.part(unit)),
        end: () => '',
      });
  if (parquet) {
    const writer = createStepParquet();
    targets.push({ ...temporaryOf(STEPS_PARQUET), start: () => new Uint8Array(0), add: (unit) => writer.add(unit), end: () => writer.finish() });
  }
  let opened = false;
  const open = () => {
    mkdirSync(out, { recursive: true });
    opened = true;
    for (const target of targets) {
      target.fd = openSync(target.temporary, 'w');
      write(target, target.start());
    }
  };
  return {
    files: targets.map((target) => target.path.slice(out.length + 1)),
    add(unit) {
      if (targets.length === 0) return;
      if (!opened) open();
      const stored = rowsOf(unit);
      for (const target of targets) write(target, target.add(stored));
    },
    finish() {
      if (!opened) open();
      for (const target of targets) {
        write(target, target.end());
        closeSync(target.fd as number);
        target.fd = undefined;
      }
      for (const target of targets) renameSync(target.temporary, target.path);
      return targets.map((target) => target.path);
    },
    abort() {
      for (const target of targets) {
        if (target.fd === undefined) continue;
        closeSync(target.fd);
        target.fd = undefined;
        rmSync(target.temporary, { force: true });
      }
    },
  };
}

function write(target: Target, data: Uint8Array | string): void {
  if (data.length === 0) return;
  if (typeof data === 'string') writeSync(target.fd as number, data, null, 'utf8');
  else writeSync(target.fd as number, data);
}

/**
 * What the files read of a unit (its names, steps, events, answers and needed uses), redacted: the
 * rest of a corpus's unit (its logs, probe list, curves) is not scanned.
 */
function rowsOf(unit: UnitResult): UnitResult {
  const { scenario, strategy, steps, events, probes } = unit;
  const view = {
    scenario,
    strategy,
    steps,
    events,
    ...(probes !== undefined ? { probes: { answers: probes.answers, ...(probes.needed !== undefined ? { needed: probes.needed } : {}) } } : {}),
  };
  // Only the fields the rows read: the CSV and Parquet rows of a unit are made of these alone (report/csv.ts, report/parquet.ts),
  // which render each number in its stored form (report/json.ts `storedNumber`): the unit is not copied into it.
  return redactWhereSecret(view) as unknown as UnitResult;
}
