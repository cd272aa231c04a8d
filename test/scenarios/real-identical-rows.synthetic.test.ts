import { describe, expect, it } from 'vitest';
import { runScenarios, unexplainedIdenticalRows } from './identical-rows.js';

/** The bundled synthetic scenarios (`npm start` runs them beside the real suite). */
const SYNTHETIC = ['scenarios/overflow-coding.yaml', 'scenarios/recall-fits.yaml', 'scenarios/tpm-limited.yaml'];

// The rule and why it is split over files: real-identical-rows.test.ts.
describe('the bundled synthetic scenarios', () => {
  it('have no identical summary rows that their files do not explain', { timeout: 600_000 }, async () => {
    const run = await runScenarios(SYNTHETIC);
    expect(run.byScenario.size).toBe(SYNTHETIC.length);
    expect(unexplainedIdenticalRows(run)).toEqual([]);
  });
});
