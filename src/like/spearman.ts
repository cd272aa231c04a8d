/** Ranks of values, 1 = smallest, ties given the mean of the ranks they span. */
export function ranksOf(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length).fill(0);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]?.value === order[i]?.value) j++;
    for (let k = i; k <= j; k++) ranks[order[k]?.index ?? 0] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}

/**
 * Spearman's rank correlation of two paired lists (Pearson's on their ranks, ties averaged);
 * null with fewer than 3 pairs or when one list has a single value throughout.
 */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length || xs.length < 3) return null;
  const rx = ranksOf(xs);
  const ry = ranksOf(ys);
  const mean = (rx.length + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < rx.length; i++) {
    const dx = (rx[i] as number) - mean;
    const dy = (ry[i] as number) - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}
