import type { RunResult, UnitResult } from '../metrics/types.js';
import { isCorpus } from '../metrics/corpus.js';
import { summaryOnly } from '../metrics/summary-only.js';
import { detailsOf, partedFile, type ReportFile, type Reporter, type UnitDetails } from './types.js';

/** Fractional numbers keep this many decimals, so float noise never changes the bytes. */
const DECIMALS = 6;

/** Stands for the units in the result's own JSON, where each unit's JSON is spliced in. */
const UNITS_MARK = '\u0000ctxbench-units\u0000';

/**
 * `result.json`: the versioned result, keys in the order they were built, 2-space indent and a
 * trailing newline, so that two runs with the same seed give byte-identical files. In parts, one
 * per unit (the bytes are those of one `JSON.stringify` of the whole). A corpus's units are stored
 * summary-only (schema 2): a corpus of 500 logs × every strategy with every step made a file of
 * hundreds of MB; its per-step detail is in `steps.csv` and `steps.parquet`.
 */
export function renderJson(result: RunResult, details: UnitDetails = detailsOf(result)): ReportFile[] {
  const frame = escapeC1(`${JSON.stringify({ ...result, units: UNITS_MARK }, roundFractions, 2)}\n`);
  const mark = JSON.stringify(UNITS_MARK);
  const at = frame.indexOf(mark);
  if (details.count === 0) return [{ file: 'result.json', contents: frame.replace(mark, '[]') }];
  return [
    partedFile('result.json', function* () {
      yield `${frame.slice(0, at)}[\n`;
      for (let i = 0; i < details.count; i++) {
        // A unit sits two levels deep (the result's keys, then the array): four spaces more per line.
        // JSON strings hold no raw newline, so every newline is the layout's own.
        const text = `    ${escapeC1(JSON.stringify(storedUnit(result.units[i] as UnitResult, details, i), roundFractions, 2)).replace(/\n/g, '\n    ')}`;
        yield i < details.count - 1 ? `${text},\n` : `${text}\n  ]`;
      }
      yield frame.slice(at + mark.length);
    }),
  ];
}

/**
 * A unit as `result.json` (schema 2) stores it: a corpus's summary-only (its steps, events,
 * answers and needed uses are in the CSVs and `steps.parquet`), any other whole.
 */
function storedUnit(own: UnitResult, details: UnitDetails, i: number): UnitResult {
  return isCorpus([own]) ? summaryOnly(own) : details.load(i);
}

// DEL and the C1 controls: what this must match.
const C1 = /[\u007F-\u009F]/g;

/**
 * JSON escapes the C0 controls itself but writes DEL and C1 (U+009B, a terminal's CSI) raw: these
 * become `\u009b`-style escapes, the same JSON value, so `cat result.json` cannot drive a terminal.
 */
function escapeC1(json: string): string {
  return json.replace(C1, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The result as `result.json` stores it: fractions rounded to the stored decimals. Every report
 * renders from this form, so a report rendered from a result read back from its file (`merge`,
 * `report`) has the same bytes as the run's own; rounding a raw mean to the CSV's 4 decimals and
 * a stored one gave 48522.0099 against 48522.01 (rounded twice). A copy made as JSON would make it
 * (undefined fields dropped, non-finite numbers null), without building one string of the whole
 * result, which a corpus run's would overflow; made once per result, however many reporters ask.
 */
export function storedForm(result: RunResult): RunResult {
  const known = storedForms.get(result);
  if (known !== undefined) return known;
  const stored = asStored(result) as RunResult;
  storedForms.set(result, stored);
  storedForms.set(stored, stored);
  return stored;
}

const storedForms = new WeakMap<RunResult, RunResult>();

/**
 * The details of a stored result (`storedForm`): each unit in its stored form, with the stored
 * result's own summary row (`details` may hold a unit as it was before `saving_vs_full` and the
 * intervals were filled in, which only the summary row holds).
 */
export function storedDetails(stored: RunResult, details: UnitDetails): UnitDetails {
  if (details.count !== stored.units.length) throw new Error(`unit details: ${details.count} units for a result of ${stored.units.length}`);
  // A unit `details` hands out again as the same object (every reporter that writes steps reads each unit) is copied once.
  const copies = new WeakMap<UnitResult, UnitResult>();
  const storedOf = (unit: UnitResult): UnitResult => {
    const known = copies.get(unit);
    if (known !== undefined) return known;
    const copy = asStored(unit) as UnitResult;
    copies.set(unit, copy);
    return copy;
  };
  return {
    count: details.count,
    load(i) {
      const own = stored.units[i] as UnitResult;
      const unit = storedOf(details.load(i));
      if (unit.scenario !== own.scenario || unit.strategy !== own.strategy)
        throw new Error(`unit details: unit ${i} is ${unit.scenario} × ${unit.strategy}, the result's is ${own.scenario} × ${own.strategy}`);
      return { ...unit, summary: own.summary };
    },
  };
}

/**
 * A number in its stored form (`storedForm`): rounded to the stored decimals, -0 as 0, a
 * non-finite one null. Idempotent: a renderer that applies it to each number it reads renders a
 * unit as it would its stored form (cli/step-files.ts renders a corpus's units so, uncopied).
 */
export function storedNumber(value: number): number | null {
  return !Number.isFinite(value) ? null : Object.is(value, -0) ? 0 : (roundFractions('', value) as number);
}

/** Any value in its stored form (`storedForm`): a copy of an object, a number by `storedNumber`. */
export function storedValue(value: unknown): unknown {
  return asStored(value);
}

function asStored(value: unknown): unknown {
  if (typeof value === 'number') return storedNumber(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => (item === undefined || typeof item === 'function' ? null : asStored(item)));
  const copy: Record<string, unknown> = {};
  // The keys, not Object.entries: a pair array per field of every step was most of a corpus unit's copy.
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item !== undefined && typeof item !== 'function') copy[key] = asStored(item);
  }
  return copy;
}

/** A `JSON.stringify` replacer: fractions keep `DECIMALS` decimals (result.json, sweep.json). */
export function roundFractions(_key: string, value: unknown): unknown {
  if (typeof value !== 'number' || Number.isInteger(value) || !Number.isFinite(value)) return value;
  const rounded = Number(value.toFixed(DECIMALS));
  // toFixed can leave -0 for tiny negatives; JSON would print it as 0 anyway, keep it explicit.
  return Object.is(rounded, -0) ? 0 : rounded;
}

export const json = { name: 'json', render: renderJson } satisfies Reporter;
