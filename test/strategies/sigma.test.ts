import { describe, expect, it } from 'vitest';
import { sigma } from '../../src/strategies/sigma.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import { actionsOf, words } from './compaction-fixtures.js';

const start = (id: string): TranscriptEvent => ({ type: 'task', id, status: 'in_progress' });
const done = (id: string): TranscriptEvent => ({ type: 'task', id, status: 'completed', resultSummary: `task ${id} finished and checked` });

/** Task k1 (about 900 tokens of results) finishes, then k2 runs. */
const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  start('k1'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1', words(500)),
  msg.call('a2', 'c2'),
  msg.tool('t2', 'c2', words(400)),
  done('k1'),
  start('k2'),
  msg.call('a3', 'c3'),
  msg.tool('t3', 'c3', words(50)),
];

describe('sigma', () => {
  const table: { name: string; options: Record<string, number>; evicted: boolean }[] = [
    { name: 'a finished task waits while the context is under the semantic size', options: { semanticTokens: 5000, standardTokens: 90_000 }, evicted: false },
    { name: 'the semantic trigger evicts the finished task', options: { semanticTokens: 500, standardTokens: 90_000 }, evicted: true },
  ];
  it.each(table)('$name', async ({ options, evicted }) => {
    const { context, harness } = await replay(sigma, options, session);
    expect(actionsOf(harness, 'evict')).toHaveLength(evicted ? 1 : 0);
    expect(actionsOf(harness, 'trigger').map((a) => a.mode)).toEqual(evicted ? ['semantic'] : []);
    expect(ids(context)).toContain(evicted ? 'evicted:t1' : 't1');
    expect(ids(context)).toEqual(
      evicted ? ['s', 'u1', 'evicted:k1:a1', 'evicted:t1', 'evicted:t2', 'a3', 't3'] : ['s', 'u1', 'a1', 't1', 'a2', 't2', 'a3', 't3'],
    );
    expect(ids(context)).toContain('t3');
  });

  it('scales its default triggers to a small window and notes the rule', async () => {
    const harness = createHarness({ window: 10_000 });
    await replay(sigma, {}, session, harness);
    expect(harness.actions[0]).toMatchObject({ action: 'note', mode: 'scaled' });
    expect(harness.actions[0]?.detail).toContain('semantic 500, standard 2000');
    expect(actionsOf(harness, 'evict')).toHaveLength(1);
  });

  it('a second recap keeps out what the first replaced, and a small growth calls for no third (hysteresis)', async () => {
    const options = { semanticTokens: 90_000, standardTokens: 400, recentTokens: 50, recapTokens: 50 };
    const { state, harness } = await replay(sigma, options, session);
    expect(harness.calls).toHaveLength(1);
    for (const event of [msg.user('u2'), msg.call('a4', 'c4'), msg.tool('t4', 'c4', words(500)), msg.call('a5', 'c5'), msg.tool('t5', 'c5', words(30))])
      await sigma.observe?.(event, state, harness.env);
    const second = await sigma.prepare(state, harness.env);
    expect(harness.calls).toHaveLength(2);
    expect(ids(second)).toEqual(['s', 'sigma-recap-2', 'u2', 'a5', 't5']);
    expect(state.recap?.replaced).toEqual(new Set(['u1', 'a1', 't1', 'a2', 't2', 'a3', 't3', 'sigma-recap-1', 'a4', 't4']));
    await sigma.observe?.(msg.assistant('a6'), state, harness.env);
    const third = await sigma.prepare(state, harness.env);
    expect(harness.calls).toHaveLength(2);
    expect(ids(third)).toEqual(['s', 'sigma-recap-2', 'u2', 'a5', 't5', 'a6']);
  });

  it('reports the (scaled) semantic and standard sizes', () => {
    expect(sigma.thresholds?.(sigma.options.parse({}), 200_000)).toEqual([
      { label: 'semantic', tokens: 10_000 },
      { label: 'standard', tokens: 40_000 },
    ]);
  });
});
