import { describe, expect, it } from 'vitest';
import { anthropicContextEditing, CLEARED } from '../../src/strategies/anthropic-context-editing.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { createHarness, msg, replay } from '../helpers/strategy-harness.js';
import { actionsOf, isPaired, words } from './compaction-fixtures.js';

/** Five tool uses of ~200 tokens each (about 1,100 tokens in all); the third is a `bash` call. */
const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  ...[1, 2, 3, 4, 5].flatMap((i) => [
    { ...(msg.call(`a${i}`, `c${i}`, i === 3 ? 'bash' : 'read_file') as object), thinking: `thought ${i}` } as TranscriptEvent,
    msg.tool(`t${i}`, `c${i}`, words(200)),
  ]),
];
const cleared = (context: { id: string; text: string }[]): string[] => context.filter((m) => m.text.startsWith(CLEARED)).map((m) => m.id);

describe('anthropic-context-editing', () => {
  const table: { name: string; options: Record<string, unknown>; expected: string[] }[] = [
    { name: 'below the trigger nothing is cleared', options: { triggerTokens: 5000 }, expected: [] },
    { name: 'past the trigger all but the last 3 tool uses are cleared', options: { triggerTokens: 500 }, expected: ['t1', 't2'] },
    { name: 'keep 1 tool use', options: { triggerTokens: 500, keepToolUses: 1 }, expected: ['t1', 't2', 't3', 't4'] },
    {
      name: 'excluded tools are never cleared nor counted',
      options: { triggerTokens: 500, keepToolUses: 1, excludeTools: ['bash'] },
      expected: ['t1', 't2', 't4'],
    },
    { name: 'clear_at_least above what clearing frees leaves the request alone', options: { triggerTokens: 500, clearAtLeast: 1000 }, expected: [] },
    { name: 'clear_at_least within what clearing frees clears', options: { triggerTokens: 500, clearAtLeast: 300 }, expected: ['t1', 't2'] },
  ];
  it.each(table)('$name', async ({ options, expected }) => {
    const { context, harness } = await replay(anthropicContextEditing, options, session);
    expect(cleared(context)).toEqual(expected);
    expect(actionsOf(harness, 'truncate')).toHaveLength(expected.length > 0 ? 1 : 0);
    expect(isPaired(context, session)).toBe(true);
  });

  it('clears the inputs of cleared calls when asked', async () => {
    const { context } = await replay(anthropicContextEditing, { triggerTokens: 500, clearToolInputs: true }, session);
    expect(context.find((m) => m.id === 'a1')?.toolCalls?.[0]?.args).toEqual({});
    expect(context.find((m) => m.id === 'a5')?.toolCalls?.[0]?.args).toEqual({ path: 'src/c5.ts' });
  });

  it.each([
    { options: {}, kept: ['a5'] },
    { options: { keepThinkingTurns: 2 }, kept: ['a4', 'a5'] },
    { options: { clearThinking: false }, kept: ['a1', 'a2', 'a3', 'a4', 'a5'] },
  ])('keeps thinking on $kept', async ({ options, kept }) => {
    const { context, harness } = await replay(anthropicContextEditing, options, session, createHarness());
    expect(context.filter((m) => m.thinking !== undefined).map((m) => m.id)).toEqual(kept);
    expect(actionsOf(harness, 'cap-thinking')).toHaveLength(kept.length < 5 ? 1 : 0);
  });

  it('has the API defaults', () => {
    expect(anthropicContextEditing.options.parse({})).toEqual({
      triggerTokens: 100_000,
      keepToolUses: 3,
      clearAtLeast: 0,
      excludeTools: [],
      clearToolInputs: false,
      clearThinking: true,
      keepThinkingTurns: 1,
    });
  });
});
