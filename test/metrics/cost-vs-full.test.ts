import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { runSuite } from '../../src/run/run-suite.js';

const recallFits = resolve(import.meta.dirname, '../../scenarios/recall-fits.yaml');

describe('fewer tokens can cost more dollars (issue 14)', () => {
  it('on the bundled recall-fits, rolling-window saves tokens against full and costs more: it breaks the cached prefix', async () => {
    const result = await runSuite({ scenarios: [recallFits], overrides: { strategies: ['full', 'rolling-window'] } });
    const row = (strategy: string) => result.units.find((u) => u.strategy === strategy)?.summary;
    expect(row('full')).toMatchObject({ crashed: false, saving_vs_full: 0, cost_vs_full: 0 });
    const rolling = row('rolling-window');
    expect(rolling?.saving_vs_full).toBeCloseTo(0.0932, 4);
    // At the implicit cache's expected hit rate (the default, issue 29): 4.0 % dearer.
    expect(rolling?.cost_vs_full).toBeCloseTo(0.0403, 4);
    expect(rolling?.cached_prefix_share).toBeLessThan(row('full')?.cached_prefix_share ?? 0);
  });

  it('billing the upper bound of the implicit cache (every repeated prefix served) widens the gap to 6.4 %', async () => {
    const result = await runSuite({ scenarios: [recallFits], overrides: { strategies: ['full', 'rolling-window'], promptCache: 'upper-bound' } });
    const rolling = result.units.find((u) => u.strategy === 'rolling-window')?.summary;
    expect(rolling?.saving_vs_full).toBeCloseTo(0.0932, 4);
    expect(rolling?.cost_vs_full).toBeCloseTo(0.0641, 4);
    expect(result.scenarios[0]?.promptCache).toBe('openai: implicit, upper bound (the longest live prefix, every time)');
  });
});
