import { describe, expect, it } from 'vitest';
import { decideFault } from '../../src/simulator/faults.js';

const keys = Array.from({ length: 2000 }, (_, i) => `gemini-${i + 1}`);

describe('seeded faults', () => {
  it('never fault without rates, always with a rate of 1', () => {
    expect(keys.every((key) => decideFault(1, key, undefined) === undefined)).toBe(true);
    expect(keys.every((key) => decideFault(1, key, {}) === undefined)).toBe(true);
    expect(keys.every((key) => decideFault(1, key, { timeout: 1 }) === 'timeout')).toBe(true);
  });

  it('hit each kind at about its rate', () => {
    const rates = { server500: 0.1, unavailable503: 0.05, timeout: 0.05, malformed: 0.02 };
    const counts = new Map<string, number>();
    for (const key of keys) {
      const kind = decideFault(42, key, rates) ?? 'none';
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    expect((counts.get('server500') ?? 0) / keys.length).toBeCloseTo(0.1, 1);
    expect((counts.get('unavailable503') ?? 0) / keys.length).toBeCloseTo(0.05, 1);
    expect((counts.get('none') ?? 0) / keys.length).toBeCloseTo(0.78, 1);
  });

  it('depend on the seed and the call key only, not on the order of calls', () => {
    const rates = { server500: 0.3 };
    const forward = keys.map((key) => decideFault(9, key, rates));
    const backward = [...keys]
      .reverse()
      .map((key) => decideFault(9, key, rates))
      .reverse();
    expect(backward).toEqual(forward);
    expect(keys.map((key) => decideFault(10, key, rates))).not.toEqual(forward);
  });
});
