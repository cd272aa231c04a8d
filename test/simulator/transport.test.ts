import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/index.js';
import { CALL_HEADER } from '../../src/simulator/call-tag.js';
import { createSimulator } from '../../src/simulator/transport.js';
import type { CompletionRequest } from '../../src/contracts/provider.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import { agentSession } from '../providers/conversation.js';

const tokenizer = createTokenizer('o200k_base');
const request: CompletionRequest = {
  model: 'gemini-2.5-flash',
  messages: agentSession(),
  purpose: 'step',
  directive: { purpose: 'step', window: 100_000, replay: { text: 'ok' } },
};

describe('createSimulator', () => {
  afterEach(() => nock.cleanAll());

  it('keys each request to the directive registered for it, with per-provider call keys', async () => {
    const simulator = createSimulator({ tokenizer, seed: 1 });
    const seen: string[] = [];
    const register = simulator.register.bind(simulator);
    simulator.register = (directive, call) => {
      const id = register(directive, call);
      seen.push(id);
      return id;
    };
    const first = createProvider({ name: 'gemini', mode: 'mock', model: 'm', simulator, callKeyPrefix: 'unit-a/' });
    const second = createProvider({ name: 'gemini', mode: 'mock', model: 'm', simulator, callKeyPrefix: 'unit-b/' });
    await first.complete(request);
    await second.complete({ ...request, directive: { purpose: 'step', window: 100_000, replay: { text: 'second' } } });
    const again = await first.complete({ ...request, directive: { purpose: 'step', window: 100_000, replay: { text: 'third' } } });
    expect(again).toMatchObject({ ok: true, text: 'third' });
    expect(seen.map((id) => id.split('#')[0])).toEqual(['unit-a/gemini-1', 'unit-b/gemini-1', 'unit-a/gemini-2']);
    simulator.uninstall();
  });

  it('answers a call without a directive with a large window, and a request without a known id with a 400', async () => {
    const simulator = createSimulator({ tokenizer, seed: 1 });
    const provider = createProvider({ name: 'openai', mode: 'mock', model: 'gpt-4.1', simulator });
    const { directive: _unused, ...bare } = request;
    expect((await provider.complete({ ...bare, purpose: 'probe' })).ok).toBe(true);
    const response = await simulator.fetch!(`${simulator.openaiBaseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CALL_HEADER]: 'nobody#1' },
      body: JSON.stringify({ model: 'gpt-4.1', messages: [] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('no directive registered for call nobody#1') } });
    simulator.uninstall();
  });

  it('reads the call id from any form of headers, as HTTP reads it (a Headers, pairs, an object in any case)', async () => {
    const simulator = createSimulator({ tokenizer, seed: 1 });
    const url = `${simulator.openaiBaseUrl}/chat/completions`;
    const body = JSON.stringify({ model: 'gpt-4.1', messages: [] });
    const forms: RequestInit['headers'][] = [
      { [CALL_HEADER]: ' nobody#2 ' },
      { 'X-Ctxbench-Call': 'nobody#2' },
      [[CALL_HEADER, 'nobody#2']],
      new Headers({ [CALL_HEADER]: 'nobody#2' }),
    ];
    for (const headers of forms) {
      const response = await simulator.fetch!(url, { method: 'POST', headers, body });
      expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('no directive registered for call nobody#2.') } });
    }
    // No call header: refused as a request to the network.
    await expect(simulator.fetch!(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).rejects.toThrow(/refused POST/);
    simulator.uninstall();
  });

  it('touches no interceptor of the process, and refuses every request once uninstalled', async () => {
    const mine = nock('https://api.openai.com').persist().post('/v1/chat/completions').reply(200, { mine: true });
    const simulator = createSimulator({ tokenizer, seed: 1 });
    const provider = createProvider({ name: 'openai', mode: 'mock', model: 'm', simulator });
    // The simulator answers through its own transport, not through the process's interceptor.
    expect(await provider.complete(request)).toMatchObject({ ok: true, text: 'ok' });
    expect(mine.isDone()).toBe(false);
    simulator.uninstall();
    const after = await provider.complete(request);
    expect(after.ok === false && after.failure).toMatchObject({ kind: 'network', message: expect.stringContaining('ctxbench simulator: refused POST') });
    expect(nock.activeMocks()).toEqual(['POST https://api.openai.com:443/v1/chat/completions']);
  });

  it('refuses, as a network error, any request that is not a simulated call: it never reaches the network', async () => {
    const simulator = createSimulator({ tokenizer, seed: 1 });
    const refused = async (url: string, init: RequestInit) =>
      (simulator.fetch!(url, init) as Promise<unknown>).then(
        () => 'answered',
        (error: Error) => error.message,
      );
    const tagged = { method: 'POST', headers: { [CALL_HEADER]: 'x#1' }, body: '{}' };
    expect(await refused('https://example.com/v1/chat/completions', tagged)).toMatch(/^ctxbench simulator: refused POST https:\/\/example.com/);
    expect(await refused(`${simulator.openaiBaseUrl}/models`, tagged)).toMatch(/refused POST/);
    expect(await refused(`${simulator.openaiBaseUrl}/chat/completions`, { ...tagged, headers: {} })).toMatch(/refused POST/);
    expect(await refused(`${simulator.geminiBaseUrl}/v1beta/models/m:generateContent`, { ...tagged, method: 'GET', body: null })).toMatch(/refused GET/);
    expect(await refused(`${simulator.geminiBaseUrl}/v1beta/models/m:generateContent`, tagged)).toBe('answered');
    simulator.uninstall();
  });

  it('answers a tagged call asked directly as its fetch does: a success without a Response, a failure as the Response', async () => {
    const simulator = createSimulator({ tokenizer, seed: 1 });
    const url = `${simulator.openaiBaseUrl}/chat/completions`;
    const canonical = { messages: agentSession(), model: 'gpt-4.1' };
    const tag = (window: number): Record<string, string> => ({
      [CALL_HEADER]: simulator.register({ purpose: 'step', window, replay: { text: 'ok' } }, { key: 'k', canonical }),
    });
    const asked = await simulator.ask!(url, tag(100_000));
    const fetched = await simulator.fetch!(url, { method: 'POST', headers: tag(100_000) });
    expect(asked).not.toBeInstanceOf(Response);
    expect([asked.ok, asked.status, asked.headers.get('CONTENT-TYPE'), asked.headers.get('content-length')]).toEqual([
      true,
      fetched.status,
      fetched.headers.get('content-type'),
      null,
    ]);
    expect(await asked.json()).toEqual(await fetched.json());
    const overflow = await simulator.ask!(url, tag(10));
    expect(overflow).toBeInstanceOf(Response);
    expect([overflow.ok, overflow.status]).toEqual([false, 400]);
    await expect(simulator.ask!(url, {})).rejects.toThrow(/refused POST/);
    simulator.uninstall();
  });

  it('intercepts any OpenAI-compatible base URL it is given', async () => {
    const simulator = createSimulator({ tokenizer, seed: 1, openaiBaseUrl: 'http://127.0.0.1:11434/v1' });
    const provider = createProvider({ name: 'openai', mode: 'mock', model: 'llama', simulator });
    expect(await provider.complete(request)).toMatchObject({ ok: true, text: 'ok' });
    simulator.uninstall();
  });
});
