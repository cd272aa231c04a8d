import { describe, expect, it } from 'vitest';
import { cutText, tieredTruncation, type Options } from '../../src/strategies/tiered-truncation.js';
import { findRetrievalHints } from '../../src/strategies/helpers/hints.js';
import { createHarness, msg, replay } from '../helpers/strategy-harness.js';
import type { ContextMessage, TranscriptEvent } from '../../src/transcript/types.js';

/** A tool output of `lines` lines of 50 characters (49 and a line break): line breaks every 50. */
const lines = (count: number): string => `${'x'.repeat(49)}\n`.repeat(count);
/** A tool output with no line break at all. */
const flat = (chars: number): string => 'y'.repeat(chars);

/** A call and its result of the given text. */
const step = (n: number, text: string): TranscriptEvent[] => [msg.call(`a${n}`, `c${n}`), msg.tool(`t${n}`, `c${n}`, text)];

/** What the table expects of a result: `whole`, or the characters kept before the cut marker. */
type Kept = 'whole' | number;

function keptOf(message: ContextMessage, original: string): Kept {
  if (message.text === original) return 'whole';
  const at = message.text.lastIndexOf('\n[… ');
  return at;
}

const six = (text: string): TranscriptEvent[] => [1, 2, 3, 4, 5, 6].flatMap((n) => step(n, text));

describe('tiered-truncation', () => {
  const table: { name: string; options?: Partial<Options>; events: TranscriptEvent[]; expected: Record<string, Kept> }[] = [
    {
      name: 'active group: the 5 newest results keep 5000 (cut at a line break), the older one 1000',
      events: [msg.user('u1'), ...six(lines(120))],
      expected: { t1: 999, t2: 4999, t3: 4999, t4: 4999, t5: 4999, t6: 4999 },
    },
    {
      name: 'finished groups keep 300; the active group is the newest user message onwards',
      events: [msg.user('u1'), ...step(1, lines(40)), ...step(2, lines(10)), msg.user('u2'), ...step(3, lines(40))],
      expected: { t1: 299, t2: 299, t3: 'whole' },
    },
    {
      name: 'results within their limit stay whole, and so does one barely over (the marker would cost more)',
      events: [msg.user('u1'), ...step(1, flat(250)), ...step(2, flat(320)), msg.user('u2')],
      expected: { t1: 'whole', t2: 'whole' },
    },
    {
      name: 'a text without a line break near the limit is cut at the limit',
      events: [msg.user('u1'), ...step(1, flat(2000)), msg.user('u2')],
      expected: { t1: 300 },
    },
    {
      name: 'every limit is an option',
      options: { recentResults: 1, recentChars: 2000, olderChars: 500, finishedChars: 100 },
      events: [msg.user('u1'), ...step(1, flat(900)), msg.user('u2'), ...step(2, flat(3000)), ...step(3, flat(3000))],
      expected: { t1: 100, t2: 500, t3: 2000 },
    },
    {
      name: 'line slack 0 cuts exactly at the limit even when lines are near',
      options: { lineSlack: 0 },
      events: [msg.user('u1'), ...step(1, lines(40)), msg.user('u2')],
      expected: { t1: 300 },
    },
    {
      name: 'undo brings the undone group back into the active one',
      events: [msg.user('u1'), ...step(1, lines(40)), msg.user('u2'), ...step(2, lines(40)), { type: 'control', action: 'undo' }],
      expected: { t1: 'whole' },
    },
  ];
  it.each(table)('$name', async ({ options, events, expected }) => {
    const { context } = await replay(tieredTruncation, options ?? {}, events);
    const originals = new Map(events.flatMap((e) => (e.type === 'message' ? [[e.id, e.text] as const] : [])));
    const results = Object.fromEntries(context.filter((m) => m.role === 'tool').map((m) => [m.id, keptOf(m, originals.get(m.id) ?? '')]));
    expect(results).toEqual(expected);
  });

  it('ends every cut result with a retrieval hint naming its archived message id', async () => {
    const { context, harness } = await replay(tieredTruncation, {}, [msg.user('u1'), ...step(1, lines(40)), msg.user('u2')]);
    const cut = context.find((m) => m.id === 't1') as ContextMessage;
    expect(findRetrievalHints(cut.text)).toEqual(['t1']);
    expect(cut.text.endsWith(']')).toBe(true);
    expect(cut.text).toContain('1701 of 2000 characters cut');
    expect(harness.env.archive.get('t1')?.text).toBe(lines(40));
    expect(cut.replaces).toEqual(['t1']);
  });

  it('emits one truncate action per step whose cuts changed, with totals, never one per message', async () => {
    const harness = createHarness();
    const events: TranscriptEvent[] = [msg.user('u1'), ...step(1, lines(40)), ...step(2, lines(40)), msg.user('u2')];
    const { state } = await replay(tieredTruncation, {}, events, harness);
    expect(harness.actions).toHaveLength(1);
    expect(harness.actions[0]).toMatchObject({ action: 'truncate', detail: '2 tool results cut (2 to 300 characters), 3402 characters removed' });
    expect(harness.actions[0]?.tokensAfter).toBeLessThan(harness.actions[0]?.tokensBefore ?? 0);
    await tieredTruncation.prepare(state, harness.env);
    expect(harness.actions).toHaveLength(1);
    for (const event of [...step(3, lines(40)), msg.user('u3')]) await tieredTruncation.observe?.(event, state, harness.env);
    await tieredTruncation.prepare(state, harness.env);
    expect(harness.actions).toHaveLength(2);
    expect(harness.actions[1]?.detail).toContain('3 tool results cut');
  });

  it('leaves messages a strategy made (tombstones, previews) alone', async () => {
    const tombstone: ContextMessage = { type: 'message', id: 'x1', role: 'tool', toolCallId: 'c1', text: flat(900), synthetic: 'tombstone' };
    const { state, harness } = await replay(tieredTruncation, {}, []);
    const out = await tieredTruncation.transform?.(
      [msg.user('u1') as ContextMessage, msg.call('a1', 'c1') as ContextMessage, tombstone, msg.user('u2') as ContextMessage],
      state,
      harness.env,
    );
    expect(out?.[2]?.text).toBe(flat(900));
  });

  it('cuts text at the last line break within the slack, else at the limit', () => {
    expect(cutText('abc', 5, 0.2)).toBeUndefined();
    expect(cutText('aaaa\nbbbbbbbbbb', 10, 0.6)).toEqual({ kept: 'aaaa', removed: 11 });
    expect(cutText('aaaa\nbbbbbbbbbb', 10, 0.2)).toEqual({ kept: 'aaaa\nbbbbb', removed: 5 });
  });

  it('rejects limits below 1 character', () => {
    expect(tieredTruncation.options.safeParse({ finishedChars: 0 }).success).toBe(false);
  });
});
