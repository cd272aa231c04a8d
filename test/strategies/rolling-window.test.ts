import { describe, expect, it } from 'vitest';
import { rollingWindow } from '../../src/strategies/rolling-window.js';
import { ids, msg, replay } from '../helpers/strategy-harness.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';

const threeGroups: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1'),
  msg.user('u2'),
  msg.assistant('a2'),
  msg.user('u3'),
  msg.call('a3', 'c3'),
  msg.tool('t3', 'c3'),
];

describe('rolling-window', () => {
  const table: { name: string; groups?: number; events: TranscriptEvent[]; expected: string[]; dropped: boolean }[] = [
    { name: 'keeps everything when the history has fewer groups', groups: 4, events: threeGroups, expected: ['s', 'u1', 'a1', 't1', 'u2', 'a2', 'u3', 'a3', 't3'], dropped: false },
    { name: 'keeps the system prompt and the last 2 groups', groups: 2, events: threeGroups, expected: ['s', 'u2', 'a2', 'u3', 'a3', 't3'], dropped: true },
    { name: 'keeps only the newest group with N = 1, call and result together', groups: 1, events: threeGroups, expected: ['s', 'u3', 'a3', 't3'], dropped: true },
    { name: 'N = 0 keeps the whole history', groups: 0, events: threeGroups, expected: ['s', 'u1', 'a1', 't1', 'u2', 'a2', 'u3', 'a3', 't3'], dropped: false },
    { name: 'defaults to 4 groups', events: threeGroups, expected: ['s', 'u1', 'a1', 't1', 'u2', 'a2', 'u3', 'a3', 't3'], dropped: false },
    { name: 'undo removes the newest group before the window is applied', groups: 2, events: [...threeGroups, { type: 'control', action: 'undo' }], expected: ['s', 'u1', 'a1', 't1', 'u2', 'a2'], dropped: false },
  ];
  it.each(table)('$name', async ({ groups, events, expected, dropped }) => {
    const { context, harness } = await replay(rollingWindow, groups === undefined ? {} : { groups }, events);
    expect(ids(context)).toEqual(expected);
    expect(harness.actions.some((a) => a.action === 'drop')).toBe(dropped);
  });

  it('reports tokens before and after a drop, the after smaller', async () => {
    const { harness } = await replay(rollingWindow, { groups: 1 }, threeGroups);
    const drop = harness.actions.find((a) => a.action === 'drop');
    expect(drop?.tokensAfter).toBeLessThan(drop?.tokensBefore ?? 0);
  });

  it('rejects a negative window', () => {
    expect(rollingWindow.options.safeParse({ groups: -1 }).success).toBe(false);
  });
});
