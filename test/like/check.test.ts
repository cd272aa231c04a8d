import { describe, expect, it } from 'vitest';
import { overSeeds, rankAgreement, resamplePooled, seedDependence, shortfallsOf, unsteadyPasses, type CheckRow } from '../../src/like/check.js';
import { renderCheck } from '../../src/like/render-check.js';

/** A check's figures: real A vs real B, generated-like-A vs real B per seed, and the G column (each strategy's figure averaged over the seeds) vs real B. */
function agreement(realAvsB: number | null, perSeed: readonly (number | null)[], pooledVsB: number | null): Parameters<typeof shortfallsOf>[0]['saving'] {
  return { realAvsB, ...overSeeds(perSeed), pooledVsB, pooledVsA: null, pooledVsBResampled: null };
}

describe('the verdict of generate --like --check', () => {
  it("is on all seeds' sessions together, not on the mean of the per-seed Spearmans", () => {
    // Each seed's draw noise lowers its own Spearman (0.4, 0.3): their mean, 0.533, is short of
    // 0.915 − 0.1, while the strategies' figures averaged over the seeds rank at 0.85.
    const saving = agreement(0.915, [0.9, 0.4, 0.3], 0.85);
    expect(saving.generatedVsB).toBeCloseTo(0.5333333, 6);
    expect(shortfallsOf({ saving, neededRecall: agreement(0.43, [0.5, 0.36, 0.26], 0.4) })).toEqual([]);
    // And a mean within the line does not pass a pooled ranking short of it.
    expect(shortfallsOf({ saving: agreement(0.915, [0.9, 0.85, 0.88], 0.7), neededRecall: agreement(0.43, [0.5], 0.5) })).toEqual(['saving']);
  });

  it('fails each measure whose pooled ranking falls more than 0.1 below real A vs real B', () => {
    expect(shortfallsOf({ saving: agreement(0.43, [0.1], 0.1), neededRecall: agreement(0.43, [0.1], 0.1) })).toEqual(['saving', 'needed recall']);
    expect(shortfallsOf({ saving: agreement(0.5, [0.6, 0.5, 0.4], 0.41), neededRecall: agreement(0.43, [0.2], 0.33) })).toEqual([]);
  });

  it('takes the mean and spread over the seeds that give a figure, and judges none when none does', () => {
    expect(overSeeds([0.2, null, 0.6])).toEqual({ generatedVsBPerSeed: [0.2, null, 0.6], generatedVsB: 0.4, generatedVsBMin: 0.2, generatedVsBMax: 0.6 });
    const none = agreement(0.9, [null, null], null);
    expect(none).toMatchObject({ generatedVsB: null, generatedVsBMin: null, generatedVsBMax: null });
    expect(shortfallsOf({ saving: none, neededRecall: agreement(null, [0.1], 0.1) })).toEqual([]);
  });

  it('pools the seeds: the mean figure of each strategy ranked against B and A, beside the per-seed ones', () => {
    // Each seed swaps one pair of B's order (0.8 each); their means per strategy keep B's order (1).
    const saving = [
      { realA: 0.4, realB: 0.1, generated: [0.1, 0.2] },
      { realA: 0.3, realB: 0.2, generated: [0.25, 0.1] },
      { realA: 0.2, realB: 0.3, generated: [0.5, 0.3] },
      { realA: 0.1, realB: 0.4, generated: [0.3, 0.6] },
    ];
    const rows: CheckRow[] = saving.map((s, i) => ({ strategy: `s${i}`, saving: s, neededRecall: { realA: null, realB: null, generated: [null, null] } }));
    const pooled = rankAgreement(rows, 2, (r) => r.saving);
    expect(pooled.generatedVsBPerSeed).toEqual([0.8, 0.8]);
    expect(pooled.generatedVsB).toBeCloseTo(0.8, 9);
    expect(pooled).toMatchObject({ realAvsB: -1, pooledVsB: 1, pooledVsA: -1 });
    expect(rankAgreement(rows, 2, (r) => r.neededRecall)).toMatchObject({ generatedVsB: null, pooledVsB: null, pooledVsA: null });
  });

  it('says how far the pooled ranking rests on the seeds drawn: resampled with replacement, with the share within the line', () => {
    // Seeds 1 and 2 rank the four strategies as B does, seed 3 reverses them and outweighs the others.
    const generated = [
      [0.1, 0.1, 0.9],
      [0.2, 0.2, 0.6],
      [0.3, 0.3, 0.3],
      [0.4, 0.4, 0.0],
    ];
    const realB = [0.1, 0.2, 0.3, 0.4];
    const r = resamplePooled(generated, realB, 3, 0.5);
    expect(r).not.toBeNull();
    // A draw without seed 3 (8 of 27) ranks as B (1); one with it, in reverse (-1).
    expect(r?.high).toBe(1);
    expect(r?.low).toBe(-1);
    expect(r?.withinLine).toBeGreaterThan(0.2);
    expect(r?.withinLine).toBeLessThan(0.45);
    expect(resamplePooled(generated, realB, 3, 0.5)).toEqual(r);
    // One seed has nothing to resample; no line, no share.
    expect(resamplePooled(generated, realB, 1, 0.5)).toBeNull();
    expect(resamplePooled(generated, realB, 3, null)?.withinLine).toBeNull();
    // Seeds that agree leave the verdict resting on none of them.
    expect(
      resamplePooled(
        generated.map((g) => [g[0], g[1], g[0]] as number[]),
        realB,
        3,
        0.5,
      ),
    ).toEqual({ low: 1, high: 1, withinLine: 1 });
  });

  it('prints the resampled spread under the pooled line', () => {
    const rows: CheckRow[] = [0.1, 0.2, 0.3, 0.4].map((b, i) => ({
      strategy: `s${i}`,
      saving: { realA: b, realB: b, generated: [b, b + 0.01] },
      neededRecall: { realA: null, realB: null, generated: [null, null] },
    }));
    const text = renderCheck({
      window: 32000,
      seeds: [1, 2],
      rows,
      saving: rankAgreement(rows, 2, (r) => r.saving),
      neededRecall: rankAgreement(rows, 2, (r) => r.neededRecall),
    });
    expect(text).toContain('over the seeds resampled: vs real B 1.000 to 1.000 (5th to 95th percentile), within the line in 100 % of resamples');
    expect(text.match(/over the seeds resampled/g)).toHaveLength(1);
  });

  it('says, when a measure fails, whether some resamples of the seeds pass it, and to draw more seeds', () => {
    const failing = { ...agreement(0.915, [0.73, 0.88, 0.56], 0.78), pooledVsBResampled: { low: 0.73, high: 0.83, withinLine: 0.23 } };
    const hopeless = { ...agreement(0.43, [0.1, 0.2], 0.1), pooledVsBResampled: { low: 0.0, high: 0.2, withinLine: 0 } };
    expect(seedDependence({ saving: failing, neededRecall: hopeless }, ['saving', 'needed recall'])).toBe(
      '; saving within the line in 23 % of resamples of the seeds: the verdict rests on the seeds drawn, draw more (--seeds)',
    );
    expect(seedDependence({ saving: failing, neededRecall: hopeless }, ['needed recall'])).toBe('');
    expect(seedDependence({ saving: agreement(0.915, [0.5], 0.5), neededRecall: hopeless }, ['saving'])).toBe('');
  });

  it('names a measure whose pooled verdict holds but fails in more than a tenth of resamples of the seeds', () => {
    const steady = { ...agreement(0.915, [0.9, 0.85, 0.88], 0.9), pooledVsBResampled: { low: 0.84, high: 0.95, withinLine: 0.97 } };
    const drawn = { ...agreement(0.43, [0.5, 0.2, 0.4], 0.4), pooledVsBResampled: { low: 0.2, high: 0.5, withinLine: 0.33 } };
    const failing = { ...agreement(0.915, [0.73, 0.88, 0.56], 0.78), pooledVsBResampled: { low: 0.73, high: 0.83, withinLine: 0.23 } };
    expect(unsteadyPasses({ saving: steady, neededRecall: drawn })).toEqual(['needed recall']);
    expect(seedDependence({ saving: steady, neededRecall: drawn }, ['needed recall'])).toBe(
      '; needed recall within the line in 33 % of resamples of the seeds: the verdict rests on the seeds drawn, draw more (--seeds)',
    );
    // A failing measure is the failure's to name, and one seed has no resamples.
    expect(unsteadyPasses({ saving: failing, neededRecall: steady })).toEqual([]);
    expect(unsteadyPasses({ saving: agreement(0.915, [0.9], 0.9), neededRecall: steady })).toEqual([]);
  });
});
