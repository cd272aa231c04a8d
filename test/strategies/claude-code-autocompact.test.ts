import { describe, expect, it } from 'vitest';
import { claudeCodeAutocompact, autocompactLimit } from '../../src/strategies/claude-code-autocompact.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import { actionsOf, answer, failure, isPaired, runSteps, words } from './compaction-fixtures.js';

const read = (id: string, callId: string, path: string): TranscriptEvent => ({
  type: 'message',
  id,
  role: 'assistant',
  text: '',
  toolCalls: [{ id: callId, name: 'Read', args: { file_path: path } }],
});
/** About 1,250 tokens: two reads of the same file, one of another, a bash call. */
const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1', 'Refactor the parser'),
  read('a1', 'c1', 'src/a.ts'),
  msg.tool('t1', 'c1', words(300, 'old')),
  read('a2', 'c2', 'src/b.ts'),
  msg.tool('t2', 'c2', words(300, 'bee')),
  msg.call('a3', 'c3', 'Bash'),
  msg.tool('t3', 'c3', words(300, 'log')),
  read('a4', 'c4', 'src/a.ts'),
  msg.tool('t4', 'c4', words(300, 'new')),
  msg.user('u2', 'now the tests'),
];
// Window 34,000 → limit 34,000 − 20,000 − 13,000 = 1,000 tokens.
const W = 34_000;

describe('claude-code-autocompact', () => {
  it.each([
    { window: 200_000, max: 32_000, limit: 167_000 },
    { window: 200_000, max: 8_192, limit: 178_808 },
    { window: 34_000, max: 32_000, limit: 1_000 },
  ])('triggers at window − min(max output, 20k) − 13k: $window / $max → $limit', ({ window, max, limit }) => {
    expect(autocompactLimit(claudeCodeAutocompact.options.parse({ maxOutputTokens: max }), window)).toBe(limit);
  });

  const table: { name: string; options: Record<string, unknown>; expected: string[] }[] = [
    {
      name: 'summary, the 2 files re-read (newest content, oldest first), newest user message',
      options: {},
      expected: ['s', 'autocompact-summary-1', 'autocompact-file-1-1', 'autocompact-file-1-0', 'u2'],
    },
    { name: 'restoreFiles 1 keeps the newest file only', options: { restoreFiles: 1 }, expected: ['s', 'autocompact-summary-1', 'autocompact-file-1-0', 'u2'] },
    { name: 'restoreFiles 0 re-injects nothing', options: { restoreFiles: 0 }, expected: ['s', 'autocompact-summary-1', 'u2'] },
  ];
  it.each(table)('$name', async ({ options, expected }) => {
    const { context, harness } = await replay(claudeCodeAutocompact, options, session, createHarness({ window: W }));
    expect(ids(context)).toEqual(expected);
    expect(actionsOf(harness, 'compact')).toHaveLength(1);
    expect(harness.calls[0]?.instruction).toMatch(/primary request.*files and code.*errors and fixes.*pending tasks.*current work.*next step/is);
    expect(isPaired(context, session)).toBe(true);
  });

  it('re-injects the latest content of a file, capped at fileTokens', async () => {
    const { context } = await replay(claudeCodeAutocompact, { fileTokens: 50 }, session, createHarness({ window: W }));
    const a = context.find((m) => m.text.startsWith('Re-read after compaction: src/a.ts'));
    expect(a?.text).toContain('new new');
    expect(a?.text).not.toContain('old');
    expect(context.find((m) => m.text.includes('src/b.ts'))?.text.split('bee').length).toBeLessThanOrEqual(52);
  });

  it('does nothing below the limit', async () => {
    const { context, harness } = await replay(claudeCodeAutocompact, {}, session, createHarness({ window: 200_000 }));
    expect(context).toHaveLength(11);
    expect(harness.calls).toHaveLength(0);
  });

  it('stops after 3 consecutive failures', async () => {
    const harness = createHarness({ window: W, answer: () => failure({ kind: 'server', message: 'down' }) });
    const steps = [...session, msg.assistant('a5'), msg.assistant('a6'), msg.assistant('a7'), msg.assistant('a8')];
    const run = await runSteps(claudeCodeAutocompact, {}, steps, harness);
    expect(harness.calls).toHaveLength(3);
    expect(
      actionsOf(harness, 'note')
        .map((a) => a.reason)
        .at(-1),
    ).toBe('3 consecutive failed compactions: auto-compact disabled');
    expect(run.contexts.at(-1)).toHaveLength(15);
  });

  it('can trigger on the usage the agent recorded', async () => {
    const recorded: TranscriptEvent[] = [
      msg.user('u1'),
      { ...(msg.assistant('a1') as object), usage: { input: 180_000, output: 10 } } as TranscriptEvent,
      msg.user('u2', words(20)),
    ];
    const off = await replay(claudeCodeAutocompact, {}, recorded, createHarness({ window: 200_000 }));
    expect(off.harness.calls).toHaveLength(0);
    const on = await replay(claudeCodeAutocompact, { useRecordedUsage: true }, recorded, createHarness({ window: 200_000, answer: () => answer('s') }));
    expect(actionsOf(on.harness, 'trigger')[0]?.detail).toBe('measured on the recorded usage');
  });
});
