import { describe, expect, it } from 'vitest';
import { geminiCli } from '../../../src/transcript/importers/gemini-cli.js';
import { expectCanonical, jsonl, messagesOf, writeTemp } from './helpers.js';
import { geminiCliSample } from './samples.js';

const importText = async (text: string, name = 'session.jsonl') => geminiCli.import(writeTemp(name, text), {});

const metadata = { sessionId: 'gem-1', projectHash: 'abc', startTime: '2026-04-23T12:52:52.759Z', lastUpdated: '2026-04-23T12:52:52.759Z' };
const userMessage = (id: string, text: string) => ({ id, timestamp: '2026-04-23T12:53:05.283Z', type: 'user', content: [{ text }] });

describe('gemini-cli importer', () => {
  it('keeps the last copy of a re-appended message, in its first place', async () => {
    const transcript = await importText(geminiCliSample);
    const messages = messagesOf(transcript);
    expect(messages.map((m) => [m.id, m.role])).toEqual([
      ['m1', 'user'],
      ['m2', 'assistant'],
      ['m2/c1', 'tool'],
      ['m3', 'assistant'],
    ]);
    expect(messages[1]).toMatchObject({
      thinking: 'Reading\nOpen the file.',
      toolCalls: [{ id: 'c1', name: 'read_file', args: { file_path: 'README.md' } }],
      usage: { input: 100, cachedInput: 0, output: 10, reasoning: 5 },
      // The recorded thoughts size: re-sent as input on the later calls of the turn.
      reasoningTokens: 5,
      model: 'gemini-2.5-pro',
      dialect: 'gemini',
    });
    expect(messages[2]).toMatchObject({ toolCallId: 'c1', toolName: 'read_file', text: '# Title' });
    // A session that switched models keeps each message's own.
    expect(messages[3]).toMatchObject({ model: 'gemini-2.5-flash', usage: { input: 130, cachedInput: 90 } });
    expect(transcript.header).toMatchObject({ id: 'gem-1', model: 'gemini-2.5-pro' });
    expectCanonical(transcript);
  });

  it('drops a rewound message and everything after it', async () => {
    const transcript = await importText(
      jsonl(metadata, userMessage('a', 'first'), userMessage('b', 'second'), userMessage('c', 'third'), { $rewindTo: 'b' }, userMessage('d', 'fourth')),
    );
    expect(messagesOf(transcript).map((m) => m.text)).toEqual(['first', 'fourth']);
  });

  it('reads the older single-JSON session file', async () => {
    const document = {
      ...metadata,
      messages: [
        userMessage('a', 'hello'),
        { id: 'b', type: 'gemini', content: 'hi', model: 'gemini-2.5-pro', tokens: { input: 5, output: 1, cached: 0, thoughts: 0, tool: 2, total: 8 } },
      ],
    };
    const transcript = await importText(`${JSON.stringify(document, null, 2)}\n`, 'session.json');
    const messages = messagesOf(transcript);
    expect(messages.map((m) => m.text)).toEqual(['hello', 'hi']);
    // Tool-use prompt tokens are input beside the prompt.
    expect(messages[1]?.usage).toEqual({ input: 7, cachedInput: 0, output: 1, reasoning: 0 });
    expect(transcript.header.id).toBe('gem-1');
  });

  it('names the message of a broken single-JSON file', async () => {
    const document = { ...metadata, messages: [userMessage('a', 'hello'), { type: 'gemini', content: 'no id' }] };
    const text = `${JSON.stringify(document, null, 2)}\n`;
    const file = writeTemp('session.json', text);
    await expect(geminiCli.import(file, {})).rejects.toMatchObject({ location: { file, field: 'messages.1.id' } });
  });

  it('counts the notices it does not import', async () => {
    const transcript = await importText(
      jsonl(
        metadata,
        { id: 'i1', type: 'info', content: 'Request cancelled.' },
        { id: 'e1', type: 'error', content: 'Quota exceeded' },
        userMessage('a', 'hi'),
      ),
    );
    expect(transcript.unknown).toEqual({ info: 1, error: 1 });
    expect(messagesOf(transcript)).toHaveLength(1);
  });
});
