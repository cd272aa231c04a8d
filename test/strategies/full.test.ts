import { describe, expect, it } from 'vitest';
import { full } from '../../src/strategies/full.js';
import { ids, msg, replay } from '../helpers/strategy-harness.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';

const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1'),
  msg.assistant('a2'),
  msg.user('u2'),
  msg.assistant('a3'),
];

describe('full', () => {
  const table: { name: string; events: TranscriptEvent[]; expected: string[] }[] = [
    { name: 'sends every message in order', events: session, expected: ['s', 'u1', 'a1', 't1', 'a2', 'u2', 'a3'] },
    { name: 'honours undo (drops the last group)', events: [...session, { type: 'control', action: 'undo' }], expected: ['s', 'u1', 'a1', 't1', 'a2'] },
    { name: 'honours drop-group', events: [...session, { type: 'control', action: 'drop-group', group: 0 }], expected: ['s', 'u2', 'a3'] },
    {
      name: 'ignores tasks and probes',
      events: [msg.user('u1'), { type: 'task', id: 'k', status: 'in_progress' }, msg.assistant('a1')],
      expected: ['u1', 'a1'],
    },
  ];
  it.each(table)('$name', async ({ events, expected }) => {
    const { context, harness } = await replay(full, {}, events);
    expect(ids(context)).toEqual(expected);
    expect(harness.actions).toEqual([]);
  });
});
