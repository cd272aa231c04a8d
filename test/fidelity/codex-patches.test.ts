import { beforeAll, describe, expect, it } from 'vitest';
import type { FidelityReport } from '../../src/fidelity/types.js';
import { measureFidelity } from '../../src/fidelity/measure.js';

/**
 * Two real Codex 0.57 rollouts with 13 freeform `apply_patch` calls each and shell outputs past
 * Codex's 10 KiB cap (fixtures/real/codex-patches). Counted as JSON arguments and whole outputs
 * they read 8.6 % high (median; p95 16 %); as the model saw them, 2.8 % (p95 7.2 %).
 */
const FILES = ['moonmind-019a7ae6', 'moonmind-019a7fa9'].map((name) => `fixtures/real/codex-patches/${name}.jsonl`);

let report: FidelityReport;

beforeAll(async () => {
  report = await measureFidelity(FILES);
}, 120_000);

describe('fidelity of the Codex apply_patch rollouts', () => {
  it('replays every step within 3 % median and 8 % p95 (reached 2.8 % and 7.2 %)', () => {
    const codex = report.formats.find((f) => f.format === 'codex');
    expect(codex?.steps).toBe(182);
    expect(codex?.offset?.medianAbs).toBeLessThan(0.03);
    expect(codex?.offset?.p95Abs).toBeLessThan(0.08);
  });
});
