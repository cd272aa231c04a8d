import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/index.js';
import { createSimulator } from '../../src/simulator/transport.js';
import type { Simulator } from '../../src/simulator/types.js';
import type { CompletionRequest, Provider } from '../../src/contracts/provider.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import { agentSession, failureOf } from './conversation.js';

const tokenizer = createTokenizer('o200k_base');
const MODEL = 'gemini-2.5-flash';

function stepRequest(overrides: Partial<CompletionRequest> = {}): CompletionRequest {
  return {
    model: MODEL,
    messages: agentSession(),
    purpose: 'step',
    directive: {
      purpose: 'step',
      window: 100_000,
      replay: {
        text: 'The token is undefined; I will guard it.',
        thinking: 'login.ts reads session.token before the session loads.',
        toolCalls: [{ id: 'call-2', name: 'edit', args: { path: 'src/auth/login.ts', line: 42 } }],
        thoughtSignature: 'c2lnLTI=',
      },
    },
    ...overrides,
  };
}

describe('GeminiProvider against the simulator', () => {
  let simulator: Simulator;
  let provider: Provider;
  beforeEach(() => {
    simulator = createSimulator({ tokenizer, seed: 7 });
    provider = createProvider({ name: 'gemini', mode: 'mock', model: MODEL, simulator });
  });
  afterEach(() => simulator.uninstall());

  it('answers a replayed step with its text, thinking, tool calls and usage', async () => {
    const request = stepRequest();
    const result = await provider.complete(request);
    if (!result.ok) throw new Error(result.failure.message);
    expect(result.text).toBe('The token is undefined; I will guard it.');
    expect(result.thinking).toBe('login.ts reads session.token before the session loads.');
    expect(result.toolCalls).toEqual([{ id: 'call-2', name: 'edit', args: { path: 'src/auth/login.ts', line: 42 } }]);
    // The simulator counts the prompt exactly as the harness does.
    expect(result.usage.input).toBe(tokenizer.countMessages(request.messages, 'gemini'));
    const reasoning = tokenizer.count('login.ts reads session.token before the session loads.');
    expect(result.usage.reasoning).toBe(reasoning);
    const visible = tokenizer.count('The token is undefined; I will guard it.') + tokenizer.count('edit{"path":"src/auth/login.ts","line":42}');
    expect(result.usage.output).toBe(visible + reasoning);
  });

  it('bills at most the thinkingBudget of reasoning when the request limits thinking', async () => {
    const result = await provider.complete(stepRequest({ thinking: { budgetTokens: 3 } }));
    if (!result.ok) throw new Error(result.failure.message);
    const visible = tokenizer.count('The token is undefined; I will guard it.') + tokenizer.count('edit{"path":"src/auth/login.ts","line":42}');
    expect(result.usage).toMatchObject({ reasoning: 3, output: visible + 3 });
  });

  it('counts an instruction and system messages exactly as the harness does', async () => {
    const request = stepRequest({ instruction: 'Summarise the session.', purpose: 'summary' });
    request.directive = { purpose: 'summary', window: 100_000, budgetTokens: 40 };
    const result = await provider.complete(request);
    if (!result.ok) throw new Error(result.failure.message);
    expect(result.usage.input).toBe(tokenizer.countMessages(request.messages, 'gemini', 'Summarise the session.'));
    expect(result.usage.output).toBeLessThanOrEqual(40);
    // A 40-token summary names no path verbatim (one per ~360 tokens): it says the file's name.
    expect(result.text).toContain('login.ts');
    expect(result.text).not.toContain('src/auth/login.ts');
  });

  it('reports an overflow with the input size and the window', async () => {
    const request = stepRequest();
    const input = tokenizer.countMessages(request.messages, 'gemini');
    request.directive = { purpose: 'step', window: input - 1 };
    expect(failureOf(await provider.complete(request))).toMatchObject({ kind: 'overflow', inputTokens: input, limit: input - 1 });
  });

  it('answers a refused call with RESOURCE_EXHAUSTED and its RetryInfo delay', async () => {
    const rateLimit = { retryAfterMs: 12_400, limitTokens: 250_000, remainingTokens: 0, resetMs: 12_400 };
    const failure = failureOf(await provider.complete(stepRequest({ directive: { purpose: 'step', window: 100_000, rateLimit } })));
    expect(failure).toMatchObject({ kind: 'rate-limit', retryAfterMs: 13_000 });
  });

  it('answers a per-day refusal with a PerDay quota violation, which means stop', async () => {
    const rateLimit = { retryAfterMs: 3_600_000, limitTokens: 250, remainingTokens: 0, resetMs: 3_600_000, daily: true };
    const failure = failureOf(await provider.complete(stepRequest({ directive: { purpose: 'step', window: 100_000, rateLimit } })));
    expect(failure.kind).toBe('quota');
  });

  it('rejects a current turn whose function call lost its thought signature, and accepts it signed', async () => {
    const directive = { purpose: 'step' as const, window: 100_000, requireThoughtSignatures: true, replay: { text: 'ok' } };
    const unsigned = await provider.complete(stepRequest({ messages: agentSession({ signed: false }), directive }));
    expect(failureOf(unsigned)).toMatchObject({ kind: 'bad-request', status: 400 });
    expect(failureOf(unsigned).message).toContain('Function call is missing a thought_signature');
    expect(failureOf(unsigned).message).toContain('default_api:shell');
    const signed = await provider.complete(stepRequest({ messages: agentSession({ signed: true }), directive }));
    expect(signed.ok).toBe(true);
  });

  it('does not check signatures of turns before the last user message', async () => {
    const messages = [...agentSession({ signed: false }), { type: 'message' as const, id: 'm4', role: 'user' as const, text: 'Now commit it.' }];
    const directive = { purpose: 'step' as const, window: 100_000, requireThoughtSignatures: true, replay: { text: 'ok' } };
    expect((await provider.complete(stepRequest({ messages, directive }))).ok).toBe(true);
  });

  it('turns injected 500s, 503s and truncated bodies into server failures, timeouts into network ones', async () => {
    const kinds = new Map<string, string>();
    for (const [fault, expected] of [
      ['server500', 'server'],
      ['unavailable503', 'server'],
      ['timeout', 'network'],
      ['malformed', 'server'],
    ] as const) {
      simulator.uninstall();
      simulator = createSimulator({ tokenizer, seed: 7, faults: { [fault]: 1 } });
      provider = createProvider({ name: 'gemini', mode: 'mock', model: MODEL, simulator });
      const failure = failureOf(await provider.complete(stepRequest()));
      kinds.set(fault, failure.kind);
      expect(failure.kind, fault).toBe(expected);
    }
    expect(kinds.size).toBe(4);
  });
});

describe('GeminiProvider against hand-written replies copied from the real API', () => {
  const host = 'https://generativelanguage.googleapis.com';
  const path = `/v1beta/models/${MODEL}:generateContent`;
  const live = () => createProvider({ name: 'gemini', mode: 'live', model: MODEL, env: { GEMINI_API_KEY: 'test-key' } });
  const request: CompletionRequest = { model: MODEL, messages: agentSession(), purpose: 'step' };
  afterEach(() => nock.cleanAll());

  it('sends thought parts, the signature on the first call, and merged function responses', async () => {
    let sent: unknown;
    nock(host)
      .post(path)
      .reply(200, (_uri, body) => {
        sent = body;
        return {
          candidates: [{ content: { role: 'model', parts: [{ text: 'done' }] }, finishReason: 'STOP' }],
          usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 3, cachedContentTokenCount: 64, totalTokenCount: 123 },
        };
      });
    const result = await live().complete(request);
    expect(result).toMatchObject({ ok: true, text: 'done', usage: { input: 120, cachedInput: 64, output: 3, reasoning: 0 } });
    expect(sent).toMatchObject({
      systemInstruction: { parts: [{ text: 'You are a coding agent working in /repo.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Fix the failing login test in src/auth/login.ts.' }] },
        {
          role: 'model',
          parts: [
            { text: expect.stringContaining('run the suite'), thought: true },
            { text: 'Let me run the tests first.' },
            { functionCall: { id: 'call-1', name: 'shell' }, thoughtSignature: 'c2lnLTE=' },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { id: 'call-1', name: 'shell', response: { output: expect.stringContaining('FAIL') } } }] },
      ],
    });
  });

  it('sends a thinking limit as generationConfig.thinkingConfig.thinkingBudget', async () => {
    let sent: unknown;
    nock(host)
      .post(path)
      .reply(200, (_uri, body) => {
        sent = body;
        return {
          candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
          usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1, totalTokenCount: 6 },
        };
      });
    await live().complete({ ...request, thinking: { budgetTokens: 8192 } });
    expect(sent).toMatchObject({ generationConfig: { thinkingConfig: { thinkingBudget: 8192 } } });
  });

  it('classifies a real overflow body with its numbers', async () => {
    nock(host)
      .post(path)
      .reply(
        400,
        {
          error: { code: 400, message: 'The input token count (1200512) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' },
        },
        { 'Content-Type': 'application/json' },
      );
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'overflow', inputTokens: 1200512, limit: 1048576 });
  });

  it("classifies the 400 of contents whose function calls and responses do not pair up as invalid-request, keeping Gemini's message", async () => {
    const message = 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    nock(host)
      .post(path)
      .reply(400, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } }, { 'Content-Type': 'application/json' });
    expect(failureOf(await live().complete(request))).toEqual({ kind: 'invalid-request', message, status: 400 });
  });

  it('classifies a per-minute RESOURCE_EXHAUSTED with RetryInfo as rate-limit, a per-day one as quota', async () => {
    const body = (quotaId: string, retryDelay: string) => ({
      error: {
        code: 429,
        message: 'You exceeded your current quota, please check your plan and billing details.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
            violations: [
              {
                quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
                quotaId,
                quotaDimensions: { location: 'global', model: MODEL },
              },
            ],
          },
          {
            '@type': 'type.googleapis.com/google.rpc.Help',
            links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }],
          },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
        ],
      },
    });
    const json = { 'Content-Type': 'application/json' };
    nock(host).post(path).reply(429, body('GenerateRequestsPerMinutePerProjectPerModel-FreeTier', '0.5s'), json);
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'rate-limit', retryAfterMs: 500 });
    nock(host).post(path).reply(429, body('GenerateRequestsPerDayPerProjectPerModel-FreeTier', '43s'), json);
    expect(failureOf(await live().complete(request)).kind).toBe('quota');
  });

  it('classifies 500, other 4xx, a non-JSON error page and a reply that is no completion', async () => {
    const json = { 'Content-Type': 'application/json' };
    nock(host)
      .post(path)
      .reply(500, { error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } }, json);
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'server', status: 500 });
    nock(host)
      .post(path)
      .reply(403, { error: { code: 403, message: "Method doesn't allow unregistered callers.", status: 'PERMISSION_DENIED' } }, json);
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'bad-request', status: 403 });
    nock(host).post(path).reply(502, '<html><body>Bad Gateway</body></html>', { 'Content-Type': 'text/html' });
    expect(failureOf(await live().complete(request))).toMatchObject({ kind: 'server', status: 502 });
    nock(host)
      .post(path)
      .reply(200, { usageMetadata: { promptTokenCount: 3 } }, json);
    expect(failureOf(await live().complete(request)).kind).toBe('server');
  });
});
