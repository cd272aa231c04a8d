import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/quota/clock.js';

describe('createClock', () => {
  it('starts where asked and advances by the given ms', () => {
    const clock = createClock(500);
    expect(clock.now()).toBe(500);
    clock.advance(250);
    expect(clock.now()).toBe(750);
    clock.advance(0);
    expect(clock.now()).toBe(750);
  });

  it('advanceTo only moves forward', () => {
    const clock = createClock();
    clock.advanceTo(1000);
    expect(clock.now()).toBe(1000);
    clock.advanceTo(400);
    expect(clock.now()).toBe(1000);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses to advance by %s', (ms) => {
    const clock = createClock();
    expect(() => clock.advance(ms)).toThrow(RangeError);
    expect(clock.now()).toBe(0);
  });
});
