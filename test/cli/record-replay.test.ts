import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import type { LocalReply } from '../helpers/local-server.js';
import { geminiOk, isModelsCall, liveScenario, modelsOk, openaiOk, useLoopbackServers } from '../helpers/live-scenario.js';
import { parseCassette } from '../../src/providers/cassette.js';

// --record saves a live run's HTTP and waits; --replay re-runs it offline to the same result.json.
const loopback = useLoopbackServers();

const DUMMY_KEYS = /sk-test-dummy|gemini-test-dummy/;

/**
 * A 429 with a short hint, then successes. The key comes back in a response header (a body that
 * echoed it would reach result.json, where scrubbing it from the cassette alone would make the
 * replay differ: test/providers/cassette.test.ts covers bodies).
 */
function script(provider: 'openai' | 'gemini'): (index: number) => LocalReply {
  const limited: LocalReply =
    provider === 'openai'
      ? {
          status: 429,
          headers: { 'retry-after-ms': '200', 'set-cookie': 'session=abc', 'openai-organization': 'org-secret', 'x-echo': 'sk-test-dummy-key-0123456789' },
          body: { error: { message: 'Rate limit reached for gpt-4.1 on tokens per min (TPM)', type: 'tokens', code: 'rate_limit_exceeded' } },
        }
      : {
          status: 429,
          headers: { 'x-echo': 'gemini-test-dummy-key' },
          body: {
            error: {
              code: 429,
              message: 'Quota exceeded for metric input tokens per minute',
              status: 'RESOURCE_EXHAUSTED',
              details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.2s' }],
            },
          },
        };
  return (index) => (index === 0 ? limited : provider === 'openai' ? openaiOk : geminiOk);
}

describe.each(['openai', 'gemini'] as const)('record and replay a live %s run', (provider) => {
  it('replays offline, without a key, to a byte-identical result.json; the cassette holds no key', async () => {
    const reply = script(provider);
    let step = 0;
    const server = await loopback.serve((request) => (isModelsCall(request) ? modelsOk : reply(step++)));
    const scenario = liveScenario(provider);
    const url = provider === 'openai' ? `${server.origin}/v1` : server.origin;
    const cassetteFile = join(tempDir(), 'http', 'run.json');
    const live = tempDir();
    const recorded = await cli(['run', scenario, '--provider', provider, '--base-url', url, '--out', live, '--quiet', '--no-cache', '--record', cassetteFile]);
    expect(recorded.stderr).toBe('');
    expect(recorded.code).toBe(0);
    expect(server.requests).toHaveLength(4);
    await server.close();

    const text = readFileSync(cassetteFile, 'utf8');
    expect(text).not.toMatch(DUMMY_KEYS);
    expect(text).not.toContain('org-secret');
    expect(text).toContain('[REDACTED]');
    const cassette = parseCassette(text, cassetteFile);
    expect(cassette.interactions.map((i) => i.status)).toEqual([200, 429, 200, 200]);
    expect(cassette.waits).toHaveLength(1);
    expect(cassette.waits[0]).toBeGreaterThanOrEqual(200 - 5);

    // Offline: the server is gone, no key is set, real network is refused.
    loopback.clearKeys();
    nock.disableNetConnect();
    const replayed = tempDir();
    const again = await cli(['run', scenario, '--provider', provider, '--out', replayed, '--quiet', '--replay', cassetteFile]);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    const result = readFileSync(join(live, 'result.json'));
    expect(JSON.parse(result.toString()).units[0].summary.rate_limit_hits).toBe(1);
    expect(readFileSync(join(replayed, 'result.json'))).toEqual(result);
  });
});

describe('--record / --replay misuse', () => {
  it('needs a live provider', async () => {
    const { code, stderr } = await cli(['run', liveScenario('openai'), '--out', tempDir(), '--quiet', '--record', join(tempDir(), 'c.json')]);
    expect(code).toBe(2);
    expect(stderr).toContain('--record needs a live provider');
  });

  it('a file that is not a cassette is an input error naming the field', async () => {
    const file = join(tempDir(), 'c.json');
    writeFileSync(file, JSON.stringify({ format: 'ctxbench-cassette', version: 1, provider: 'openai', waits: [], interactions: [{ scope: 'x' }] }));
    const { code, stderr } = await cli(['run', liveScenario('openai'), '--provider', 'openai', '--out', tempDir(), '--quiet', '--replay', file]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/c\.json \(field interactions\.0\.method\): not a ctxbench cassette/);
  });

  it('a cassette of the other provider is refused', async () => {
    const file = join(tempDir(), 'c.json');
    writeFileSync(file, JSON.stringify({ format: 'ctxbench-cassette', version: 1, provider: 'gemini', waits: [], interactions: [] }));
    const { code, stderr } = await cli(['run', liveScenario('openai'), '--provider', 'openai', '--out', tempDir(), '--quiet', '--replay', file]);
    expect(code).toBe(2);
    expect(stderr).toContain('was recorded with --provider gemini, not openai');
  });

  it('leaves no signal handler behind when the cassette is refused', async () => {
    const file = join(tempDir(), 'c.json');
    writeFileSync(file, '{"format": "not a cassette"}');
    const before = { int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') };
    const { code } = await cli(['run', liveScenario('openai'), '--provider', 'openai', '--out', tempDir(), '--quiet', '--replay', file]);
    expect(code).toBe(2);
    expect({ int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') }).toEqual(before);
  });
});
