import { describe, expect, it } from 'vitest';
import {
  PERSISTENT_MIN_CALLS,
  PERSISTENT_MIN_TOKENS,
  PERSISTENT_WINDOW,
  RESET_MIN_SHARE,
  RESET_MIN_TOKENS,
  resetSteps,
  UNLOGGED_MIN_SHARE,
  UNLOGGED_MIN_TOKENS,
  unloggedBySteps,
  unloggedInContext,
  withResets,
} from '../../src/replay/unlogged.js';

const step = (recorded: number, computed: number, segment = 0): { recorded: number; computed: number; segment: number } => ({ recorded, computed, segment });

describe('unloggedBySteps', () => {
  it('finds the recorded growth that the added messages cannot explain (a 6.5k reminder after a 400-token result)', () => {
    // Shaped on vsla-0a725fb5 steps 45–46: recorded +6,857 for +392 computed.
    expect(unloggedBySteps([step(57_792, 43_400), step(64_649, 43_792)])).toEqual([0, 6_465]);
  });
  it('leaves growth within the tokenizer mismatch alone: under 500 tokens, or under half the computed growth', () => {
    expect(UNLOGGED_MIN_TOKENS).toBe(500);
    expect(UNLOGGED_MIN_SHARE).toBe(0.5);
    // +450 beyond a 100-token increment; +1,500 beyond an 8,320-token increment (18 %).
    expect(unloggedBySteps([step(20_000, 5_000), step(20_550, 5_100), step(30_370, 13_420)])).toEqual([0, 0, 0]);
    // +2,903 beyond a 3,943-token increment (74 %) is content the log does not hold.
    expect(unloggedBySteps([step(123_602, 100_000), step(130_448, 103_943)])).toEqual([0, 2_903]);
  });
  it('never compares across a compaction, and finds nothing where the replay counts more than was sent', () => {
    expect(unloggedBySteps([step(150_000, 130_000), step(31_000, 2_000, 1), step(30_000, 4_000, 1)])).toEqual([0, 0, 0]);
  });
});

describe('unloggedBySteps, persistent excess', () => {
  /** Calls that each add `growth` computed tokens and `growth + excess` recorded ones. */
  const calls = (n: number, growth: number, excess: (i: number) => number, segment = 0) => {
    const out = [step(20_000, 2_000, segment)];
    for (let i = 1; i < n; i++) {
      const last = out[i - 1] as { recorded: number; computed: number };
      out.push(step(last.recorded + growth + excess(i), last.computed + growth, segment));
    }
    return out;
  };

  /** Calls whose computed growth cycles through `sizes`, each with recorded growth `growth + excess`. */
  const sized = (n: number, sizes: readonly number[], excess: (growth: number, i: number) => number) => {
    const out = [step(20_000, 2_000)];
    for (let i = 1; i < n; i++) {
      const last = out[i - 1] as { recorded: number; computed: number };
      const growth = sizes[i % sizes.length] as number;
      out.push(step(last.recorded + growth + excess(growth, i), last.computed + growth));
    }
    return out;
  };

  it('charges every call, from the tenth on, the intercept of the excess fitted against the growth when it passes 50 tokens (hook output on every call)', () => {
    expect([PERSISTENT_WINDOW, PERSISTENT_MIN_CALLS, PERSISTENT_MIN_TOKENS]).toEqual([20, 10, 50]);
    // Shaped on swordintel-0c45b0a6 (Claude Code 1.0.81): ~200 tokens a call beyond 100–300-token steps.
    const found = unloggedBySteps(sized(14, [100, 300, 200], (_, i) => (i % 2 === 0 ? 190 : 210)));
    expect(found.slice(0, 11)).toEqual(Array(11).fill(0));
    expect(found.slice(11).map((n) => Math.abs(n - 200) <= 15)).toEqual([true, true, true]);
  });

  it('finds the per-call content on sessions whose calls are all large (swordintel-b260c379: a 1k-token banner nearly every call)', () => {
    // +220 a call on calls of 750–1,500 tokens, ±20 of noise: no call under 250 tokens to measure it on.
    const found = unloggedBySteps(sized(30, [760, 1_150, 950, 1_480, 830], (_, i) => 220 + ([0, 20, -20, 10, -10, 15, -15][i % 7] as number)));
    expect(found.slice(0, 11)).toEqual(Array(11).fill(0));
    // The line is extrapolated from 750 tokens down to 0: within 40 of the content, where a median of small calls found nothing.
    for (const n of found.slice(11)) expect(Math.abs(n - 220)).toBeLessThan(40);
  });

  it('charges nothing for tokenizer mismatch (proportional to the call, of either sign, or a small intercept), for calls all of one size, nor past a compaction', () => {
    // 18.5 % uncounted on 200–3,000-token calls is the tokenizer (o200k_base counting a Claude session raw), not content sent with every call.
    expect(unloggedBySteps(sized(30, [200, 3_000, 900, 1_700], (g) => Math.round(0.185 * g))).every((n) => n === 0)).toBe(true);
    expect(unloggedBySteps(sized(30, [200, 3_000, 900, 1_700], (g) => Math.round(-0.1 * g))).every((n) => n === 0)).toBe(true);
    expect(unloggedBySteps(sized(30, [150, 250], (_, i) => (i % 3 === 0 ? 120 : 10))).every((n) => n === 0)).toBe(true);
    expect(unloggedBySteps(calls(30, 200, () => -150)).every((n) => n === 0)).toBe(true);
    // Every call adds the same: 300 more could be either, so nothing is charged.
    expect(unloggedBySteps(calls(30, 2_000, () => 300)).every((n) => n === 0)).toBe(true);
    // Ten calls of excess, then a compaction: the next segment starts its own window.
    const steps = [...sized(11, [100, 200], () => 200), ...calls(5, 150, () => 200, 1)];
    expect(unloggedBySteps(steps).slice(11)).toEqual([0, 0, 0, 0, 0]);
  });

  it('leaves a jump out of the window and charges it alone; a large call is charged the per-call content too', () => {
    const steps = sized(13, [100, 200], (_, i) => (i === 12 ? 3_000 : 200));
    expect(unloggedBySteps(steps).slice(10)).toEqual([0, 200, 3_000]);
    const mixed = [...sized(12, [100, 200], () => 200)];
    const last = mixed.at(-1) as { recorded: number; computed: number };
    mixed.push(step(last.recorded + 4_000 + 250, last.computed + 4_000));
    expect(unloggedBySteps(mixed).slice(11)).toEqual([200, 200]);
  });
});

describe('unloggedInContext', () => {
  it('adds up within a segment and starts again after a compaction', () => {
    const steps = [step(20_000, 5_000), step(27_000, 5_200), step(28_000, 6_100), step(10_000, 1_000, 1), step(11_000, 1_900, 1)];
    expect(unloggedBySteps(steps)).toEqual([0, 6_800, 0, 0, 0]);
    expect(unloggedInContext(steps)).toEqual([0, 6_800, 6_800, 0, 0]);
  });
});

describe('resetSteps: a rebuild of the context from the log', () => {
  it('finds a fall of the recorded input beyond what the computed growth explains (swordintel-32c5211e step 123: −18,231)', () => {
    expect([RESET_MIN_TOKENS, RESET_MIN_SHARE]).toEqual([4_000, 0.5]);
    // Shaped on swordintel-32c5211e steps 121–124: +26 computed, −18,205 recorded.
    const steps = [step(97_502, 98_000), step(97_867, 98_365), step(79_662, 98_391), step(80_753, 99_480)];
    expect(resetSteps(steps)).toEqual([2]);
    expect(withResets(steps).map((s) => s.segment)).toEqual([0, 0, 1, 1]);
  });
  it('leaves alone a tokenizer mismatch on a large output, a small fall (a changed tool list), and a compaction', () => {
    // sympy-15976 step 35: +74,846 computed, +57,865 recorded (a 17k shortfall, 23 % of the growth).
    expect(resetSteps([step(22_795, 20_000), step(80_660, 94_846)])).toEqual([]);
    // Claude Code's /mcp: −1,457 recorded for +547 computed.
    expect(resetSteps([step(41_092, 40_000), step(39_635, 40_547)])).toEqual([]);
    expect(resetSteps([step(150_000, 130_000), step(31_000, 2_000, 1)])).toEqual([]);
  });
  it('drops the unlogged content carried before the rebuild: the segment it opens starts carrying nothing', () => {
    const steps = withResets([step(20_000, 5_000), step(27_000, 5_200), step(28_000, 6_100), step(21_500, 6_300), step(22_400, 7_200)]);
    expect(unloggedInContext(steps)).toEqual([0, 6_800, 6_800, 0, 0]);
  });
});

describe('usage a generator wrote', () => {
  it('reads nothing unlogged from a synthetic session (≈ 4 characters a token), which the same usage read as a log would seem to hold', async () => {
    const { generateSession } = await import('../../src/transcript/synthetic/generate.js');
    const { resolveHiddenPrefix } = await import('../../src/replay/hidden-prefix.js');
    const { createTokenizer } = await import('../../src/tokens/tokenizer.js');
    // The default suite's tpm-limited session.
    const synthetic = generateSession({ seed: 11, steps: 40, dialect: 'openai', toolOutputTokens: 1200, facts: 6 });
    const asLog = { ...synthetic, header: { ...synthetic.header, source: { format: 'codex' } } };
    expect(resolveHiddenPrefix('auto', synthetic, createTokenizer('o200k_base'), 'openai').unlogged).toBeUndefined();
    expect(Object.keys(resolveHiddenPrefix('auto', asLog, createTokenizer('o200k_base'), 'openai').unlogged ?? {}).length).toBeGreaterThan(0);
  });
});
