import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/index.js';
import type { CompletionRequest } from '../../src/contracts/provider.js';
import type { CompletionResult } from '../../src/contracts/provider.js';
import { agentSession } from './conversation.js';

// What a live provider's answer must hold before its numbers are trusted (docs/live-runs.md,
// "What ctxbench checks in an answer"), against hand-written replies on nock.
const json = { 'Content-Type': 'application/json' };
const request: CompletionRequest = { model: 'm', messages: agentSession(), purpose: 'step' };
afterEach(() => nock.cleanAll());

/** A failure as it came, or `ok` with the usage read as its message. */
type Outcome = { kind: string; message: string } & Record<string, unknown>;
const outcomeOf = (result: CompletionResult): Outcome => (result.ok ? { kind: 'ok', message: JSON.stringify(result.usage) } : result.failure);

const openai = () => createProvider({ name: 'openai', mode: 'live', model: 'gpt-4.1', env: { OPENAI_API_KEY: 'sk-test' } });
const gemini = () => createProvider({ name: 'gemini', mode: 'live', model: 'gemini-2.5-flash', env: { GEMINI_API_KEY: 'test-key' } });

function openaiAnswer(usage: unknown, choice: Record<string, unknown> = {}): Promise<Outcome> {
  const body = {
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4.1',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' }, ...choice }],
    ...(usage !== undefined ? { usage } : {}),
  };
  nock('https://api.openai.com').post('/v1/chat/completions').reply(200, body, json);
  return openai().complete(request).then(outcomeOf);
}

function geminiAnswer(usageMetadata: unknown, candidate: Record<string, unknown> = {}): Promise<Outcome> {
  const body = {
    candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', ...candidate }],
    ...(usageMetadata !== undefined ? { usageMetadata } : {}),
  };
  nock('https://generativelanguage.googleapis.com').post('/v1beta/models/m:generateContent').reply(200, body, json);
  return gemini().complete(request).then(outcomeOf);
}

describe('a usage that is no count of tokens is a malformed answer, never a number in the report', () => {
  it.each([
    ['no usage at all', undefined, /no usage\.prompt_tokens/],
    ['no completion count', { prompt_tokens: 10 }, /no usage\.completion_tokens/],
    ['a negative count', { prompt_tokens: -2_000_000, completion_tokens: 5 }, /usage\.prompt_tokens is -2000000, not a count of tokens/],
    ['an absurd count', { prompt_tokens: 9e15, completion_tokens: 5 }, /usage\.prompt_tokens is 9000000000000000, not a count/],
    ['a string', { prompt_tokens: 'NaN', completion_tokens: 5 }, /usage\.prompt_tokens is "NaN", not a count/],
    ['a fraction', { prompt_tokens: 10, completion_tokens: 2.5 }, /usage\.completion_tokens is 2\.5/],
    ['a negative detail', { prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: { cached_tokens: -1 } }, /cached_tokens is -1/],
  ])('OpenAI: %s', async (_name, usage, message) => {
    const failure = await openaiAnswer(usage);
    expect(failure).toMatchObject({ kind: 'server', malformed: true });
    expect(failure.message).toMatch(/^malformed response: /);
    expect(failure.message).toMatch(message);
  });

  it.each([
    ['no usageMetadata', undefined, /no usageMetadata\.promptTokenCount/],
    ['a negative count', { promptTokenCount: -5, candidatesTokenCount: 1 }, /promptTokenCount is -5/],
    ['an absurd count', { promptTokenCount: 10, candidatesTokenCount: 9e15 }, /candidatesTokenCount is 9000000000000000/],
    ['a string', { promptTokenCount: 'NaN' }, /promptTokenCount is "NaN"/],
  ])('Gemini: %s', async (_name, usage, message) => {
    const failure = await geminiAnswer(usage);
    expect(failure).toMatchObject({ kind: 'server', malformed: true });
    expect(failure.message).toMatch(message);
  });

  it('takes whole counts as they are, optional ones left out as 0', async () => {
    expect((await openaiAnswer({ prompt_tokens: 10, completion_tokens: 2 })).message).toBe('{"input":10,"cachedInput":0,"output":2,"reasoning":0}');
    // Gemini leaves out a zero candidates count.
    expect((await geminiAnswer({ promptTokenCount: 10, thoughtsTokenCount: 3 })).message).toBe('{"input":10,"cachedInput":0,"output":3,"reasoning":3}');
  });
});

describe('an empty answer the filter or the output limit ended is an empty-answer failure', () => {
  it.each([
    ['content_filter', null, /OpenAI returned no content \(finish reason content_filter\): the provider withheld the answer/],
    ['length', '', /OpenAI returned no content \(finish reason length\): the output limit was reached before any text/],
  ])('OpenAI finish_reason %s with content %j', async (reason, content, message) => {
    const failure = await openaiAnswer({ prompt_tokens: 10, completion_tokens: 256 }, { finish_reason: reason, message: { role: 'assistant', content } });
    expect(failure).toMatchObject({ kind: 'empty-answer', finishReason: reason });
    expect(failure.message).toMatch(message);
  });

  it.each([
    ['SAFETY', { finishReason: 'SAFETY', content: undefined }, /Gemini returned no content \(finish reason SAFETY\): the provider withheld/],
    ['MAX_TOKENS', { finishReason: 'MAX_TOKENS', content: { role: 'model', parts: [] } }, /finish reason MAX_TOKENS\): the output limit/],
  ])('Gemini finishReason %s', async (reason, candidate, message) => {
    const failure = await geminiAnswer({ promptTokenCount: 10, thoughtsTokenCount: 256 }, candidate);
    expect(failure).toMatchObject({ kind: 'empty-answer', finishReason: reason });
    expect(failure.message).toMatch(message);
  });

  it('a cut answer that holds text, and an empty one the model ended itself, are answers', async () => {
    expect((await openaiAnswer({ prompt_tokens: 10, completion_tokens: 2 }, { finish_reason: 'length' })).kind).toBe('ok');
    expect((await openaiAnswer({ prompt_tokens: 10, completion_tokens: 0 }, { message: { role: 'assistant', content: '' } })).kind).toBe('ok');
    expect((await geminiAnswer({ promptTokenCount: 10 }, { finishReason: 'MAX_TOKENS' })).kind).toBe('ok');
  });
});
