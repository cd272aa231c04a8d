import { describe, expect, it } from 'vitest';
import { findSpecifics, isSpecificName } from '../../../src/probes/needed/specifics.js';

describe('isSpecificName', () => {
  it.each([
    ['return', false],
    ['Error', false],
    ['HTTPS', false],
    ['réseau', false],
    ['__init__', false],
    ['os.path', true],
    ['a.b.c', false],
    ['max_retries', true],
    ['_private', true],
    ['__dunder', false],
    ['trailing_', false],
    ['utf8x', true],
    ['parseArgs', true],
    ['KeyError', true],
    ['self->next', true],
    ['réseau_2', true],
  ])('%s: %s', (name, expected) => {
    expect(isSpecificName(name)).toBe(expected);
  });
});

describe('findSpecifics', () => {
  it('keeps names with a shape of their own and leaves plain words of any case out', () => {
    const values = findSpecifics('Return the Value of DEBUG_MODE from parseArgs in os.path, not HTTPS or Error.').map((s) => s.value);
    expect(values).toEqual(['DEBUG_MODE', 'parseArgs', 'os.path']);
  });
});
