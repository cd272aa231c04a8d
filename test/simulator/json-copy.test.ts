import { describe, expect, it } from 'vitest';
import { NOT_JSON, copyJson } from '../../src/simulator/json-copy.js';

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

describe('copyJson', () => {
  it('copies a JSON value as its round trip gives it, as a new object', () => {
    const reply = {
      id: 'chatcmpl-ctxbench-sim',
      created: 0,
      choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', function: { arguments: '{"a":1}' } }] } }],
      usage: { prompt_tokens: 12, completion_tokens: 3.5, details: { cached: 0 } },
      text: 'lone \ud800 surrogate, émoji 🙂, "quotes"\n',
      2: 'an integer key',
      flags: [true, false, null],
    };
    const copy = copyJson(reply);
    expect(copy).toEqual(roundTrip(reply));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(roundTrip(reply)));
    expect(copy).not.toBe(reply);
    expect((copy as typeof reply).choices).not.toBe(reply.choices);
  });

  it('refuses what a round trip would change: undefined, non-finite numbers, -0, holes, class instances, toJSON and __proto__ keys', () => {
    const proto = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    const refused: unknown[] = [
      { a: undefined },
      [undefined],
      { n: Number.NaN },
      [Number.POSITIVE_INFINITY],
      { zero: -0 },
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
      { at: new Date(0) },
      { toJSON: () => 'x' },
      proto,
      () => 1,
      1n,
      Symbol('s'),
    ];
    for (const value of refused) expect(copyJson(value)).toBe(NOT_JSON);
    expect(copyJson(Object.create(null) as object)).toEqual({});
  });
});
