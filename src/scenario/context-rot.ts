import { z } from 'zod';
import { DEFAULT_MODELS, NOLIMA, RULER, type PublishedRow } from './context-rot-tables.js';

/**
 * The reader's context-length effect (`reader.contextRot`, docs/probes.md "Context rot"): the
 * probability that a reader retrieves evidence that is in its context, as a function of the
 * context's length in tokens, normalised to the model's short-context score.
 */
export interface ContextRotCurve {
  /** What the curve is (`nolima:gpt-4o`, `ruler:yi-34b`, `custom`), as reports name it. */
  name: string;
  /** `[tokens, probability]` by increasing length; the probability never rises with length. */
  points: readonly (readonly [number, number])[];
}

const BENCHMARKS = { nolima: NOLIMA, ruler: RULER } as const;
type Benchmark = keyof typeof BENCHMARKS;

/** Every curve name a scenario or `--context-rot` may give, besides `off`. */
export const CONTEXT_ROT_NAMES: readonly string[] = (Object.keys(BENCHMARKS) as Benchmark[]).flatMap((benchmark) => [
  benchmark,
  ...Object.keys(BENCHMARKS[benchmark]).map((model) => `${benchmark}:${model}`),
]);

const customPoints = z
  .array(z.tuple([z.number().int().positive(), z.number().min(0).max(1)]))
  .min(1)
  .refine((points) => points.every(([tokens], i) => i === 0 || tokens > (points[i - 1] as [number, number])[0]), 'lengths must increase')
  .refine((points) => points.every(([, p], i) => i === 0 || p <= (points[i - 1] as [number, number])[1]), 'a probability must not rise with length');

/**
 * `reader.contextRot` as written: `off`, a published curve (`nolima`, `ruler`, or one model's:
 * `nolima:claude-3.5-sonnet`), or points of one's own (`{points: [[tokens, p], …]}`).
 */
export const contextRotSchema = z.union([
  z.literal('off'),
  z.string().refine((name) => CONTEXT_ROT_NAMES.includes(name), { message: `use off or one of ${CONTEXT_ROT_NAMES.join(', ')}` }),
  z.strictObject({ points: customPoints }),
]);

export type ContextRotSpec = z.infer<typeof contextRotSchema>;

/** The curve a spec names; undefined for `off`. The spec must have passed `contextRotSchema`. */
export function resolveContextRot(spec: ContextRotSpec): ContextRotCurve | undefined {
  if (spec === 'off') return undefined;
  if (typeof spec !== 'string') return { name: 'custom', points: spec.points.map(([tokens, p]) => [tokens, p] as const) };
  const [benchmark, given] = spec.split(':') as [Benchmark, string | undefined];
  const model = given ?? DEFAULT_MODELS[benchmark];
  const row = BENCHMARKS[benchmark][model];
  if (row === undefined) throw new RangeError(`context rot: no ${benchmark} row for ${model}`);
  return { name: `${benchmark}:${model}`, points: normalisedPoints(row) };
}

/**
 * A published row as probabilities: 1 at the reference length, then each score over the
 * reference, capped at 1 and never above the one before (a running minimum: a score that rose
 * with length, within the benchmark's noise, would let a longer context read what a shorter one
 * missed).
 */
function normalisedPoints(row: PublishedRow): [number, number][] {
  const points: [number, number][] = [[row.referenceTokens, 1]];
  let floor = 1;
  for (const [tokens, score] of row.scores) {
    floor = Math.min(floor, score / row.reference);
    if (tokens === row.referenceTokens) points[0] = [tokens, floor];
    else points.push([tokens, floor]);
  }
  return points;
}

/**
 * The probability that a reader retrieves evidence in a context of `tokens` tokens: linear in
 * log-length between the curve's points, the first point's below it and the last point's past it
 * (no extrapolation beyond what was measured).
 */
export function retrievalProbability(curve: ContextRotCurve, tokens: number): number {
  const { points } = curve;
  const first = points[0];
  const last = points[points.length - 1];
  if (first === undefined || last === undefined) return 1;
  if (tokens <= first[0]) return first[1];
  if (tokens >= last[0]) return last[1];
  for (let i = 1; i < points.length; i++) {
    const [t1, p1] = points[i] as readonly [number, number];
    if (tokens > t1) continue;
    const [t0, p0] = points[i - 1] as readonly [number, number];
    const at = (Math.log(tokens) - Math.log(t0)) / (Math.log(t1) - Math.log(t0));
    return p0 + at * (p1 - p0);
  }
  return last[1];
}
