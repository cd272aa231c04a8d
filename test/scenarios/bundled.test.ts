import { describe, expect, it } from 'vitest';
import { runSuite } from '../../src/run/run-suite.js';
import { preparedBundled } from './bundled-prepared.js';

/**
 * The bar every bundled scenario (the default suite, `npm start`) meets: at least 30 steps and
 * probes to ask — 8 at least for a real log's generated ones — so that no row is a one-step crash
 * or a recall figure of two questions.
 */
const prepared = await preparedBundled('scenarios');

describe('the bundled suite', () => {
  it.each(prepared.map((p) => ({ name: p.scenario.name, p })))('$name has at least 30 steps and its probes', ({ p }) => {
    const logs = p.logs ?? [{ transcript: p.transcript, probes: p.probes }];
    const steps = logs.reduce((n, log) => n + log.transcript.events.filter((e) => e.type === 'message' && e.role === 'assistant').length, 0);
    const probes = logs.reduce((n, log) => n + (log.probes?.probes.length ?? 0), 0);
    expect(steps).toBeGreaterThanOrEqual(30);
    // How many each real scenario yields is pinned in real.test.ts.
    expect(probes).toBeGreaterThanOrEqual(1);
  });

  it('crashes `full` no earlier than step 10 in the real crash windows', { timeout: 240_000 }, async () => {
    const files = ['scenarios/real/real-claude-code-vibecoding-session.yaml', 'scenarios/real/real-claude-code-vsla-compacted.yaml'];
    const result = await runSuite({ scenarios: files, overrides: { strategies: ['full'] } });
    expect(result.units.map((u) => [u.scenario, u.summary.crash_step, u.summary.steps_completed])).toEqual([
      ['real-claude-code-vibecoding-session', 27, 27],
      ['real-claude-code-vsla-compacted', 168, 168],
    ]);
  });
});
