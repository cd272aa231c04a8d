import { describe, expect, it } from 'vitest';
import { alignCut, dropOldestItem, pinNewestUser } from '../../../src/strategies/helpers/message-units.js';
import type { ContextMessage } from '../../../src/transcript/types.js';
import { ids, msg } from '../../helpers/strategy-harness.js';

const history = [
  msg.system('s'),
  msg.user('u1'),
  {
    ...msg.call('a1', 'c1'),
    toolCalls: [
      { id: 'c1', name: 'read', args: {} },
      { id: 'c2', name: 'read', args: {} },
    ],
  },
  msg.tool('t1', 'c1'),
  msg.tool('t2', 'c2'),
  msg.assistant('a2'),
  msg.user('u2'),
  msg.assistant('a3'),
] as ContextMessage[];

describe('message units', () => {
  it.each([
    { index: 4, expected: 2 },
    { index: 3, expected: 2 },
    { index: 5, expected: 5 },
    { index: 0, expected: 0 },
    { index: 99, expected: 8 },
  ])('alignCut($index) moves the cut back to the call of any result after it', ({ index, expected }) => {
    expect(alignCut(history, index)).toBe(expected);
  });

  it('dropOldestItem drops a call together with its results', () => {
    expect(ids(dropOldestItem(history.slice(2)))).toEqual(['a2', 'u2', 'a3']);
    expect(ids(dropOldestItem(history))).toEqual(ids(history.slice(1)));
  });

  it('pinNewestUser keeps the newest user message in front of a tail that does not reach it', () => {
    const long = [...history, msg.call('a4', 'c4'), msg.tool('t4', 'c4'), msg.assistant('a5')] as ContextMessage[];
    expect(ids(pinNewestUser(long, 8))).toEqual(['u2', 'a4', 't4', 'a5']);
    expect(ids(pinNewestUser(long, 6))).toEqual(['u2', 'a3', 'a4', 't4', 'a5']);
  });
});
