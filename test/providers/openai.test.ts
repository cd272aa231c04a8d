import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/index.js';
import { createSimulator } from '../../src/simulator/transport.js';
import type { Simulator } from '../../src/simulator/types.js';
import type { CompletionRequest, Provider } from '../../src/contracts/provider.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import { agentSession, failureOf } from './conversation.js';

const tokenizer = createTokenizer('o200k_base');
const MODEL = 'gpt-4.1-mini';

function stepRequest(overrides: Partial<CompletionRequest> = {}): CompletionRequest {
  return {
    model: MODEL,
    messages: agentSession(),
    purpose: 'step',
    directive: {
      purpose: 'step',
      window: 100_000,
      replay: {
        text: '',
        thinking: 'Guard the token before reading it.',
        toolCalls: [{ id: 'call_2', name: 'edit', args: { path: 'src/auth/login.ts', line: 42 } }],
      },
    },
    ...overrides,
  };
}

describe('OpenAIProvider against the simulator', () => {
  let simulator: Simulator;
  let provider: Provider;
  beforeEach(() => {
    simulator = createSimulator({ tokenizer, seed: 11 });
    provider = createProvider({ name: 'openai', mode: 'mock', model: MODEL, simulator });
  });
  afterEach(() => simulator.uninstall());

  it('answers a replayed step with its tool calls and usage, reasoning billed but not returned', async () => {
    const request = stepRequest();
    const result = await provider.complete(request);
    if (!result.ok) throw new Error(result.failure.message);
    expect(result.text).toBe('');
    expect(result.thinking).toBeUndefined();
    expect(result.toolCalls).toEqual([{ id: 'call_2', name: 'edit', args: { path: 'src/auth/login.ts', line: 42 } }]);
    expect(result.usage.input).toBe(tokenizer.countMessages(request.messages, 'openai'));
    const reasoning = tokenizer.count('Guard the token before reading it.');
    expect(result.usage).toMatchObject({
      reasoning,
      output: tokenizer.count('edit{"path":"src/auth/login.ts","line":42}') + reasoning,
      cachedInput: 0,
    });
  });

  it('bills at most the budget of reasoning_effort (low: 1,024 tokens) when the request limits thinking', async () => {
    const long = 'weigh the options again '.repeat(400);
    const replay = { text: '', thinking: long, toolCalls: [{ id: 'call_2', name: 'edit', args: { path: 'src/auth/login.ts', line: 42 } }] };
    const limited = await provider.complete(stepRequest({ thinking: { budgetTokens: 2000 }, directive: { purpose: 'step', window: 100_000, replay } }));
    const free = await provider.complete(stepRequest({ directive: { purpose: 'step', window: 100_000, replay } }));
    if (!limited.ok || !free.ok) throw new Error('a step failed');
    expect(free.usage.reasoning).toBe(tokenizer.count(long));
    expect(limited.usage.reasoning).toBe(1024);
    expect(free.usage.output - limited.usage.output).toBe(tokenizer.count(long) - 1024);
  });

  it('counts a request with an instruction exactly as the harness does', async () => {
    const instruction = 'Answer from the conversation only.';
    const messages = [...agentSession(), { type: 'message' as const, id: 'q', role: 'user' as const, text: 'Which line of login.ts throws?' }];
    const result = await provider.complete({ model: MODEL, messages, instruction, purpose: 'probe', directive: { purpose: 'probe', window: 100_000 } });
    if (!result.ok) throw new Error(result.failure.message);
    expect(result.usage.input).toBe(tokenizer.countMessages(messages, 'openai', instruction));
    expect(result.text).toContain('login.ts:42');
  });

  it('reports an overflow with the input size and the window', async () => {
    const request = stepRequest();
    const input = tokenizer.countMessages(request.messages, 'openai');
    request.directive = { purpose: 'step', window: 64 };
    expect(failureOf(await provider.complete(request))).toMatchObject({ kind: 'overflow', inputTokens: input, limit: 64 });
  });

  it('answers a refused call with rate_limit_exceeded and its retry headers', async () => {
    const rateLimit = { retryAfterMs: 1_500, limitTokens: 30_000, remainingTokens: 120, resetMs: 6_000 };
    const failure = failureOf(await provider.complete(stepRequest({ directive: { purpose: 'step', window: 100_000, rateLimit } })));
    expect(failure).toMatchObject({ kind: 'rate-limit', retryAfterMs: 1_500 });
    expect(failure.message).toContain('tokens per min (TPM): Limit 30000, Used 29880');
  });

  it('answers a per-day refusal in words that classify as quota', async () => {
    const rateLimit = { retryAfterMs: 7_200_000, limitTokens: 200, remainingTokens: 0, resetMs: 7_200_000, daily: true };
    expect(failureOf(await provider.complete(stepRequest({ directive: { purpose: 'step', window: 100_000, rateLimit } }))).kind).toBe('quota');
  });

  it('turns injected 500s, 503s and truncated bodies into server failures, timeouts into network ones', async () => {
    for (const [fault, expected] of [
      ['server500', 'server'],
      ['unavailable503', 'server'],
      ['timeout', 'network'],
      ['malformed', 'server'],
    ] as const) {
      simulator.uninstall();
      simulator = createSimulator({ tokenizer, seed: 11, faults: { [fault]: 1 } });
      provider = createProvider({ name: 'openai', mode: 'mock', model: MODEL, simulator });
      const failure = failureOf(await provider.complete(stepRequest()));
      expect(failure.kind, fault).toBe(expected);
    }
  });
});

describe('OpenAIProvider against hand-written replies copied from the real API', () => {
  const host = 'https://api.openai.com';
  const path = '/v1/chat/completions';
  const json = { 'Content-Type': 'application/json' };
  const live = () => createProvider({ name: 'openai', mode: 'live', model: MODEL, env: { OPENAI_API_KEY: 'sk-test' } });
  const request: CompletionRequest = { model: MODEL, messages: agentSession(), purpose: 'step', maxOutputTokens: 256 };
  afterEach(() => nock.cleanAll());

  it('sends a thinking limit as reasoning_effort (8,192 tokens: medium)', async () => {
    let sent: unknown;
    nock(host)
      .post(path)
      .reply(
        200,
        (_uri, body) => {
          sent = body;
          return {
            id: 'c',
            object: 'chat.completion',
            created: 1,
            model: MODEL,
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }],
            usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
          };
        },
        json,
      );
    await live().complete({ ...request, thinking: { budgetTokens: 8192 } });
    expect(sent).toMatchObject({ reasoning_effort: 'medium' });
  });

  it('sends tool calls and tool results without thinking, and reads text, calls and usage', async () => {
    let sent: unknown;
    nock(host)
      .post(path)
      .reply(
        200,
        (_uri, body) => {
          sent = body;
          return {
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 1,
            model: MODEL,
            choices: [
              {
                index: 0,
                finish_reason: 'tool_calls',
                message: {
                  role: 'assistant',
                  content: 'Patching it.',
                  tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'edit', arguments: '{"path":"src/auth/login.ts"}' } }],
                },
              },
            ],
            usage: {
              prompt_tokens: 210,
              completion_tokens: 40,
              total_tokens: 250,
              prompt_tokens_details: { cached_tokens: 128 },
              completion_tokens_details: { reasoning_tokens: 16 },
            },
          };
        },
        json,
      );
    const result = await live().complete(request);
    expect(result).toMatchObject({
      ok: true,
      text: 'Patching it.',
      toolCalls: [{ id: 'call_9', name: 'edit', args: { path: 'src/auth/login.ts' } }],
      usage: { input: 210, cachedInput: 128, output: 40, reasoning: 16 },
    });
    expect(sent).toEqual({
      model: MODEL,
      max_completion_tokens: 256,
      messages: [
        { role: 'system', content: 'You are a coding agent working in /repo.' },
        { role: 'user', content: 'Fix the failing login test in src/auth/login.ts.' },
        {
          role: 'assistant',
          content: 'Let me run the tests first.',
          tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'shell', arguments: '{"command":"npm test -- test/auth/login.test.ts"}' } }],
        },
        { role: 'tool', tool_call_id: 'call-1', content: expect.stringContaining('TypeError') },
      ],
    });
  });

  it('classifies context_length_exceeded with its numbers', async () => {
    nock(host)
      .post(path)
      .reply(
        400,
        {
          error: {
            message:
              "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
            type: 'invalid_request_error',
            param: 'messages',
            code: 'context_length_exceeded',
          },
        },
        json,
      );
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'overflow', inputTokens: 131072, limit: 128000 });
  });

  it('reads the wait from x-ratelimit-reset-tokens when no retry-after is sent', async () => {
    nock(host)
      .post(path)
      .reply(
        429,
        {
          error: {
            message: `Rate limit reached for ${MODEL} in organization org-abc on tokens per min (TPM): Limit 30000, Used 29500, Requested 1200. Please try again in 1.4s.`,
            type: 'tokens',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
        { ...json, 'x-ratelimit-limit-tokens': '30000', 'x-ratelimit-remaining-tokens': '500', 'x-ratelimit-reset-tokens': '1m30.5s' },
      );
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'rate-limit', retryAfterMs: 90_500 });
  });

  it("classifies the 400 of tool messages that do not pair up as invalid-request, keeping OpenAI's message", async () => {
    const message =
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1";
    nock(host)
      .post(path)
      .reply(400, { error: { message, type: 'invalid_request_error', param: 'messages.[3].role', code: null } }, json);
    expect(failureOf(await live().complete(request))).toEqual({ kind: 'invalid-request', message, status: 400 });
  });

  it('classifies insufficient_quota as quota, 500 as server, 401 as bad-request', async () => {
    nock(host)
      .post(path)
      .reply(
        429,
        {
          error: {
            message: 'You exceeded your current quota, please check your plan and billing details.',
            type: 'insufficient_quota',
            param: null,
            code: 'insufficient_quota',
          },
        },
        json,
      );
    expect(failureOf(await live().complete(request)).kind).toBe('quota');
    nock(host)
      .post(path)
      .reply(500, { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } }, json);
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'server', status: 500 });
    nock(host)
      .post(path)
      .reply(401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, json);
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'bad-request', status: 401 });
  });

  it('calls a truncated JSON body and a 200 text body that is no completion a malformed answer (server)', async () => {
    nock(host).post(path).reply(200, '{"id": "chatcmpl-1", "choi', json);
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'server', malformed: true });
    nock(host).post(path).reply(200, 'upstream connect error', { 'Content-Type': 'text/plain' });
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'server', malformed: true });
  });

  it('talks to any OpenAI-compatible base URL', async () => {
    nock('http://127.0.0.1:8080')
      .post('/v1/chat/completions')
      .reply(
        200,
        {
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: 'local',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hi', reasoning_content: 'greet back' } }],
          usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
        },
        json,
      );
    const local = createProvider({ name: 'openai', mode: 'live', model: 'local', baseUrl: 'http://127.0.0.1:8080/v1', env: { OPENAI_API_KEY: 'none' } });
    expect(await local.complete(request)).toMatchObject({ ok: true, text: 'hi', thinking: 'greet back' });
  });
});
