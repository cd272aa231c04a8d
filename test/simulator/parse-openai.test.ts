import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../src/transcript/importers/index.js';
import { renderOpenAIRequest } from '../../src/wire/render-openai.js';
import { parseOpenAIRequest, parsedFromCanonical } from '../../src/simulator/parse-openai.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { ContextMessage } from '../../src/transcript/types.js';

/** What the simulator would read from the wire: the rendered body through JSON and back. */
function parsedFromWire(messages: readonly ContextMessage[], instruction?: string, maxOutputTokens?: number) {
  const rendering = renderOpenAIRequest(messages, instruction);
  const body = { model: 'gpt-5', messages: rendering.messages, ...(maxOutputTokens !== undefined ? { max_completion_tokens: maxOutputTokens } : {}) };
  return parseOpenAIRequest(JSON.parse(JSON.stringify(body)), rendering.shape);
}

async function realMessages(path: string): Promise<ContextMessage[]> {
  const transcript = await importTranscript(path, {});
  return transcript.events.flatMap((e) => (e.type === 'message' ? [e] : []));
}

describe('parsedFromCanonical', () => {
  // Real logs with thinking, tool calls with and without text, tool results, and (mini-swe-agent)
  // a text tool protocol (sentAsText), so every branch of the rendering is crossed.
  const files = [
    'fixtures/real/claude-code/vibecoding-session.jsonl',
    'fixtures/real/codex/vibecoding-session.jsonl',
    'fixtures/real/mini-swe-agent/django__django-11138.traj.json',
  ];

  it.each(files)('reads exactly what parsing the rendered body reads (%s)', async (file) => {
    const messages = await realMessages(file);
    expect(messages.length).toBeGreaterThan(10);
    const canonical = { messages, instruction: 'Answer briefly.', maxOutputTokens: 256, model: 'gpt-5' };
    expect(parsedFromCanonical(canonical)).toEqual(parsedFromWire(messages, 'Answer briefly.', 256));
    expect(parsedFromCanonical({ messages, model: 'gpt-5' })).toEqual(parsedFromWire(messages));
  });

  it('reads each request as its own body, when the requests before re-sent the same messages at other positions', async () => {
    const messages = await realMessages(files[2] as string);
    expect(messages.length).toBeGreaterThan(31);
    const windows = [messages.slice(0, 20), messages.slice(0, 30), messages.slice(5, 30), messages.slice(6, 31), messages.slice(1, 12), messages.slice(0, 30)];
    const parsed = windows.map((window) => parsedFromCanonical({ messages: window, model: 'gpt-5' }));
    for (const [i, window] of windows.entries()) expect(parsed[i]).toEqual(parsedFromWire(window));
    // A message at the same position is the same parsed object (the summarizer's memos hit on it).
    expect(parsed[1]?.messages[3]).toBeDefined();
    expect(parsed[1]?.messages[3]).toBe(parsed[0]?.messages[3]);
    expect(parsed[5]?.messages[25]).toBe(parsed[1]?.messages[25]);
  });

  it('reads the settings alone when asked for no messages', () => {
    const canonical = { messages: [{ type: 'message', id: 'u', role: 'user', text: 'hi' }] as ContextMessage[], maxOutputTokens: 9, model: 'gpt-5' };
    expect(parsedFromCanonical(canonical, { messages: false })).toEqual({ messages: [], maxOutputTokens: 9 });
  });

  it.each(files)('counts the same tokens as the parsed copy, from the canonical messages (%s)', async (file) => {
    const messages = await realMessages(file);
    const tokenizer = createTokenizer('o200k_base', { factor: 1.1, perToolCall: 7 });
    const parsed = parsedFromWire(messages, 'Answer briefly.');
    expect(parsed).toBeDefined();
    const fromWire = tokenizer.countMessages(parsed?.messages ?? [], 'openai', parsed?.instruction);
    expect(tokenizer.countMessages(messages, 'openai', 'Answer briefly.')).toBe(fromWire);
  });
});
