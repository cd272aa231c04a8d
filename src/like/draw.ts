import type { Random } from '../random.js';
import type { Quantiles, Shares, TwoLevels } from './fit-types.js';

/**
 * Quantile levels of every distribution in a fit: 0, 5, …, 95 %, then 99 % and the maximum, so
 * that one outlier (a 150k-character message among hundreds of 300) weighs 1 %, not 5 %.
 */
export const LEVELS = [...Array.from({ length: 20 }, (_, i) => i / 20), 0.99, 1];

/**
 * The quantiles of `values` at LEVELS, interpolated between ranks (so a draw can fall between two
 * values seen) and rounded to 3 significant digits; `[]` when there are none.
 */
export function quantilesOf(values: readonly number[]): Quantiles {
  if (values.length === 0) return [];
  const sorted = [...values].sort((a, b) => a - b);
  return LEVELS.map((level) => {
    const at = level * (sorted.length - 1);
    const low = sorted[Math.floor(at)] as number;
    const high = sorted[Math.ceil(at)] as number;
    return round3(low + (high - low) * (at - Math.floor(at)));
  });
}

/**
 * Values of several logs as two levels (fit-types.ts `TwoLevels`): the quantiles of each log's mean
 * and of each value over its log's mean, over the logs with values; a log whose mean is 0 has a
 * mean, no relative values.
 */
export function twoLevelsOf(perLog: readonly (readonly number[])[]): TwoLevels {
  const logs = perLog.filter((values) => values.length > 0).map((values) => ({ values, mean: values.reduce((sum, v) => sum + v, 0) / values.length }));
  return {
    perLog: quantilesOf(logs.map((l) => l.mean)),
    relative: quantilesOf(logs.filter((l) => l.mean > 0).flatMap((l) => l.values.map((v) => v / l.mean))),
    largest: logs.reduce((most, l) => l.values.reduce((m, v) => Math.max(m, v), most), 0),
  };
}

/**
 * A session's draws around the mean of the log it stands for (fit-types.ts `LogLevels`): each value
 * that mean times a relative draw, over the mean of such draws. A log's relative values average 1,
 * but draws between quantiles do not: geometrically across the top 1 % (Claude Code's unlogged
 * content, 14.8 to 177 times a log's mean) they averaged 1.33, so every session sent a third more
 * than the log it stands for and overflowed sooner. `weight` scales the value (a phase of the
 * session that sends more, `LogLevels.unloggedGrowth`); no value exceeds `cap`, by default the
 * largest of the logs.
 */
export function scaleOf(mean: number, levels: TwoLevels, cap = levels.largest): (random: Random, weight?: number) => number {
  const average = meanOfDraws(levels.relative, 1);
  return (each, weight = 1) => (mean === 0 ? 0 : Math.min(cap, (mean * weight * drawFrom(each, levels.relative, 1)) / (average > 0 ? average : 1)));
}

/** The mean of `drawFrom(random, quantiles, fallback)` over its draws, bin by bin as it interpolates (exact, no sampling). */
export function meanOfDraws(quantiles: Quantiles, fallback = 0): number {
  if (quantiles.length !== LEVELS.length) return quantiles.length === 0 ? fallback : (quantiles[0] as number);
  let sum = 0;
  for (let i = 0; i < LEVELS.length - 1; i++) {
    const low = quantiles[i] as number;
    const high = quantiles[i + 1] as number;
    // Geometric between two positive quantiles: the mean of low·(high/low)^u over u in [0, 1).
    const bin = low > 0 && high > 0 && high !== low ? (high - low) / Math.log(high / low) : (low + high) / 2;
    sum += bin * ((LEVELS[i + 1] as number) - (LEVELS[i] as number));
  }
  return sum;
}

/** Each name's fraction of `names`, largest first, rounded to 3 digits. */
export function sharesOf(names: readonly string[]): Shares {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return Object.fromEntries(sorted.map(([name, n]) => [name, round3(n / names.length)]));
}

export function round3(value: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return Number(value.toFixed(Math.min(digits, 6)));
}

/**
 * A value drawn from a distribution given by its quantiles at LEVELS (inverse CDF): between two
 * positive quantiles geometrically, as sizes spread over orders of magnitude; else linearly.
 * `fallback` when empty.
 */
export function drawFrom(random: Random, quantiles: Quantiles, fallback = 0): number {
  if (quantiles.length !== LEVELS.length) return quantiles.length === 0 ? fallback : (quantiles[0] as number);
  const u = random.next();
  let i = 0;
  while (i < LEVELS.length - 2 && u >= (LEVELS[i + 1] as number)) i++;
  const from = LEVELS[i] as number;
  const share = (u - from) / ((LEVELS[i + 1] as number) - from);
  const low = quantiles[i] as number;
  const high = quantiles[i + 1] as number;
  return low > 0 && high > 0 ? low * (high / low) ** share : low + (high - low) * share;
}

/** A name drawn by its share; `fallback` when there are none. */
export function pickShare(random: Random, shares: Shares, fallback: string): string {
  const entries = Object.entries(shares);
  let left = random.next() * entries.reduce((sum, [, share]) => sum + share, 0);
  for (const [name, share] of entries) {
    left -= share;
    if (left < 0) return name;
  }
  return entries.at(-1)?.[0] ?? fallback;
}

/** A count with mean `mean` (Poisson, by inversion; capped so a bad fit cannot loop). */
export function drawCount(random: Random, mean: number): number {
  if (mean <= 0) return 0;
  const limit = Math.exp(-mean);
  let product = random.next();
  let count = 0;
  while (product > limit && count < 1000) {
    product *= random.next();
    count++;
  }
  return count;
}
