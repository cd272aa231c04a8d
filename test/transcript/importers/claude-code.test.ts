import { describe, expect, it } from 'vitest';
import { claudeCode } from '../../../src/transcript/importers/claude-code.js';
import { expectCanonical, jsonl, messagesOf, writeTemp } from './helpers.js';
import { claudeAssistant, claudeSample, claudeUser } from './samples.js';

const importText = async (text: string) => claudeCode.import(writeTemp('session.jsonl', text), {});

describe('claude-code importer', () => {
  it('sends a TodoWrite result with the to-do reminder Claude Code attaches (the log does not record it)', async () => {
    const todos = [{ content: 'Fix the build', status: 'in_progress', id: '1' }];
    const transcript = await importText(
      jsonl(
        claudeUser('u1', 'Fix it'),
        claudeAssistant('a1', 'msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'TodoWrite', input: { todos } }]),
        claudeUser('u2', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Todos have been modified successfully.' }]),
        claudeAssistant('a2', 'msg_2', [{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: 'a.ts' } }]),
        claudeUser('u3', [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'const a = 1;' }]),
      ),
    );
    const results = messagesOf(transcript).filter((m) => m.role === 'tool');
    expect(results[0]?.text).toBe(
      'Todos have been modified successfully.\n\n<system-reminder>\nYour todo list has changed. DO NOT mention this explicitly to the user. ' +
        `Here are the latest contents of your todo list:\n\n${JSON.stringify(todos)}. Continue on with the tasks at hand if applicable.\n</system-reminder>`,
    );
    expect(results[1]?.text).toBe('const a = 1;');
  });

  it('merges the lines of one API response into one assistant message, usage from its last line', async () => {
    const transcript = await importText(claudeSample);
    const [user, assistant, tool] = messagesOf(transcript);
    expect(user).toMatchObject({ id: 'u1', role: 'user', text: 'Write hello.sh', at: '2025-08-28T12:57:08.611Z' });
    expect(assistant).toEqual({
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      text: 'Writing it.',
      thinking: 'Plan it.',
      toolCalls: [{ id: 'toolu_1', name: 'Write', args: { file_path: 'hello.sh' } }],
      at: '2025-08-28T12:57:10.000Z',
      // input = input_tokens + cache_creation + cache_read; output of the last (complete) line.
      usage: { input: 1110, cachedInput: 1000, output: 57 },
      model: 'claude-sonnet-4-20250514',
      dialect: 'anthropic',
    });
    expect(tool).toMatchObject({ role: 'tool', toolCallId: 'toolu_1', toolName: 'Write', text: 'File created' });
    expect(transcript.header).toMatchObject({ id: 'sess-1', dialect: 'anthropic', model: 'claude-sonnet-4-20250514' });
    expect(transcript.unknown).toEqual({ 'queue-operation': 1 });
    expectCanonical(transcript);
  });

  it('keeps a compaction: the boundary with its token count, the summary that followed it', async () => {
    const transcript = await importText(
      jsonl(
        { type: 'summary', summary: 'Fix the login bug', leafUuid: 'u9' },
        claudeUser('u1', 'first'),
        {
          type: 'system',
          subtype: 'compact_boundary',
          uuid: 'b1',
          sessionId: 'sess-1',
          timestamp: '2025-08-28T13:00:00.000Z',
          content: 'Conversation compacted',
          compactMetadata: { trigger: 'auto', preTokens: 155000 },
        },
        claudeUser('u2', 'This session is being continued from a previous conversation. Summary: ...', {
          isCompactSummary: true,
          isVisibleInTranscriptOnly: true,
        }),
        claudeUser('u3', 'go on'),
      ),
    );
    // Each user request opens a task the next one completes (src/transcript/tasks/).
    expect(transcript.events.map((e) => e.type)).toEqual(['message', 'task', 'compaction', 'task', 'message', 'task']);
    expect(transcript.events[2]).toEqual({
      type: 'compaction',
      id: 'b1',
      tokensBefore: 155000,
      summary: 'This session is being continued from a previous conversation. Summary: ...',
      at: '2025-08-28T13:00:00.000Z',
    });
    // `summary` lines are the session's titles in Claude Code's resume list.
    expect(transcript.header.title).toBe('Fix the login bug');
  });

  it('counts what it cannot map: sidechains, synthetic notices, other line and block types', async () => {
    const transcript = await importText(
      jsonl(
        claudeUser('u1', 'hi'),
        { ...claudeUser('s1', 'subagent task'), isSidechain: true },
        {
          ...claudeAssistant('a0', 'msg_0', [{ type: 'text', text: 'API Error' }]),
          message: { id: 'msg_0', role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: 'API Error' }] },
        },
        claudeAssistant('a1', 'msg_1', [
          { type: 'redacted_thinking', data: 'xx' },
          { type: 'text', text: 'ok' },
        ]),
        { type: 'system', subtype: 'informational', uuid: 'x1', sessionId: 'sess-1', content: 'note' },
        { type: 'file-history-snapshot', messageId: 'm', snapshot: {} },
      ),
    );
    expect(transcript.unknown).toEqual({
      'user (sidechain)': 1,
      'assistant (synthetic)': 1,
      'content:redacted_thinking': 1,
      'system:informational': 1,
      'file-history-snapshot': 1,
    });
    expect(messagesOf(transcript).map((m) => m.text)).toEqual(['hi', 'ok']);
  });

  it('keeps one copy of a line a resumed session repeated, and takes the later session id', async () => {
    const line = claudeUser('u1', 'hi');
    const transcript = await importText(jsonl(line, { ...line, sessionId: 'sess-2', timestamp: '2025-08-28T13:08:44.666Z' }));
    expect(messagesOf(transcript)).toHaveLength(1);
    expect(transcript.header.id).toBe('sess-2');
  });

  it('turns a tool result without its call into a user message, counted', async () => {
    const transcript = await importText(
      jsonl(claudeUser('u1', [{ type: 'tool_result', tool_use_id: 'toolu_gone', content: [{ type: 'text', text: 'output' }] }])),
    );
    expect(messagesOf(transcript)).toEqual([expect.objectContaining({ role: 'user', text: expect.stringContaining('output') })]);
    expect(transcript.unknown).toEqual({ 'tool result without a call': 1 });
    expectCanonical(transcript);
  });

  it('puts tool results before the text of the same user line, and marks attachments', async () => {
    const transcript = await importText(
      jsonl(
        claudeAssistant('a1', 'msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }]),
        claudeUser('u1', [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' },
          { type: 'text', text: 'and look at this' },
          { type: 'image', source: {} },
        ]),
      ),
    );
    expect(messagesOf(transcript).map((m) => [m.role, m.text])).toEqual([
      ['assistant', ''],
      ['tool', 'x'],
      ['user', 'and look at this\n[image]'],
    ]);
  });
});
