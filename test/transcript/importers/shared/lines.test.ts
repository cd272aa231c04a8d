import { afterEach, describe, expect, it, vi } from 'vitest';
import { headValue, parseHeadObjects } from '../../../../src/transcript/importers/shared/lines.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a file's head", () => {
  it('is parsed once however many ask of it (telling a format asks several importers of the same head)', () => {
    const head = ['{"type":"session","id":"a"}', '{"cut short', '[1]', '{"b":2}'];
    const parse = vi.spyOn(JSON, 'parse');
    const objects = parseHeadObjects(head);
    expect(objects).toEqual([{ type: 'session', id: 'a' }, { b: 2 }]);
    // The objects too, whose depth is checked by walking them.
    expect(parseHeadObjects(head)).toBe(objects);
    expect(headValue(head, 0)).toEqual({ type: 'session', id: 'a' });
    expect([headValue(head, 1), headValue(head, 2), headValue(head, 9)]).toEqual([undefined, [1], undefined]);
    expect(parse).toHaveBeenCalledTimes(head.length);
    // Another head of the same lines is parsed on its own.
    expect(parseHeadObjects([...head])).toEqual([{ type: 'session', id: 'a' }, { b: 2 }]);
    expect(parse).toHaveBeenCalledTimes(2 * head.length);
  });

  it('leaves out, as a line of a log, objects nested past what a transcript may be', () => {
    const deep = `${'{"a":'.repeat(300)}1${'}'.repeat(300)}`;
    expect(parseHeadObjects([deep, '{"b":1}'])).toEqual([{ b: 1 }]);
  });
});
