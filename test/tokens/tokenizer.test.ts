import { describe, expect, it } from 'vitest';
import { countTokens, createTokenizer, encodingForModel, tokenizerForModel, tokenizerStats } from '../../src/tokens/tokenizer.js';
import { calibrationFamily } from '../../src/tokens/calibration.js';
import { OVERHEAD } from '../../src/tokens/overhead.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import { editedLists } from '../helpers/list-edits.js';

const user = (text: string): ContextMessage => ({ type: 'message', id: 'u', role: 'user', text });

describe('countTokens', () => {
  it.each([
    ['o200k_base', 'hello world', 2],
    ['cl100k_base', 'hello world', 2],
    ['chars4', 'hello world', 3],
    ['o200k_base', '', 0],
  ] as const)('%s counts %j as %i tokens', (encoding, text, expected) => {
    expect(countTokens(encoding, text)).toBe(expected);
  });

  it('counts special-token text as plain text instead of throwing', () => {
    expect(countTokens('o200k_base', 'before <|endoftext|> after')).toBeGreaterThan(3);
    expect(countTokens('cl100k_base', '<|im_start|>')).toBeGreaterThan(1);
  });

  it('tokenizes a text once per process, whichever tokenizer asks again', () => {
    const text = `a text seen for the first time ${'x'.repeat(37)} ${Math.PI}`;
    const before = tokenizerStats();
    const first = createTokenizer('o200k_base').count(text);
    const again = createTokenizer('o200k_base').count(text);
    const after = tokenizerStats();
    expect(again).toBe(first);
    expect(after.tokenized - before.tokenized).toBe(1);
    expect(after.hits - before.hits).toBe(1);
  });
});

describe('Tokenizer.countMessages', () => {
  const tokenizer = createTokenizer('o200k_base');

  it('counts a message object once per format, for every tokenizer of its encoding (no text looked up again)', () => {
    const message: ContextMessage = {
      type: 'message',
      id: 'a',
      role: 'assistant',
      text: `memo ${Math.E}`,
      toolCalls: [{ id: 'c', name: 'read', args: { path: 'memo.ts' } }],
    };
    const first = tokenizer.countMessage(message, 'openai');
    const before = tokenizerStats();
    expect(createTokenizer('o200k_base').countMessage(message, 'openai')).toBe(first);
    expect(tokenizerStats()).toEqual(before);
    // Another format is its own count; a copy is a new object, counted from its (cached) texts.
    const framing = (o: { perMessage: number; perToolCall: number }) => o.perMessage + o.perToolCall;
    expect(tokenizer.countMessage(message, 'gemini')).toBe(first - framing(OVERHEAD.openai) + framing(OVERHEAD.gemini));
    expect(tokenizer.countMessage({ ...message }, 'openai')).toBe(first);
    expect(tokenizerStats().hits - before.hits).toBe(2 + 2);
  });

  it('adds each format’s framing per message and per request', () => {
    const messages = [user('one'), user('two')];
    const text = 2 * tokenizer.count('one');
    expect(tokenizer.countMessages(messages, 'openai')).toBe(text + 2 * OVERHEAD.openai.perMessage + OVERHEAD.openai.perRequest);
    expect(tokenizer.countMessages(messages, 'gemini')).toBe(text + 2 * OVERHEAD.gemini.perMessage + OVERHEAD.gemini.perRequest);
  });

  it('charges thinking in the Gemini format only (chat completions cannot carry it back)', () => {
    const thinking: ContextMessage = { type: 'message', id: 'a', role: 'assistant', text: 'ok', thinking: 'a long chain of reasoning about the bug' };
    const plain: ContextMessage = { ...thinking, thinking: undefined };
    expect(tokenizer.countMessage(thinking, 'openai')).toBe(tokenizer.countMessage(plain, 'openai'));
    expect(tokenizer.countMessage(thinking, 'gemini')).toBeGreaterThan(tokenizer.countMessage(plain, 'gemini'));
  });

  it('in the Gemini format, a recorded reasoning size replaces the thought text (charged within its turn, tokens/hidden-tokens.ts)', () => {
    const thinking: ContextMessage = {
      type: 'message',
      id: 'a',
      role: 'assistant',
      text: 'ok',
      thinking: 'a long chain of reasoning about the bug',
      reasoningTokens: 306,
    };
    const plain: ContextMessage = { type: 'message', id: 'a', role: 'assistant', text: 'ok' };
    expect(tokenizer.countMessage(thinking, 'gemini')).toBe(tokenizer.countMessage(plain, 'gemini'));
  });

  it('counts a Gemini tool result as plain text (the family calibration stands for the finer tokenizer)', () => {
    const result: ContextMessage = { type: 'message', id: 't', role: 'tool', text: 'line "1"\nline 2', toolCallId: 'c', toolName: 'read_file' };
    expect(tokenizer.countMessage(result, 'gemini')).toBe(tokenizer.count('line "1"\nline 2') + OVERHEAD.gemini.perMessage + OVERHEAD.gemini.perToolResult);
  });

  it('charges tool calls by name and JSON arguments, and tool results with their framing', () => {
    const call: ContextMessage = {
      type: 'message',
      id: 'a',
      role: 'assistant',
      text: '',
      toolCalls: [{ id: 'c', name: 'read_file', args: { path: 'src/app.ts' } }],
    };
    const result: ContextMessage = { type: 'message', id: 't', role: 'tool', text: 'line 1\nline 2', toolCallId: 'c', toolName: 'read_file' };
    expect(tokenizer.countMessage(call, 'openai')).toBe(
      tokenizer.count('read_file{"path":"src/app.ts"}') + OVERHEAD.openai.perCallOnlyMessage + OVERHEAD.openai.perToolCall,
    );
    expect(tokenizer.countMessage(result, 'openai')).toBe(tokenizer.count('line 1\nline 2') + OVERHEAD.openai.perMessage + OVERHEAD.openai.perToolResult);
  });

  it('sums a list from the lists it counted before exactly as from scratch, whatever the edits (appends, cuts, swaps, earlier versions)', () => {
    const pool = Array.from({ length: 40 }, (_, i) => user(`message ${i} ${'x'.repeat(i % 7)}`));
    const calibrated = createTokenizer('o200k_base', { factor: 1.3, perToolCall: 5 });
    let round = 0;
    for (const list of editedLists(pool, 1500, 7)) {
      round += 1;
      for (const t of [tokenizer, calibrated]) {
        const format = round % 3 === 0 ? 'gemini' : 'openai';
        const scratch = list.reduce((n, m) => n + t.countMessage(m, format), Math.round((t.calibration?.factor ?? 1) * OVERHEAD[format].perRequest));
        expect(t.countMessages(list, format)).toBe(scratch);
      }
    }
  });

  it('counts an instruction as one more message of the request', () => {
    expect(tokenizer.countMessages([user('x')], 'openai', 'be brief')).toBeGreaterThan(tokenizer.countMessages([user('x')], 'openai'));
  });
});

describe('encodingForModel', () => {
  it.each([
    ['gpt-4.1', 'o200k_base'],
    ['gpt-4o-mini', 'o200k_base'],
    ['o3', 'o200k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['gemini-2.5-flash', 'o200k_base'],
  ] as const)('%s → %s', (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });
});

describe('calibration (src/tokens/calibration.ts)', () => {
  const message = {
    type: 'message' as const,
    id: 'a1',
    role: 'assistant' as const,
    text: 'Reading the config.',
    toolCalls: [{ id: 'c1', name: 'Read', args: { file_path: '/src/config.ts' } }],
  };
  it('scales o200k_base counts by the family factor and adds the per-call framing', () => {
    const raw = createTokenizer('o200k_base').countMessage(message, 'openai');
    expect(tokenizerForModel('claude-opus-4-20250514').countMessage(message, 'openai')).toBe(Math.round(1.185 * raw) + 55);
    expect(tokenizerForModel('google/gemini-3-pro-preview').countMessage(message, 'openai')).toBe(Math.round(1.165 * raw));
  });
  it('leaves models with a public tokenizer as they are, and can be turned off', () => {
    const raw = createTokenizer('o200k_base').countMessage(message, 'openai');
    expect(tokenizerForModel('gpt-5').countMessage(message, 'openai')).toBe(raw);
    expect(tokenizerForModel('gpt-5').calibration).toBeUndefined();
    expect(tokenizerForModel('claude-sonnet-4', { calibrate: false }).countMessage(message, 'openai')).toBe(raw);
    expect(calibrationFamily('claude-3-5-haiku')).toBe('claude');
    expect(calibrationFamily('gpt-4.1')).toBeUndefined();
  });
});
