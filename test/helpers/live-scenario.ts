import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeEach, vi } from 'vitest';
import { startLocalServer, type LocalReply, type LocalServer, type SeenRequest } from './local-server.js';
import { writeFiles } from './temp.js';

/** The `ctxbench run` arguments of a live run of `liveScenario` against a local server, one worker, no response cache. */
export function liveRunArgs(provider: 'openai' | 'gemini', baseUrl: string, out: string): string[] {
  return ['run', liveScenario(provider), '--provider', provider, '--base-url', baseUrl, '--out', out, '--quiet', '--no-cache', '--workers', '1'];
}

/**
 * A two-step scenario for live runs against a local server: a hand-written transcript (no probes,
 * no strategy calls), so that every request the server sees is the preflight or a step.
 */
export function liveScenario(provider: 'openai' | 'gemini', extraYaml: string[] = []): string {
  const model = provider === 'openai' ? 'gpt-4.1' : 'gemini-2.5-flash';
  const dir = writeFiles({
    's.yaml': [
      'name: live-local',
      'transcript: t.ctx.jsonl',
      `provider: ${provider}`,
      `model: ${model}`,
      'window: 32000',
      'seed: 1',
      'strategies: [full]',
      ...extraYaml,
    ].join('\n'),
    't.ctx.jsonl': [
      { type: 'session', id: 'live', dialect: provider },
      { type: 'message', id: 'u1', role: 'user', text: 'List the files.' },
      { type: 'message', id: 'a1', role: 'assistant', text: 'There are two files.' },
      { type: 'message', id: 'u2', role: 'user', text: 'Which is larger?' },
      { type: 'message', id: 'a2', role: 'assistant', text: 'The first one.' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n'),
  });
  return join(dir, 's.yaml');
}

export const openaiOk: LocalReply = {
  status: 200,
  body: {
    id: 'c',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-4.1',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
  },
};

export const geminiOk: LocalReply = {
  status: 200,
  body: {
    candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
  },
};

/** A models call: the preflight of a live run. */
export function isModelsCall(request: SeenRequest): boolean {
  return request.method === 'GET' && /\/models(\/[^/:]+)?$/.test(request.path);
}

export const modelsOk: LocalReply = { status: 200, body: { object: 'list', data: [], name: 'models/gemini-2.5-flash' } };

/** Sets dummy API keys for the duration of a test (the setup file removes real ones). */
function withDummyKeys(): () => void {
  process.env.OPENAI_API_KEY = 'sk-test-dummy-key-0123456789';
  process.env.GEMINI_API_KEY = 'gemini-test-dummy-key';
  return () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.GEMINI_API_KEY;
  };
}

/** What a live-run test file gets from `useLoopbackServers`. */
export interface Loopback {
  /** Starts a loopback server that is closed after the test. */
  serve(reply: (request: SeenRequest, index: number) => LocalReply): Promise<LocalServer>;
  /** Unsets the dummy keys before the test ends (a replay needs none). */
  clearKeys(): void;
}

/**
 * The hooks every live-run test file needs: for each test, connections to 127.0.0.1 allowed and
 * dummy keys set; after it, the servers it started closed, nock's interceptors removed, the network
 * refused again, the keys unset and spies restored.
 */
export function useLoopbackServers(): Loopback {
  const servers: LocalServer[] = [];
  let clearKeys: () => void = () => undefined;
  beforeEach(() => {
    nock.enableNetConnect('127.0.0.1');
    clearKeys = withDummyKeys();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    nock.cleanAll();
    nock.disableNetConnect();
    clearKeys();
    vi.restoreAllMocks();
  });
  return {
    async serve(reply) {
      const server = await startLocalServer(reply);
      servers.push(server);
      return server;
    },
    clearKeys: () => clearKeys(),
  };
}
