import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { csvRecord, type Cell } from '../../src/report/csv-format.js';
import { createRandom } from '../../src/random.js';

// The formatter report/csv.ts gives: at most 4 decimals.
const formatNumber = (value: number): string => {
  if (Number.isInteger(value) || !Number.isFinite(value)) return String(value);
  const rounded = Number(value.toFixed(4));
  return String(Object.is(rounded, -0) ? 0 : rounded);
};

/** What csv-stringify wrote for the same record with report/csv.ts's former options. */
function library(cells: readonly Cell[]): string {
  const columns = cells.map((_, i) => `c${i}`);
  return stringify([cells], {
    header: false,
    columns,
    escape_formulas: true,
    cast: { boolean: (value) => (value ? 'true' : 'false'), number: formatNumber },
  });
}

// Every character the library treats apart, and plain ones around them.
const PIECES = [
  'a',
  'Z',
  '0',
  ' ',
  ',',
  '"',
  '""',
  '\n',
  '\r',
  '\r\n',
  '\t',
  "'",
  '-',
  '=',
  '+',
  '@',
  '\uFF1D',
  '\uFF0B',
  '\uFF0D',
  '\uFF20',
  '\u001b',
  'é',
  '😀',
];
const NUMBERS = [0, -0, 1, -1, 0.5, -0.5, 1 / 3, -2 / 3, 1e21, -1e-7, 123456.78915, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 31];

describe('csvRecord', () => {
  it('writes every kind of cell as csv-stringify did', () => {
    const cells: Cell[] = [
      undefined,
      null,
      true,
      false,
      '',
      12n,
      { a: 1, b: 'x,"y' },
      [1, '-2'],
      ...NUMBERS,
      ...PIECES,
      ...PIECES.map((p) => `x${p}y`),
      ...PIECES.map((p) => `${p}x`),
    ];
    for (const cell of cells) expect(csvRecord([cell], formatNumber), typeof cell === 'bigint' ? `${cell}n` : JSON.stringify(cell)).toBe(library([cell]));
    expect(csvRecord(cells, formatNumber)).toBe(library(cells));
  });

  it('matches it on random records of those pieces', () => {
    const random = createRandom(37);
    for (let n = 0; n < 2000; n++) {
      const cells: Cell[] = Array.from({ length: random.int(1, 6) }, () => {
        const pick = random.next();
        if (pick < 0.15) return random.pick(NUMBERS);
        if (pick < 0.2) return random.chance(0.5) ? undefined : null;
        let text = '';
        for (let k = random.int(0, 4); k > 0; k--) text += random.pick(PIECES);
        return text;
      });
      expect(csvRecord(cells, formatNumber), JSON.stringify(cells)).toBe(library(cells));
    }
  });
});

describe('csvRecord with String for numbers (sweep.csv)', () => {
  it("writes a record as csv-stringify did with sweep's former options (numbers by the library's own cast)", () => {
    const cells: Cell[] = ['groups=2', 0.5556, 1255409, -0.25, true, false, null, undefined, 'loses 100 %, "all" of it', '=1+1', '-x'];
    const columns = cells.map((_, i) => `c${i}`);
    const expected = stringify([cells], { header: false, columns, escape_formulas: true, cast: { boolean: (value) => (value ? 'true' : 'false') } });
    expect(csvRecord(cells, String)).toBe(expected);
  });
});
