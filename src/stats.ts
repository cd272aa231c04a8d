/** A robust straight-line fit `recorded ≈ slope · computed + intercept`. */
export interface LineFit {
  slope: number;
  intercept: number;
}

/** The distribution of one kind of relative error over a set of steps. */
export interface ErrorStats {
  count: number;
  /** Signed: the median, 5th and 95th percentiles (nearest rank). */
  median: number;
  p5: number;
  p95: number;
  /** Of the absolute error: the median and the 95th percentile (nearest rank). */
  medianAbs: number;
  p95Abs: number;
}

/** The median of `values` (the mean of the two middle ones for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  // A typed array sorts in native code, with no comparator called from it (a cold run sorts the
  // replay's Theil–Sen slopes, thousands of them, before its comparator is compiled). It orders
  // numbers as the comparator does, but for NaN (which the comparator leaves unordered) and -0,
  // which it puts before 0 where the comparator keeps their order: a middle 0 is taken from the
  // comparator's sort, so the sign is the same.
  const typed = Float64Array.from(values);
  if (!typed.some(Number.isNaN)) {
    const middle = middleOf(typed.sort());
    if (middle !== 0) return middle;
  }
  return middleOf([...values].sort((a, b) => a - b));
}

function middleOf(sorted: ArrayLike<number>): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * The `q` quantile by nearest rank: the smallest value with at least `q` of the values at or below
 * it. Always one of the values, so a p95 over few steps is the worst of them, never an
 * interpolation that no step reached. NaN when empty.
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

/** Median, 5th and 95th percentiles of signed errors, and median and p95 of their absolute values. */
export function summarizeErrors(errors: readonly number[]): ErrorStats {
  const absolute = errors.map((e) => Math.abs(e));
  return {
    count: errors.length,
    median: median(errors),
    p5: quantile(errors, 0.05),
    p95: quantile(errors, 0.95),
    medianAbs: median(absolute),
    p95Abs: quantile(absolute, 0.95),
  };
}

/**
 * The Theil–Sen line through the points: the median of the slopes of every pair with distinct x,
 * then the median intercept. Robust to a few odd steps (a model switch, a turn boundary), which a
 * least-squares fit over a handful of steps is not. Undefined when no two x differ.
 */
export function fitTheilSen(xs: readonly number[], ys: readonly number[]): LineFit | undefined {
  const slopes: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      const dx = (xs[j] as number) - (xs[i] as number);
      if (dx !== 0) slopes.push(((ys[j] as number) - (ys[i] as number)) / dx);
    }
  }
  if (slopes.length === 0) return undefined;
  const slope = median(slopes);
  return { slope, intercept: median(ys.map((y, i) => y - slope * (xs[i] as number))) };
}

/**
 * The largest of `values`, or `floor` when there are none or all are smaller. A loop, never
 * `Math.max(...values)`: spreading an array into a call puts every element on the stack, and a
 * corpus-sized series (hundreds of thousands of steps) overflows it.
 */
export function maxOf(values: Iterable<number>, floor = Number.NEGATIVE_INFINITY): number {
  let max = floor;
  for (const value of values) if (value > max) max = value;
  return max;
}

/** The smallest of `values`, or `ceiling` when there are none or all are larger (a loop, as `maxOf`). */
export function minOf(values: Iterable<number>, ceiling = Number.POSITIVE_INFINITY): number {
  let min = ceiling;
  for (const value of values) if (value < min) min = value;
  return min;
}
