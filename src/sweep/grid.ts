import { UsageError } from '../errors.js';
import { createRandom } from '../random.js';

/** A value an axis takes: options are numbers, booleans or strings. */
export type AxisValue = number | boolean | string;

/** One `--grid strategy.option=values` flag, parsed. */
export interface GridAxis {
  /** The flag's text, for messages. */
  flag: string;
  strategy: string;
  /** The option's path in the strategy's options (`a.b` sets `{a: {b: value}}`). */
  path: string[];
  /** `path` joined with dots: the axis's name in labels and columns. */
  key: string;
  values: AxisValue[];
}

/** One point of a grid: a strategy and a value per axis of that strategy. */
export interface GridPoint {
  /** Position in the full grid (strategies in the order of their first --grid flag; within one, first axis outermost, last fastest). */
  index: number;
  strategy: string;
  values: Record<string, AxisValue>;
  /** The strategy and `key=value` per axis, space-separated: the point's label in reports and result.json. */
  label: string;
}

/** A grid too large to list is an error; sample it (`--sample N`) instead. */
export const MAX_GRID_POINTS = 10_000;
const MAX_AXIS_VALUES = 10_000;

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Parses `strategy.option=values`, where values is an inclusive range `a..b:step` (step 1 when
 * left out), a list `a,b,c`, or one value. List items are numbers, `true`/`false`, or strings
 * (quotes optional). Range values are computed as `a + i × step` and rounded to the decimals the
 * flag was written with, so `0.5..0.95:0.05` gives exactly 0.5, 0.55, …, 0.95 (ten values).
 */
export function parseGridFlag(flag: string): GridAxis {
  return parseOptionAxis(flag, '--grid');
}

/** `parseGridFlag` for another flag of the same grammar (`run --set`): messages name `flagName`. */
export function parseOptionAxis(flag: string, flagName: string): GridAxis {
  const fail = (problem: string): never => {
    throw new UsageError(`${flagName} '${flag}': ${problem}`);
  };
  const eq = flag.indexOf('=');
  if (eq < 0) fail('expected strategy.option=values (e.g. codex-rebuild.trigger=0.5..0.95:0.05)');
  const [strategy, ...path] = flag.slice(0, eq).trim().split('.');
  if (strategy === undefined || strategy === '' || path.length === 0 || path.some((p) => p === '')) fail('the name must be strategy.option');
  const text = flag.slice(eq + 1).trim();
  if (text === '') fail('no values after =');
  const values = isRange(text) ? parseRange(text, fail) : text.split(',').map((item) => parseValue(item.trim(), fail));
  if (new Set(values.map((v) => JSON.stringify(v))).size !== values.length) fail('a value is listed twice');
  return { flag, strategy: strategy as string, path, key: path.join('.'), values };
}

function isRange(text: string): boolean {
  return text.includes('..') && !text.includes(',') && !/^["']/.test(text);
}

function parseRange(text: string, fail: (problem: string) => never): number[] {
  const [from = '', rest = '', extra] = text.split('..').map((part) => part.trim());
  const [to = '', by = '1', more] = rest.split(':').map((part) => part.trim());
  if (extra !== undefined || more !== undefined || ![from, to, by].every((part) => NUMBER.test(part))) {
    return fail(`a range is a..b or a..b:step with numbers, got "${text}"`);
  }
  const [a, b, step] = [Number(from), Number(to), Number(by)];
  if (!(step > 0)) fail(`the step must be > 0, got ${by}`);
  if (b < a) fail(`the range ends before it starts (${from} > ${to})`);
  const count = Math.floor((b - a) / step + 1e-9) + 1;
  if (count > MAX_AXIS_VALUES) fail(`the range has ${count} values; at most ${MAX_AXIS_VALUES}`);
  const decimals = Math.max(...[from, to, by].map(decimalsOf));
  return Array.from({ length: count }, (_, i) => Number((a + i * step).toFixed(decimals)));
}

/** Decimal places a number was written with (`0.05` → 2, `1e-3` → 3). */
function decimalsOf(text: string): number {
  const [mantissa = '', exponent = '0'] = text.trim().toLowerCase().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.min(20, Math.max(0, fraction - Number(exponent)));
}

function parseValue(item: string, fail: (problem: string) => never): AxisValue {
  if (item === '') return fail('an empty value in the list');
  if (item === 'true' || item === 'false') return item === 'true';
  if (NUMBER.test(item)) return Number(item);
  const quoted = /^(["'])(.*)\1$/.exec(item);
  return quoted !== null ? (quoted[2] as string) : item;
}

/**
 * Checks that each strategy's options are swept once each; returns the strategies swept, in the
 * order of their first --grid flag. Several strategies make one sweep whose points are each
 * strategy's own grid, one after another.
 */
export function checkAxes(axes: readonly GridAxis[]): string[] {
  if (axes.length === 0) throw new UsageError('sweep needs at least one --grid strategy.option=values');
  const seen = new Set<string>();
  for (const axis of axes) {
    const key = `${axis.strategy}.${axis.key}`;
    if (seen.has(key)) throw new UsageError(`--grid '${axis.flag}': ${key} is swept twice`);
    seen.add(key);
  }
  return [...new Set(axes.map((axis) => axis.strategy))];
}

/** The axes of one strategy, in flag order. */
export function axesOf(axes: readonly GridAxis[], strategy: string): GridAxis[] {
  return axes.filter((axis) => axis.strategy === strategy);
}

/** Points in the grid: the sum over strategies of the cartesian product of their axes. */
export function gridSize(axes: readonly GridAxis[]): number {
  return checkAxes(axes).reduce((n, strategy) => n + productSize(axesOf(axes, strategy)), 0);
}

function productSize(axes: readonly GridAxis[]): number {
  return axes.reduce((n, axis) => n * axis.values.length, 1);
}

/** The point at `index` of the grid: the strategy whose block holds it, then mixed radix (last axis fastest). */
export function pointAt(axes: readonly GridAxis[], index: number): GridPoint {
  let offset = index;
  for (const strategy of checkAxes(axes)) {
    const own = axesOf(axes, strategy);
    const size = productSize(own);
    if (offset < size) return productPoint(strategy, own, offset, index);
    offset -= size;
  }
  throw new RangeError(`no grid point ${index}`);
}

function productPoint(strategy: string, axes: readonly GridAxis[], offset: number, index: number): GridPoint {
  const values: Record<string, AxisValue> = {};
  let rest = offset;
  for (let i = axes.length - 1; i >= 0; i--) {
    const axis = axes[i] as GridAxis;
    values[axis.key] = axis.values[rest % axis.values.length] as AxisValue;
    rest = Math.floor(rest / axis.values.length);
  }
  const ordered: Record<string, AxisValue> = {};
  for (const axis of axes) ordered[axis.key] = values[axis.key] as AxisValue;
  const settings = axes.map((axis) => `${axis.key}=${String(ordered[axis.key])}`).join(' ');
  return { index, strategy, values: ordered, label: `${strategy} ${settings}` };
}

/**
 * The points to run: the whole grid, or with `sample` a seeded sample of that many distinct
 * points (Floyd's algorithm: no list of the whole grid is built), in grid order either way.
 */
export function choosePoints(axes: readonly GridAxis[], sample?: { count: number; seed: number }): GridPoint[] {
  const size = gridSize(axes);
  if (sample !== undefined && !(Number.isInteger(sample.count) && sample.count >= 1))
    throw new UsageError(`--sample expects at least 1 point, got ${sample.count}`);
  if (sample === undefined || sample.count >= size) {
    if (size > MAX_GRID_POINTS) throw new UsageError(`the grid has ${size} points; at most ${MAX_GRID_POINTS} run at once: sample it with --sample N`);
    return Array.from({ length: size }, (_, i) => pointAt(axes, i));
  }
  const random = createRandom(sample.seed);
  const chosen = new Set<number>();
  for (let j = size - sample.count; j < size; j++) {
    const t = random.int(0, j);
    chosen.add(chosen.has(t) ? j : t);
  }
  return [...chosen].sort((a, b) => a - b).map((i) => pointAt(axes, i));
}
