import { describe, expect, it } from 'vitest';
import { idleSeedStrategies, runScenarios, unexplainedIdenticalRows } from './identical-rows.js';

// The rule and why it is split over files: real-identical-rows.test.ts.
describe('the bundled real suite: the compacted Claude Code session', () => {
  it('has no identical rows its file does not explain, and its seed strategies act', { timeout: 600_000 }, async () => {
    const run = await runScenarios(['scenarios/real/real-claude-code-vsla-compacted.yaml']);
    expect(run.byScenario.size).toBe(1);
    expect(unexplainedIdenticalRows(run)).toEqual([]);
    expect(idleSeedStrategies(run)).toEqual([]);
  });
});
