import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPipeline, pipeline } from '../../src/strategies/pipeline.js';
import { getStrategy } from '../../src/strategies/index.js';
import { full } from '../../src/strategies/full.js';
import { resolveStrategy } from '../../src/replay/resolve-strategy.js';
import { InputError, UsageError } from '../../src/errors.js';
import type { Strategy } from '../../src/strategies/types.js';
import type { StrategySpec } from '../../src/scenario/types.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import type { ContextMessage, TaskEvent, TranscriptEvent } from '../../src/transcript/types.js';

const big = (id: string, callId: string): TranscriptEvent => msg.tool(id, callId, `${'z'.repeat(79)}\n`.repeat(30));
const task = (id: string, status: TaskEvent['status']): TranscriptEvent => ({ type: 'task', id, status, resultSummary: 'Fixed the flaky test; suite green.' });

const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  task('k1', 'in_progress'),
  msg.call('a1', 'c1'),
  big('t1', 'c1'),
  msg.call('a2', 'c2'),
  big('t2', 'c2'),
  task('k1', 'completed'),
  msg.user('u2'),
  msg.call('a3', 'c3'),
  big('t3', 'c3'),
  msg.user('u3'),
  msg.call('a4', 'c4'),
  big('t4', 'c4'),
];

const resolved = createPipeline(getStrategy);
const textOf = (context: readonly ContextMessage[], id: string): string => context.find((m) => m.id === id)?.text ?? '';

describe('pipeline', () => {
  const table: { name: string; stages: { strategy: string; options?: Record<string, unknown> }[]; expected: string[] }[] = [
    {
      name: 'tiered-truncation then rolling-window: the window of the truncated context',
      stages: [{ strategy: 'tiered-truncation' }, { strategy: 'rolling-window', options: { groups: 2 } }],
      expected: ['s', 'u2', 'a3', 't3', 'u3', 'a4', 't4'],
    },
    {
      name: 'rolling-window then tiered-truncation: the same messages, each stage on the output of the previous',
      stages: [{ strategy: 'rolling-window', options: { groups: 2 } }, { strategy: 'tiered-truncation' }],
      expected: ['s', 'u2', 'a3', 't3', 'u3', 'a4', 't4'],
    },
    {
      name: 'surgical-eviction then rolling-window keeps the tombstones the window reaches',
      stages: [{ strategy: 'surgical-eviction' }, { strategy: 'rolling-window', options: { groups: 3 } }],
      expected: ['s', 'u1', 'evicted:k1:a1', 'evicted:t1', 'evicted:t2', 'u2', 'a3', 't3', 'u3', 'a4', 't4'],
    },
    {
      name: 'rolling-window then surgical-eviction: a later stage that remembers tasks (transform)',
      stages: [{ strategy: 'rolling-window', options: { groups: 0 } }, { strategy: 'surgical-eviction' }],
      expected: ['s', 'u1', 'evicted:k1:a1', 'evicted:t1', 'evicted:t2', 'u2', 'a3', 't3', 'u3', 'a4', 't4'],
    },
    {
      name: 'a later stage without transform keeps its state, fed the new messages of the context',
      stages: [{ strategy: 'rolling-window', options: { groups: 1 } }, { strategy: 'full' }],
      expected: ['s', 'u3', 'a4', 't4'],
    },
  ];
  it.each(table)('$name', async ({ stages, expected }) => {
    const { context } = await replay(resolved, { stages: stages.map((s) => ({ strategy: s.strategy, options: s.options ?? {} })) }, session);
    expect(ids(context)).toEqual(expected);
  });

  it('cuts results in stage 1 that stage 2 then windows, and both stages emit their actions', async () => {
    const { context, harness } = await replay(
      resolved,
      {
        stages: [
          { strategy: 'tiered-truncation', options: {} },
          { strategy: 'rolling-window', options: { groups: 2 } },
        ],
      },
      session,
    );
    expect(textOf(context, 't3').length).toBeLessThan(400);
    expect(textOf(context, 't4').length).toBe(2400);
    expect(harness.actions.map((a) => a.action)).toEqual(['truncate', 'drop']);
  });

  it('defaults to tiered-truncation then rolling-window, and the registered pipeline runs them', async () => {
    expect(pipeline.options.parse({})).toEqual({
      stages: [
        { strategy: 'tiered-truncation', options: {} },
        { strategy: 'rolling-window', options: {} },
      ],
    });
    const { context } = await replay(pipeline, {}, session);
    expect(ids(context)).toEqual(['s', 'u1', 'a1', 't1', 'a2', 't2', 'u2', 'a3', 't3', 'u3', 'a4', 't4']);
    expect(textOf(context, 't1')).toContain('[archived: t1 — retrievable]');
  });

  it('the registered pipeline names the way to other stages', () => {
    expect(() => pipeline.init(pipeline.options.parse({ stages: [{ strategy: 'state-anchor' }] }), { sessionId: 's', window: 1 })).toThrow(UsageError);
  });

  it('asks every stage to recover in order until one retries', async () => {
    const asked: string[] = [];
    const fake = (name: string, decision: 'retry' | 'give-up', transform: boolean): Strategy => ({
      ...full,
      name,
      recover: () => {
        asked.push(name);
        return decision;
      },
      ...(transform ? { transform: (context: ContextMessage[]) => context } : {}),
    });
    const stages: Record<string, Strategy> = {
      a: fake('a', 'give-up', false),
      b: fake('b', 'give-up', false),
      c: fake('c', 'retry', true),
      d: fake('d', 'retry', true),
    };
    const composed = createPipeline((name) => stages[name] as Strategy);
    const state = composed.init(composed.options.parse({ stages: ['a', 'b', 'c', 'd'].map((strategy) => ({ strategy })) }), { sessionId: 's', window: 1000 });
    const decision = await composed.recover?.({ kind: 'overflow', message: 'too big' }, state, createHarness().env);
    expect(decision).toBe('retry');
    expect(asked).toEqual(['a', 'b', 'c']);
  });

  it('reports the union of the stages’ thresholds', () => {
    const withThresholds = (label: string, tokens: number): Strategy => ({ ...full, options: z.strictObject({}), thresholds: () => [{ label, tokens }] });
    const stages: Record<string, Strategy> = { x: withThresholds('trigger', 900), y: withThresholds('target', 300), full };
    const composed = createPipeline((name) => stages[name] as Strategy);
    // x twice counts once; full has none.
    const opts = composed.options.parse({ stages: [{ strategy: 'x' }, { strategy: 'y' }, { strategy: 'x' }, { strategy: 'full' }] });
    expect(composed.thresholds?.(opts, 1000)).toEqual([
      { label: 'x: trigger', tokens: 900 },
      { label: 'y: target', tokens: 300 },
    ]);
  });
});

describe('pipeline resolution (src/replay/resolve-strategy.ts)', () => {
  const spec = (over: Partial<StrategySpec>): StrategySpec => ({ label: 'chain', strategy: 'pipeline', options: {}, ...over });

  it('resolves each stage of a `pipeline:` list with its own schema, defaults filled', () => {
    const { strategy, options } = resolveStrategy(
      spec({
        stages: [
          { label: 'tiered-truncation', strategy: 'tiered-truncation', options: { finishedChars: 200 } },
          { label: 'rolling-window', strategy: 'rolling-window', options: {} },
        ],
      }),
    );
    expect(strategy.name).toBe('pipeline');
    expect(options).toEqual({
      stages: [
        { strategy: 'tiered-truncation', options: { recentResults: 5, recentChars: 5000, olderChars: 1000, finishedChars: 200, lineSlack: 0.2 } },
        { strategy: 'rolling-window', options: { groups: 4, maxShare: 0.5 } },
      ],
    });
  });

  it('resolves a plain `strategy: pipeline` entry to the default stages, and runs any registered stage', async () => {
    const { strategy, options } = resolveStrategy(
      spec({ options: { stages: [{ strategy: 'state-anchor', options: { groups: 1 } }, { strategy: 'tiered-truncation' }] } }),
    );
    const { context } = await replay(strategy, options, session);
    // state-anchor's window cuts the older groups, so it writes its STATE block (a metered rebuild call) and anchors it.
    expect(ids(context)).toEqual(['s', 'state-anchor:state', 'u3', 'a4', 't4']);
    expect(resolveStrategy(spec({})).options.stages).toHaveLength(2);
  });

  it('names the file and field of a bad stage option', () => {
    const bad = () =>
      resolveStrategy(
        spec({
          stages: [
            { label: 'full', strategy: 'full', options: {} },
            { label: 'rolling-window', strategy: 'rolling-window', options: { groups: -1 } },
          ],
        }),
        'suite.yaml',
      );
    expect(bad).toThrow(InputError);
    expect(bad).toThrow(/suite\.yaml.*strategies\.chain\.pipeline\.1\.options\.groups/);
  });

  it('rejects an unknown stage with the list of known strategies, and stages given twice', () => {
    expect(() => resolveStrategy(spec({ options: { stages: [{ strategy: 'nope' }] } }))).toThrow(
      /unknown strategy "nope"; known strategies: full, rolling-window/,
    );
    const twice = spec({ options: { stages: [{ strategy: 'full' }] }, stages: [{ label: 'full', strategy: 'full', options: {} }] });
    expect(() => resolveStrategy(twice)).toThrow(/either as `pipeline:` or as options.stages/);
  });
});
