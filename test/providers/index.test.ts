import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { createProvider } from '../../src/providers/index.js';
import type { CompletionRequest } from '../../src/contracts/provider.js';
import { agentSession } from './conversation.js';

const request: CompletionRequest = { model: 'm', messages: agentSession(), purpose: 'step' };

describe('createProvider', () => {
  it('refuses a live provider without its key, naming the variable', () => {
    expect(() => createProvider({ name: 'gemini', mode: 'live', model: 'gemini-2.5-flash', env: {} })).toThrow(ConfigError);
    expect(() => createProvider({ name: 'gemini', mode: 'live', model: 'gemini-2.5-flash', env: {} })).toThrow(/GEMINI_API_KEY/);
    expect(() => createProvider({ name: 'openai', mode: 'live', model: 'gpt-4.1', env: { OPENAI_API_KEY: ' ' } })).toThrow(/OPENAI_API_KEY/);
  });

  it('reads live keys from process.env by default, which the test setup has emptied', () => {
    expect(() => createProvider({ name: 'openai', mode: 'live', model: 'gpt-4.1' })).toThrow(ConfigError);
  });

  it('needs no key in mocked mode', () => {
    const provider = createProvider({ name: 'openai', mode: 'mock', model: 'gpt-4.1', env: {} });
    expect(provider).toMatchObject({ name: 'openai', mode: 'mock', dialect: 'openai' });
  });

  it('never reaches the real network: an unmocked request is refused by nock and becomes `network`', async () => {
    expect(nock.isActive()).toBe(true);
    const gemini = createProvider({ name: 'gemini', mode: 'live', model: 'gemini-2.5-flash', env: { GEMINI_API_KEY: 'k' } });
    const openai = createProvider({ name: 'openai', mode: 'live', model: 'gpt-4.1', env: { OPENAI_API_KEY: 'k' } });
    for (const provider of [gemini, openai]) {
      const result = await provider.complete(request);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.failure.kind).toBe('network');
        expect(result.failure.message).toMatch(/Nock: Disallowed net connect/);
      }
    }
  });
});
