import { describe, expect, it } from 'vitest';
import { UNLOGGED_MIN_SHARE, UNLOGGED_MIN_TOKENS, unloggedBySteps, unloggedInContext } from '../../src/replay/unlogged.js';

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

describe('unloggedInContext', () => {
  it('adds up within a segment and starts again after a compaction', () => {
    const steps = [step(20_000, 5_000), step(27_000, 5_200), step(28_000, 6_100), step(10_000, 1_000, 1), step(11_000, 1_900, 1)];
    expect(unloggedBySteps(steps)).toEqual([0, 6_800, 0, 0, 0]);
    expect(unloggedInContext(steps)).toEqual([0, 6_800, 6_800, 0, 0]);
  });
});
