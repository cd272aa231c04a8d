import { describe, expect, it } from 'vitest';
import { NOLIMA, RULER } from '../../src/scenario/context-rot-tables.js';
import { CONTEXT_ROT_NAMES, contextRotSchema, resolveContextRot, retrievalProbability, type ContextRotCurve } from '../../src/scenario/context-rot.js';

const K = 1024;

function curve(name: string): ContextRotCurve {
  const resolved = resolveContextRot(name);
  if (resolved === undefined) throw new Error(`${name} resolved to off`);
  return resolved;
}

describe('context-rot curves calibrated on the published tables', () => {
  it('gives each cited NoLiMa score over the base score at its length (GPT-4o: 69.7 / 99.3 at 32K)', () => {
    const gpt4o = curve('nolima');
    expect(gpt4o.name).toBe('nolima:gpt-4o');
    const cited: [number, number][] = [
      [K, 98.1],
      [2 * K, 98.0],
      [4 * K, 95.7],
      [8 * K, 89.2],
      [16 * K, 81.6],
      [32 * K, 69.7],
    ];
    for (const [tokens, score] of cited) expect(retrievalProbability(gpt4o, tokens)).toBeCloseTo(score / 99.3, 10);
    expect(retrievalProbability(gpt4o, 500)).toBe(1);
    const sonnet = curve('nolima:claude-3.5-sonnet');
    expect(retrievalProbability(sonnet, 16 * K)).toBeCloseTo(45.7 / 87.6, 10);
    expect(retrievalProbability(sonnet, 32 * K)).toBeCloseTo(29.8 / 87.6, 10);
  });

  it('gives each cited RULER average over the 4K score (GPT-4-1106-preview: 81.2 / 96.6 at 128K)', () => {
    const gpt4 = curve('ruler');
    expect(gpt4.name).toBe('ruler:gpt-4-1106-preview');
    const cited: [number, number][] = [
      [4 * K, 96.6],
      [8 * K, 96.3],
      [16 * K, 95.2],
      [32 * K, 93.2],
      [64 * K, 87.0],
      [128 * K, 81.2],
    ];
    for (const [tokens, score] of cited) expect(retrievalProbability(gpt4, tokens)).toBeCloseTo(score / 96.6, 10);
  });

  it('interpolates linearly in log-length between two points, and holds the ends', () => {
    const gpt4o = curve('nolima');
    const mid = Math.round(Math.sqrt(8 * K * 16 * K)); // the log-middle of 8K and 16K
    expect(retrievalProbability(gpt4o, mid)).toBeCloseTo((89.2 + 81.6) / 2 / 99.3, 4);
    expect(retrievalProbability(gpt4o, 100)).toBe(1);
    // Past the last published length nothing is extrapolated: the 32K value holds.
    expect(retrievalProbability(gpt4o, 200_000)).toBeCloseTo(69.7 / 99.3, 10);
    expect(retrievalProbability(curve('ruler'), 1_000_000)).toBeCloseTo(81.2 / 96.6, 10);
  });

  it('never rises with length, even where a published score does (Gemini-1.5-pro on RULER: 95.8 at 8K, 96.0 at 16K)', () => {
    const gemini = curve('ruler:gemini-1.5-pro');
    expect(retrievalProbability(gemini, 16 * K)).toBeCloseTo(95.8 / 96.7, 10);
    for (const name of CONTEXT_ROT_NAMES) {
      const c = curve(name);
      let previous = 1;
      for (let tokens = 256; tokens <= 256 * K; tokens = Math.ceil(tokens * 1.1)) {
        const p = retrievalProbability(c, tokens);
        expect(p, `${name} at ${tokens}`).toBeLessThanOrEqual(previous + 1e-12);
        expect(p).toBeGreaterThanOrEqual(0);
        previous = p;
      }
    }
  });

  it('names every published row, takes custom points, and refuses what it cannot use', () => {
    expect(CONTEXT_ROT_NAMES).toHaveLength(2 + Object.keys(NOLIMA).length + Object.keys(RULER).length);
    expect(resolveContextRot('off')).toBeUndefined();
    const custom = resolveContextRot({
      points: [
        [8000, 1],
        [64000, 0.5],
      ],
    });
    expect(custom?.name).toBe('custom');
    expect(retrievalProbability(custom as ContextRotCurve, Math.round(Math.sqrt(8000 * 64000)))).toBeCloseTo(0.75, 4);
    expect(contextRotSchema.safeParse('nolima:gpt-5').success).toBe(false);
    const rising = contextRotSchema.safeParse({
      points: [
        [1000, 0.5],
        [2000, 0.9],
      ],
    });
    expect(rising.success).toBe(false);
    expect(rising.error?.issues[0]?.message).toContain('must not rise');
  });
});
