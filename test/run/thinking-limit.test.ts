import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runSuite } from '../../src/run/run-suite.js';
import type { UnitResult } from '../../src/metrics/types.js';
import { writeFiles } from '../helpers/temp.js';

/**
 * tri-modal's dynamic thinking budget end to end: the strategy limits the step's thinking, the
 * gateway sends it as Gemini's thinkingBudget, and the simulated model bills the replayed step's
 * reasoning up to that budget, so completion tokens drop while the context stays the same.
 */
const scenario = [
  'name: thinking',
  'transcript:',
  '  generate: { steps: 12, seed: 5, dialect: gemini, toolOutputTokens: 300 }',
  'provider: gemini',
  'window: 200000',
  'quota: { tpm: 1000000 }',
  'seed: 5',
  // Under 2M tokens left in every minute of a 1M-TPM quota: the limit holds at every step.
  'strategies: [full, {strategy: tri-modal, options: {thinkingQuotaTokens: 2000000, thinkingCapTokens: 5}}]',
].join('\n');

const unit = (units: UnitResult[], label: string): UnitResult => {
  const found = units.find((u) => u.strategy === label);
  if (found === undefined) throw new Error(`no unit ${label}`);
  return found;
};

describe('output-side thinking budget', () => {
  it('charges fewer completion tokens for the same context when tri-modal limits thinking', async () => {
    const dir = writeFiles({ 's.yaml': scenario });
    const { units } = await runSuite({ scenarios: [join(dir, 's.yaml')] });
    const full = unit(units, 'full').steps;
    const limited = unit(units, 'tri-modal').steps;
    expect(limited.map((s) => s.contextTokens)).toEqual(full.map((s) => s.contextTokens));
    expect(full.slice(0, 3).map((s) => s.completionTokens)).toEqual([40, 69, 89]);
    expect(limited.slice(0, 3).map((s) => s.completionTokens)).toEqual([31, 29, 52]);
    for (const [i, step] of limited.entries()) expect(step.completionTokens).toBeLessThan(full[i]?.completionTokens ?? 0);
    expect(unit(units, 'tri-modal').summary.completion_tokens).toBe(556);
    expect(unit(units, 'full').summary.completion_tokens).toBe(804);
  });
});
