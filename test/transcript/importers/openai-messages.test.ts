import { describe, expect, it } from 'vitest';
import { openaiMessages } from '../../../src/transcript/importers/openai-messages.js';
import { expectCanonical, messagesOf, writeTemp } from './helpers.js';
import { openaiMessagesSample } from './samples.js';

describe('openai-messages importer', () => {
  it('maps a plain array of chat-completions messages', async () => {
    const transcript = await openaiMessages.import(writeTemp('messages.json', openaiMessagesSample), {});
    expect(messagesOf(transcript).map((m) => [m.id, m.role, m.text, m.toolCalls?.[0]?.name ?? m.toolCallId ?? ''])).toEqual([
      ['message-0', 'system', 'Be brief.', ''],
      ['message-1', 'user', 'Weather in Paris?', ''],
      ['message-2', 'assistant', '', 'get_weather'],
      ['message-3', 'tool', '18°C', 'call_1'],
      ['message-4', 'assistant', 'It is 18°C.', ''],
    ]);
    expect(transcript.header).toMatchObject({ id: 'messages', dialect: 'openai' });
    expectCanonical(transcript);
  });

  it('reads {messages, model}, text parts, and keeps unparsable arguments whole', async () => {
    const document = {
      model: 'gpt-4.1',
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'Rules.' }] },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Calling.' }],
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run', arguments: '{"cmd": "ls"' } }],
        },
        {
          role: 'tool',
          tool_call_id: 'c1',
          content: [
            { type: 'text', text: 'ok' },
            { type: 'image_url', image_url: { url: 'x' } },
          ],
        },
      ],
    };
    const transcript = await openaiMessages.import(writeTemp('chat.json', JSON.stringify(document)), {});
    const [rules, assistant, tool] = messagesOf(transcript);
    expect(rules).toMatchObject({ role: 'system', text: 'Rules.' });
    expect(assistant).toMatchObject({ model: 'gpt-4.1', toolCalls: [{ id: 'c1', name: 'run', args: { input: '{"cmd": "ls"' } }] });
    expect(tool).toMatchObject({ text: 'ok\n[image_url]' });
    expect(transcript.header.model).toBe('gpt-4.1');
  });
});
