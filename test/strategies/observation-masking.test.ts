import { describe, expect, it } from 'vitest';
import { observationMasking, maskPlaceholder } from '../../src/strategies/observation-masking.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { ids, msg, replay } from '../helpers/strategy-harness.js';
import { actionsOf, isPaired } from './compaction-fixtures.js';

const out = (lines: number, tag: string): string => Array.from({ length: lines }, (_, i) => `${tag} output line ${i} of the command, long enough`).join('\n');
/** Task statement, then four bash steps with 3-line observations (the last one from `grep`). */
const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('task', 'Fix the bug in parse.py'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1', out(3, 'one')),
  msg.call('a2', 'c2'),
  msg.tool('t2', 'c2', out(3, 'two')),
  msg.call('a3', 'c3'),
  msg.tool('t3', 'c3', out(3, 'three')),
  msg.call('a4', 'c4'),
  { ...(msg.tool('t4', 'c4', out(3, 'four')) as object), toolName: 'grep' } as TranscriptEvent,
];

describe('observation-masking', () => {
  const table: { name: string; options: Record<string, unknown>; masked: string[] }[] = [
    { name: 'the default N = 10 masks nothing in four steps', options: {}, masked: [] },
    { name: 'N = 2 masks the two oldest observations', options: { keepLast: 2 }, masked: ['t1', 't2'] },
    { name: 'N = 0 masks every observation', options: { keepLast: 0 }, masked: ['t1', 't2', 't3', 't4'] },
    { name: 'a kept tool is never masked', options: { keepLast: 0, keepTools: ['grep'] }, masked: ['t1', 't2', 't3'] },
    { name: 'a masked tool is masked even among the newest', options: { maskTools: ['grep'] }, masked: ['t4'] },
  ];
  it.each(table)('$name', async ({ options, masked }) => {
    const { context, harness } = await replay(observationMasking, options, session);
    expect(ids(context)).toEqual(['s', 'task', 'a1', 't1', 'a2', 't2', 'a3', 't3', 'a4', 't4']);
    expect(context.filter((m) => m.text === maskPlaceholder(3)).map((m) => m.id)).toEqual(masked);
    expect(context.find((m) => m.id === 'task')?.text).toBe('Fix the bug in parse.py');
    expect(actionsOf(harness, 'truncate')).toHaveLength(masked.length > 0 ? 1 : 0);
    expect(isPaired(context, session)).toBe(true);
  });

  it('says how many lines were omitted, and shrinks the context', async () => {
    const { context, harness } = await replay(observationMasking, { keepLast: 3 }, session);
    expect(context.find((m) => m.id === 't1')?.text).toBe('Old environment output: (3 lines omitted)');
    const action = actionsOf(harness, 'truncate')[0];
    expect(action?.tokensAfter).toBeLessThan(action?.tokensBefore ?? 0);
    expect(action?.detail).toBe('1 tool results replaced by a placeholder');
  });

  it('leaves a result shorter than the placeholder as it is', async () => {
    const { context } = await replay(observationMasking, { keepLast: 0 }, [msg.user('u'), msg.call('a', 'c'), msg.tool('t', 'c', 'ok')]);
    expect(context.at(-1)?.text).toBe('ok');
  });

  it('has the study defaults', () => {
    expect(observationMasking.options.parse({})).toEqual({ keepLast: 10, keepTools: [], maskTools: [] });
  });
});
