import { describe, expect, it } from 'vitest';
import { geminiContents } from '../../../src/transcript/importers/gemini-contents.js';
import { expectCanonical, messagesOf, writeTemp } from './helpers.js';
import { geminiContentsSample } from './samples.js';

describe('gemini-contents importer', () => {
  it('keeps thoughts and the thought signature, and pairs responses with calls by name', async () => {
    const transcript = await geminiContents.import(writeTemp('contents.json', geminiContentsSample), {});
    const messages = messagesOf(transcript);
    expect(messages.map((m) => [m.id, m.role, m.text])).toEqual([
      ['system-instruction', 'system', 'Be brief.'],
      ['content-0', 'user', 'Weather in Paris?'],
      ['content-1', 'assistant', ''],
      ['content-2/response-0', 'tool', '18°C'],
      ['content-3', 'assistant', 'It is 18°C.'],
    ]);
    expect(messages[2]).toMatchObject({
      thinking: 'Check the tool.',
      thoughtSignature: 'c2ln',
      toolCalls: [{ id: 'content-1/call-1', name: 'get_weather', args: { city: 'Paris' } }],
      dialect: 'gemini',
    });
    expect(messages[3]).toMatchObject({ toolCallId: 'content-1/call-1', toolName: 'get_weather' });
    expectCanonical(transcript);
  });

  it('reads a plain array, pairs by id when the parts carry ids, and counts parts it cannot map', async () => {
    const contents = [
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'f1', name: 'a', args: {} } },
          { functionCall: { id: 'f2', name: 'a', args: {} } },
          { executableCode: { code: 'print(1)' } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'f2', name: 'a', response: { error: 'boom' } } },
          { functionResponse: { id: 'f1', name: 'a', response: { rows: 3 } } },
        ],
      },
    ];
    const transcript = await geminiContents.import(writeTemp('c.json', JSON.stringify(contents)), {});
    expect(
      messagesOf(transcript)
        .slice(1)
        .map((m) => [m.toolCallId, m.text]),
    ).toEqual([
      ['f2', 'Error: boom'],
      ['f1', '{"rows":3}'],
    ]);
    expect(transcript.unknown).toEqual({ 'part:executableCode': 1 });
  });
});
