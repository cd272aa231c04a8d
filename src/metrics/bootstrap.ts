import { createRandom } from '../random.js';

export interface BootstrapOptions {
  resamples: number;
  /** Confidence level in (0, 1), e.g. 0.95. */
  confidence: number;
  seed: number;
}

/**
 * Percentile bootstrap confidence interval of `statistic` over paired samples: each resample
 * draws `samples.length` pairs with replacement (a pair is one step, or one probe, of both runs at
 * once, so the comparison stays paired) and computes the statistic; the interval is the central
 * `confidence` share of the resampled values. Resamples whose statistic is undefined (null, e.g.
 * a zero denominator) are left out. Seeded: the same inputs give the same interval. Null when
 * there are no samples or no resample gave a value.
 */
export function bootstrapInterval<T>(
  samples: readonly T[],
  statistic: (drawn: readonly T[]) => number | null,
  options: BootstrapOptions,
): [number, number] | null {
  if (samples.length === 0) return null;
  const random = createRandom(options.seed);
  const values: number[] = [];
  const drawn: T[] = new Array<T>(samples.length);
  for (let r = 0; r < options.resamples; r++) {
    for (let i = 0; i < samples.length; i++) drawn[i] = samples[random.int(0, samples.length - 1)] as T;
    const value = statistic(drawn);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const tail = (1 - options.confidence) / 2;
  const low = values[Math.min(values.length - 1, Math.floor(tail * values.length))] as number;
  const high = values[Math.max(0, Math.ceil((1 - tail) * values.length) - 1)] as number;
  return [low, high];
}
