import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createResponseCache, requestKey } from '../../src/providers/cache.js';
import { createProvider, OpenAIProvider } from '../../src/providers/index.js';
import { runSuite } from '../../src/run/run-suite.js';
import { renderJson } from '../../src/report/json.js';
import type { CompletionRequest } from '../../src/contracts/provider.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

const OPENAI = 'https://api.openai.com';
const GEMINI = 'https://generativelanguage.googleapis.com';
// A dummy key passed as the env option: never a real key, never the process environment.
const env = { OPENAI_API_KEY: 'test-key', GEMINI_API_KEY: 'test-key' };
const request: CompletionRequest = {
  model: 'gpt-4.1',
  messages: [{ type: 'message', id: 'u1', role: 'user', text: 'Which port does the server use?' }],
  purpose: 'step',
};

const completion = (text: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4.1',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
  usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
});

afterEach(() => nock.cleanAll());

describe('response cache with the live provider classes (nock stands in for the API)', () => {
  it('answers an identical OpenAI request from disk, and asks again for a different one', async () => {
    const cache = createResponseCache(tempDir());
    const provider = createProvider({ name: 'openai', mode: 'live', model: 'gpt-4.1', env, cache });
    const api = nock(OPENAI).post('/v1/chat/completions').once().reply(200, completion('8437'));
    const first = await provider.complete(request);
    expect(first).toMatchObject({ ok: true, text: '8437', usage: { input: 12, output: 3 } });
    expect(api.isDone()).toBe(true);
    // No interceptor is left: the same request can only be answered from the cache.
    expect(await provider.complete({ ...request, purpose: 'probe' })).toEqual(first);
    const other = await provider.complete({ ...request, maxOutputTokens: 10 });
    expect(other).toMatchObject({ ok: false, failure: { kind: 'network' } });
  });

  it('never caches a failure: the next identical request goes to the API again', async () => {
    const dir = tempDir();
    const provider = createProvider({ name: 'openai', mode: 'live', model: 'gpt-4.1', env, cache: createResponseCache(dir) });
    nock(OPENAI)
      .post('/v1/chat/completions')
      .reply(500, { error: { message: 'boom', type: 'server_error' } });
    nock(OPENAI).post('/v1/chat/completions').reply(200, completion('ok'));
    expect(await provider.complete(request)).toMatchObject({ ok: false, failure: { kind: 'server' } });
    expect(readdirSync(dir)).toEqual([]);
    expect(await provider.complete(request)).toMatchObject({ ok: true, text: 'ok' });
    expect(await provider.complete(request)).toMatchObject({ ok: true, text: 'ok' });
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('caches Gemini responses the same way', async () => {
    const provider = createProvider({ name: 'gemini', mode: 'live', model: 'gemini-2.5-flash', env, cache: createResponseCache(tempDir()) });
    nock(GEMINI)
      .post('/v1beta/models/gemini-2.5-flash:generateContent')
      .once()
      .reply(200, {
        candidates: [{ content: { role: 'model', parts: [{ text: 'done' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 1 },
      });
    const gemini = { ...request, model: 'gemini-2.5-flash' };
    expect(await provider.complete(gemini)).toMatchObject({ ok: true, text: 'done' });
    expect(await provider.complete(gemini)).toMatchObject({ ok: true, text: 'done', usage: { input: 9, output: 1 } });
  });

  it('keys on provider, endpoint, model and body; not on the purpose or simulator hints', () => {
    const id = { provider: 'openai', endpoint: '', model: 'gpt-4.1' };
    const key = requestKey(id, request);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(requestKey(id, { ...request, purpose: 'summary', directive: { purpose: 'summary', window: 5 } })).toBe(key);
    expect(requestKey(id, { ...request, model: '' })).toBe(key);
    for (const other of [
      requestKey({ ...id, provider: 'gemini' }, request),
      requestKey({ ...id, endpoint: 'http://localhost:8000/v1' }, request),
      requestKey(id, { ...request, model: 'gpt-4.1-mini' }),
      requestKey(id, { ...request, instruction: 'Summarize.' }),
      requestKey(id, { ...request, messages: [{ type: 'message', id: 'u1', role: 'user', text: 'Which port?' }] }),
    ]) {
      expect(other).not.toBe(key);
    }
  });

  it('treats an unreadable entry as a miss, and is not used by mocked providers', async () => {
    const dir = tempDir();
    const cache = createResponseCache(dir);
    const key = 'ab'.repeat(32);
    await cache.put(key, { ok: true, text: 'x', toolCalls: [], usage: { input: 1, cachedInput: 0, output: 1, reasoning: 0 } });
    expect(await cache.get(key)).toMatchObject({ text: 'x' });
    writeFileSync(join(dir, 'ab', `${key}.json`), '{not json');
    expect(await cache.get(key)).toBeUndefined();
    expect(createProvider({ name: 'openai', mode: 'mock', model: 'gpt-4.1', cache })).toBeInstanceOf(OpenAIProvider);
  });
});

describe('response cache in a live run', () => {
  it('re-running a live suite sends no request twice and gives the same result', async () => {
    const scenario = writeFiles({
      's.yaml': [
        'name: live',
        'transcript:',
        '  generate: { steps: 6, seed: 1, dialect: openai, toolOutputTokens: 200 }',
        'provider: openai',
        'seed: 1',
        'strategies: [full]',
      ].join('\n'),
    });
    let calls = 0;
    // Every live run starts with a preflight models call.
    nock(OPENAI).persist().get('/v1/models').reply(200, { object: 'list', data: [] });
    nock(OPENAI)
      .persist()
      .post('/v1/chat/completions')
      .reply(200, () => {
        calls += 1;
        return completion(`answer ${calls}`);
      });
    const cacheDir = tempDir();
    const run = async () => renderJson(await runSuite({ scenarios: [scenario], mode: 'live', env, cacheDir }))[0]?.contents;
    const first = await run();
    const paid = calls;
    expect(paid).toBeGreaterThanOrEqual(6);
    expect(await run()).toBe(first);
    expect(calls).toBe(paid);
    const uncached = renderJson(await runSuite({ scenarios: [scenario], mode: 'live', env }))[0]?.contents;
    expect(calls).toBe(2 * paid);
    expect(uncached).toBeDefined();
  });
});
