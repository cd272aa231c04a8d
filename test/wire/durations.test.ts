import { describe, expect, it } from 'vitest';
import { formatResetDuration, parseDuration } from '../../src/wire/durations.js';

describe('provider durations', () => {
  it.each([
    ['13s', 13_000],
    ['0.5s', 500],
    ['120ms', 120],
    ['6m0s', 360_000],
    ['1m30.5s', 90_500],
    ['1h2m3s', 3_723_000],
    ['20', 20_000],
  ])('parses %s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each([['soon'], [''], ['5 minutes'], [null], [undefined]])('refuses %s', (text) => expect(parseDuration(text)).toBeUndefined());

  it.each([
    [120, '120ms'],
    [1_500, '1.5s'],
    [360_000, '6m0s'],
    [3_723_000, '1h2m3s'],
  ])('formats %i ms as OpenAI does', (ms, text) => {
    expect(formatResetDuration(ms)).toBe(text);
    expect(parseDuration(text)).toBe(ms);
  });
});
