import { describe, expect, it } from 'vitest';
import { parseHeadObjects } from '../../../../src/transcript/importers/shared/lines.js';

describe('parseHeadObjects', () => {
  it("parses a head once however many importers ask (format detection asks several of the same head)", () => {
    const head = ['{"type":"session","id":"a"}', '{"cut short', '[1]', '{"b":2}'];
    const objects = parseHeadObjects(head);
    expect(objects).toEqual([{ type: 'session', id: 'a' }, { b: 2 }]);
    expect(parseHeadObjects(head)).toBe(objects);
    // Another head of the same lines is parsed on its own.
    expect(parseHeadObjects([...head])).not.toBe(objects);
    expect(parseHeadObjects([...head])).toEqual(objects);
  });
});
