import { describe, expect, it } from 'vitest';
import { renderGeminiRequest } from '../../src/wire/render-gemini.js';
import { encodeOpenAIBody, renderOpenAIRequest } from '../../src/wire/render-openai.js';
import { parseGeminiRequest } from '../../src/simulator/parse-gemini.js';
import { parseOpenAIRequest } from '../../src/simulator/parse-openai.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import { agentSession } from '../providers/conversation.js';

const tokenizer = createTokenizer('o200k_base');

function message(id: string, role: ContextMessage['role'], text: string, extra: Partial<ContextMessage> = {}): ContextMessage {
  return { type: 'message', id, role, text, ...extra };
}

/** A context that needs merging: split assistant messages, parallel calls, results next to user text. */
const awkward: ContextMessage[] = [
  message('s', 'system', 'You are terse.'),
  message('u', 'user', 'List the files and read the README.'),
  message('a1', 'assistant', 'Looking.', { thinking: 'Two calls at once.' }),
  message('a2', 'assistant', '', {
    toolCalls: [
      { id: 'c1', name: 'ls', args: { path: '.' } },
      { id: 'c2', name: 'read', args: { path: 'README.md' } },
    ],
    thoughtSignature: 'sig-a2',
  }),
  message('t1', 'tool', 'README.md\nsrc', { toolCallId: 'c1' }),
  message('t2', 'tool', '# Demo', { toolCallId: 'c2', toolName: 'read' }),
  message('u2', 'user', 'Thanks.'),
  message('s2', 'system', 'Summary so far: listed files.', { synthetic: 'summary' }),
  message('a3', 'assistant', ''),
];

describe('rendering Gemini contents', () => {
  it('merges adjacent same-role turns and puts the signature on the first call', () => {
    const { contents, systemInstruction } = renderGeminiRequest(awkward, 'Be brief.');
    expect(systemInstruction?.parts).toEqual([{ text: 'Be brief.' }, { text: 'You are terse.' }, { text: 'Summary so far: listed files.' }]);
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user', 'model']);
    expect(contents[1]?.parts).toEqual([
      { text: 'Two calls at once.', thought: true },
      { text: 'Looking.' },
      { functionCall: { id: 'c1', name: 'ls', args: { path: '.' } }, thoughtSignature: 'sig-a2' },
      { functionCall: { id: 'c2', name: 'read', args: { path: 'README.md' } } },
    ]);
    // A tool result without its name takes it from the call it answers.
    expect(contents[2]?.parts).toEqual([
      { functionResponse: { id: 'c1', name: 'ls', response: { output: 'README.md\nsrc' } } },
      { functionResponse: { id: 'c2', name: 'read', response: { output: '# Demo' } } },
      { text: 'Thanks.' },
    ]);
    expect(contents[3]?.parts).toEqual([{ text: '' }]);
  });

  it('puts the signature on the thought part when the message makes no call', () => {
    const parts = renderGeminiRequest([message('a', 'assistant', 'Done.', { thinking: 'ok', thoughtSignature: 'sig' })]).contents[0]?.parts;
    expect(parts).toEqual([{ text: 'ok', thought: true, thoughtSignature: 'sig' }, { text: 'Done.' }]);
  });

  it('reads back to messages that the tokenizer counts exactly as the originals', () => {
    for (const [messages, instruction] of [
      [awkward, 'Be brief.'],
      [awkward, undefined],
      [agentSession(), undefined],
    ] as const) {
      const rendering = renderGeminiRequest(messages, instruction);
      const body = JSON.parse(JSON.stringify({ contents: rendering.contents, systemInstruction: rendering.systemInstruction }));
      const parsed = parseGeminiRequest(body, rendering.shape);
      expect(parsed?.instruction).toBe(instruction);
      expect(tokenizer.countMessages(parsed?.messages ?? [], 'gemini', parsed?.instruction)).toBe(tokenizer.countMessages(messages, 'gemini', instruction));
    }
  });

  it('without a shape, still reads thought, text and calls of one turn as one message', () => {
    const rendering = renderGeminiRequest(agentSession());
    const parsed = parseGeminiRequest(JSON.parse(JSON.stringify({ contents: rendering.contents })));
    expect(parsed?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(parsed?.messages[1]).toMatchObject({ thinking: expect.any(String), thoughtSignature: 'c2lnLTE=', toolCalls: [{ id: 'call-1', name: 'shell' }] });
  });

  it('rejects a body that is not a Gemini request', () => {
    expect(parseGeminiRequest({ messages: [] })).toBeUndefined();
  });
});

describe('rendering OpenAI messages', () => {
  it('maps one message to one, with tool_calls and tool_call_id, and drops thinking', () => {
    const { messages } = renderOpenAIRequest(awkward, 'Be brief.');
    expect(messages).toHaveLength(awkward.length + 1);
    expect(messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(messages[3]).toEqual({ role: 'assistant', content: 'Looking.' });
    expect(messages[4]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } },
        { id: 'c2', type: 'function', function: { name: 'read', arguments: '{"path":"README.md"}' } },
      ],
    });
    expect(messages[5]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'README.md\nsrc' });
  });

  it('reads back to messages that the tokenizer counts exactly as the originals', () => {
    for (const instruction of ['Be brief.', undefined]) {
      const rendering = renderOpenAIRequest(awkward, instruction);
      const parsed = parseOpenAIRequest(JSON.parse(JSON.stringify({ model: 'm', messages: rendering.messages })), rendering.shape);
      expect(parsed?.instruction).toBe(instruction);
      expect(tokenizer.countMessages(parsed?.messages ?? [], 'openai', parsed?.instruction)).toBe(tokenizer.countMessages(awkward, 'openai', instruction));
    }
  });

  it('encodes the body message by message to the bytes JSON.stringify gives the typed params', () => {
    const plainText = message('p', 'tool', 'exit 0 — "quoted" \\ back\u2028slash', { toolCallId: 'c9', sentAsText: true });
    const messages = [...awkward, plainText];
    for (const instruction of ['Be brief.', '', undefined]) {
      for (const extra of [{}, { maxCompletionTokens: 512 }, { reasoningEffort: 'high' }, { maxCompletionTokens: 64, reasoningEffort: 'low' }]) {
        const expected = JSON.stringify({
          model: 'gpt-x',
          messages: renderOpenAIRequest(messages, instruction).messages,
          ...(extra.maxCompletionTokens !== undefined ? { max_completion_tokens: extra.maxCompletionTokens } : {}),
          ...(extra.reasoningEffort !== undefined ? { reasoning_effort: extra.reasoningEffort } : {}),
        });
        // Twice: the second encoding comes from the per-message memo.
        expect(encodeOpenAIBody(messages, { model: 'gpt-x', ...extra }, instruction)).toBe(expected);
        expect(encodeOpenAIBody(messages, { model: 'gpt-x', ...extra }, instruction)).toBe(expected);
      }
    }
    expect(encodeOpenAIBody([], { model: 'm' })).toBe('{"model":"m","messages":[]}');
  });

  it('keeps arguments that are not JSON rather than dropping them', () => {
    const parsed = parseOpenAIRequest({
      messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{oops' } }] }],
    });
    expect(parsed?.messages[0]?.toolCalls).toEqual([{ id: 'x', name: 'f', args: { arguments: '{oops' } }]);
  });
});
