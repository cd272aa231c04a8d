/**
 * CSV records as `csv-stringify` writes them with the options report/csv.ts gave it (`,` between
 * cells, `"` to quote, `\n` after every record, formulas escaped, booleans as `true`/`false`,
 * numbers through the caller's formatter; `sweep.csv` too, numbers as `String`), without its per-cell machinery: it made each cell an
 * array of casts and options, which was most of the time `merge` and `run` spent writing a corpus's
 * `steps.csv` (400,000 rows × 21 cells took about 7 s of CPU; this takes a tenth of that).
 * `test/report/csv-format.test.ts` holds it to the library's bytes, cell by cell.
 */

export type Cell = string | number | boolean | bigint | object | null | undefined;

// What makes a cell quoted: the quote itself, the delimiter, or a line break of any kind.
const NEEDS_QUOTES = /[",\n\r]/;
const QUOTES = /"/g;

/**
 * One record: each cell as the library casts it (a string as it is, a number by `formatNumber`, a
 * boolean as `true`/`false`, null and undefined empty), `'` before a cell a spreadsheet would run
 * as a formula (`=`, `+`, `@`, a tab, a carriage return, their full-width forms, and `-` but for a
 * number), quoted when it holds `"`, `,`, `\n` or `\r` (`"` doubled), then `\n`.
 */
export function csvRecord(cells: readonly Cell[], formatNumber: (value: number) => string): string {
  // Joined, not concatenated cell by cell: a line of `+=` is a tree of 40 strings, which V8 copies
  // out piece by piece when the part is scanned (2.3 s of a 477-log merge's 100 MB of CSV).
  const texts = new Array<string>(cells.length);
  for (let i = 0; i < cells.length; i++) texts[i] = csvCell(cells[i], formatNumber);
  return `${texts.join(',')}\n`;
}

/** One cell of a record (`csvRecord`). */
function csvCell(field: Cell, formatNumber: (value: number) => string): string {
  let value: string;
  if (typeof field === 'string') value = field;
  else if (typeof field === 'number') value = formatNumber(field);
  else if (typeof field === 'boolean') value = field ? 'true' : 'false';
  else if (typeof field === 'bigint') value = `${field}`;
  // No cell of a report is an object, but one read from a hand-made result may be: as JSON, as the library wrote it.
  else if (typeof field === 'object' && field !== null) value = (JSON.stringify(field) as string | undefined) ?? '';
  else return '';
  if (value === '') return '';
  const quoted = NEEDS_QUOTES.test(value);
  if (isFormulaStart(value.charCodeAt(0), typeof field === 'number')) value = `'${value}`;
  if (!quoted) return value;
  return `"${value.replace(QUOTES, '""')}"`;
}

/** The first characters the library's `escape_formulas` prefixes with `'`. */
function isFormulaStart(code: number, isNumber: boolean): boolean {
  switch (code) {
    case 0x2d: // -
      return !isNumber;
    case 0x3d: // =
    case 0x2b: // +
    case 0x40: // @
    case 0x09: // tab
    case 0x0d: // carriage return
    case 0xff1d: // full-width =
    case 0xff0b: // full-width +
    case 0xff0d: // full-width -
    case 0xff20: // full-width @
      return true;
    default:
      return false;
  }
}
