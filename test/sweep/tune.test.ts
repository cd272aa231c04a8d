import { describe, expect, it } from 'vitest';
import nock from 'nock';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers/temp.js';
import { runTune, tunableAxes } from '../../src/sweep/tune.js';
import { runSweep } from '../../src/sweep/run.js';
import type { Recommendation } from '../../src/metrics/recommendation.js';

nock.disableNetConnect();

/** A small real Claude Code log, at a window where gatekeeper's settings decide whether it completes. */
const LOG = 'fixtures/real/claude-code/vibecoding-session.jsonl';
const OVERRIDES = { window: 30_000 };

function pickOf(rec: Recommendation): { meets: boolean; cost: number } {
  const picked = rec.candidates.find((c) => c.verdict === 'recommended');
  return { meets: rec.meetsFloor, cost: picked?.costUsd ?? Number.POSITIVE_INFINITY };
}

describe('ctxbench tune', () => {
  it("declares each tunable strategy's options as grid axes over their ranges", () => {
    const [buffer, turns] = tunableAxes(['gatekeeper']);
    expect(buffer?.values).toEqual([0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
    expect(turns?.values).toEqual([1, 2, 3, 4]);
  });

  it('finds a setting at least as good as the full grid of the same options, in at most a third of its runs', async () => {
    const grid = await runSweep({
      scenarios: [LOG],
      grid: tunableAxes(['gatekeeper']).map((axis) => axis.flag),
      overrides: OVERRIDES,
    });
    const tune = await runTune({ scenarios: [LOG], strategies: ['gatekeeper'], overrides: OVERRIDES });
    expect(tune.gridRuns).toBe(grid.points.length - 1);
    expect(tune.runs).toBeLessThanOrEqual(Math.floor(tune.gridRuns / 3));
    const best = pickOf(grid.recommendation);
    const found = pickOf(tune.sweep.recommendation);
    expect(best.meets).toBe(true);
    expect(found.meets).toBe(true);
    expect(found.cost).toBeLessThanOrEqual(best.cost + 1e-9);
    // Deterministic: the same inputs run the same points.
    const again = await runTune({ scenarios: [LOG], strategies: ['gatekeeper'], overrides: OVERRIDES });
    expect(again.rounds).toEqual(tune.rounds);
  }, 300_000);

  it("tunes a strategy module of one's own by its tunable options, with progress counted on across rounds", async () => {
    const module = resolve('examples/js-policy/masking.mjs');
    const events: { done: number; total: number }[] = [];
    const tune = await runTune({
      scenarios: [LOG],
      modules: [module],
      overrides: { window: 60_000 },
      onUnit: (event) => events.push({ done: event.done, total: event.total }),
    });
    expect(tune.sweep.points.every((p) => p.strategy === 'masking' || p.strategy === 'full')).toBe(true);
    expect(tune.sweep.points.filter((p) => p.strategy === 'masking').length).toBe(tune.runs);
    expect(tune.rounds.length).toBeGreaterThan(1);
    expect(tune.sweep.recommendation.strategy).toBe('masking');
    // A later round's units count on from the earlier rounds' (never "4/2 units").
    for (const e of events) expect(e.done).toBeLessThanOrEqual(e.total);
    expect(events.at(-1)?.done).toBe(tune.runs + 1);
  }, 300_000);

  it('refuses a strategy module whose tunable ranges are not ranges, naming the module and option', async () => {
    const dir = tempDir();
    const module = join(dir, 'bad-range.mjs');
    writeFileSync(
      module,
      "export default { name: 'bad', options: (raw) => ({ ok: true, value: raw }), tunable: { keep: { min: 5, max: 1, step: 1 } }, init: () => ({}), prepare: () => [] };\n",
    );
    await expect(runTune({ scenarios: [LOG], modules: [module], overrides: OVERRIDES })).rejects.toThrow(
      /bad-range\.mjs: its `tunable` option keep: expects min ≤ max/,
    );
  });
});
