import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { UnitResult } from '../metrics/types.js';
import { formatJournalUnit, parseJournalUnitLine } from '../run/journal.js';
import { parsedStoredUnit, roundFractions } from '../report/json.js';
import { readRange } from './file-range.js';

/** The store's file in the output folder while `merge` writes its reports (removed after). */
const STORE_FILE = '.merge-units.jsonl';

/** Units kept once read: two, so that files a part apart in their turns still read each unit once. */
const RECENT = 2;

/**
 * Whole units kept on disk while the reports that write every step read them back one at a time
 * (`merge` of a corpus's shards): each unit one line of JSON, as a run journals its units
 * (run/journal.ts) with fractions rounded (report/json.ts `roundFractions`), so that the reports
 * read the same unit a run's read, in the stored form they render. Made in `out` with the
 * first unit; `remove` deletes it. The last units read are kept (`RECENT`), and handed out again as they are.
 */
export function createUnitStore(out: string): { add(index: number, unit: UnitResult): void; load(index: number): UnitResult | undefined; remove(): void } {
  const path = join(out, STORE_FILE);
  const spans = new Map<number, { offset: number; length: number }>();
  let fd: number | undefined;
  let end = 0;
  // The units read last: files written at once ask for the same unit one after another.
  const recent: { index: number; unit: UnitResult }[] = [];
  return {
    add(index, unit) {
      if (fd === undefined) {
        mkdirSync(out, { recursive: true });
        fd = openSync(path, 'w+');
      }
      // Written as the string it is: a unit of a corpus is tens of MB of JSON, not copied once more into a buffer.
      // With fractions rounded as result.json stores them: a unit read back is in its stored form, which the reports need, not copied into it.
      const line = formatJournalUnit(index, unit, roundFractions);
      const length = Buffer.byteLength(line, 'utf8');
      writeSync(fd, line, end, 'utf8');
      spans.set(index, { offset: end, length: length - 1 });
      end += length;
    },
    load(index) {
      const known = recent.find((entry) => entry.index === index);
      if (known !== undefined) return known.unit;
      const span = spans.get(index);
      if (span === undefined || fd === undefined) return undefined;
      const bytes = readRange(fd, span.offset, span.length, () => new Error(`${path} ended inside a unit it stored`));
      const unit = parsedStoredUnit(parseJournalUnitLine(bytes.toString('utf8')));
      recent.unshift({ index, unit });
      recent.length = Math.min(recent.length, RECENT);
      return unit;
    },
    remove() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      rmSync(path, { force: true });
    },
  };
}
