import { describe, expect, it } from 'vitest';
import { parsePriceFile, priceOverrideFor } from '../../src/pricing/file.js';
import { InputError } from '../../src/errors.js';

describe('parsePriceFile', () => {
  it('reads one price for every model, or a map of models', () => {
    expect(parsePriceFile('input: 2\noutput: 8\n', 'p.yaml')).toEqual({ input: 2, output: 8 });
    const map = parsePriceFile('{"models": {"gpt-4.1": {"input": 2, "cachedInput": 0.5, "output": 8}}}', 'p.json');
    expect(map).toEqual({ models: { 'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 } } });
  });

  it('names the file, line and field of a bad value', () => {
    const read = () => parsePriceFile('models:\n  gpt-4.1:\n    input: 2\n    output: "eight"\n', 'p.yaml');
    expect(read).toThrow(InputError);
    expect(read).toThrow(/^p\.yaml:4 \(field models\.gpt-4\.1\.output\): .*expected number/);
    expect(() => parsePriceFile('input: 2\n', 'q.yaml')).toThrow(/^q\.yaml:1 \(field output\)/);
    expect(() => parsePriceFile('input: [2\n', 'r.yaml')).toThrow(/^r\.yaml:\d+: not valid YAML\/JSON/);
  });
});

describe('priceOverrideFor', () => {
  it('gives a single price to every model, and a map’s longest matching name', () => {
    expect(priceOverrideFor({ input: 1, output: 2 }, 'anything')).toEqual({ input: 1, output: 2 });
    const map = { models: { 'gpt-4.1': { input: 2, output: 8 }, 'gpt-4.1-mini': { input: 0.4, output: 1.6 } } };
    expect(priceOverrideFor(map, 'openai/gpt-4.1-mini-2025-04-14')?.input).toBe(0.4);
    expect(priceOverrideFor(map, 'gpt-4.1')?.input).toBe(2);
    expect(priceOverrideFor(map, 'claude-sonnet-4')).toBeUndefined();
  });
});
