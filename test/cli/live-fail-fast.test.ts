import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { closedPort, type LocalReply } from '../helpers/local-server.js';
import { isModelsCall, liveRunArgs, modelsOk, openaiOk, useLoopbackServers } from '../helpers/live-scenario.js';

// A provider that cannot be used stops a live run with exit 2 before anything in --out is touched.
const loopback = useLoopbackServers();

/** An --out folder holding an earlier run's reports. */
function previousOut(): string {
  const out = tempDir();
  writeFileSync(join(out, 'result.json'), '{"earlier":true}\n');
  writeFileSync(join(out, 'summary.csv'), 'earlier\n');
  return out;
}

function expectUntouched(out: string): void {
  expect(readdirSync(out).sort()).toEqual(['result.json', 'summary.csv']);
  expect(readFileSync(join(out, 'result.json'), 'utf8')).toBe('{"earlier":true}\n');
  expect(readFileSync(join(out, 'summary.csv'), 'utf8')).toBe('earlier\n');
}

async function runLive(provider: 'openai' | 'gemini', baseUrl: string) {
  const out = previousOut();
  const outcome = await cli(liveRunArgs(provider, baseUrl, out));
  const lines = outcome.stderr.trim().split('\n');
  return { ...outcome, out, lines };
}

const openaiUnauthorized: LocalReply = {
  status: 401,
  body: { error: { message: 'Incorrect API key provided: sk-test-***-6789.', type: 'invalid_request_error', code: 'invalid_api_key' } },
};

describe('fail fast when the live provider cannot be used', () => {
  it('openai 401 invalid_api_key at the preflight: exit 2, one line naming provider, URL and cause, no step sent', async () => {
    const server = await loopback.serve(() => openaiUnauthorized);
    const url = `${server.origin}/v1`;
    const { code, lines, out, stdout } = await runLive('openai', url);
    expect(code).toBe(2);
    expect(lines).toEqual([
      `ctxbench: the live openai provider at ${url} cannot be used: authentication failed (HTTP 401): Incorrect API key provided: sk-test-***-6789.`,
    ]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    expect(stdout).toBe('');
    expectUntouched(out);
  });

  it('gemini 403 PERMISSION_DENIED: exit 2 naming the Gemini base URL', async () => {
    const server = await loopback.serve(() => ({
      status: 403,
      body: { error: { code: 403, message: "Method doesn't allow unregistered callers.", status: 'PERMISSION_DENIED' } },
    }));
    const { code, lines, out } = await runLive('gemini', server.origin);
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the live gemini provider at ${server.origin} cannot be used: permission denied (HTTP 403)`);
    expect(server.requests).toHaveLength(1);
    expectUntouched(out);
  });

  it("gemini's own bad-key answer (400 API_KEY_INVALID) is an authentication failure", async () => {
    const server = await loopback.serve(() => ({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
        },
      },
    }));
    const { code, lines, out } = await runLive('gemini', server.origin);
    expect(code).toBe(2);
    expect(lines[0]).toContain('authentication failed (HTTP 400): API key not valid');
    expectUntouched(out);
  });

  it('a 401 that only the completions endpoint gives stops the run too, after the first step call', async () => {
    const server = await loopback.serve((request) => (isModelsCall(request) ? modelsOk : openaiUnauthorized));
    const { code, lines, out } = await runLive('openai', `${server.origin}/v1`);
    expect(code).toBe(2);
    expect(lines[0]).toContain('authentication failed (HTTP 401)');
    expect(server.requests.filter((r) => !isModelsCall(r))).toHaveLength(1);
    expectUntouched(out);
  });

  it('a closed port: exit 2, "cannot reach it", with the cause', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const { code, lines, out } = await runLive('openai', url);
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the live openai provider at ${url} cannot be used: cannot reach it:`);
    expect(lines[0]).toMatch(/ECONNREFUSED/);
    expectUntouched(out);
  });

  it.each([
    ['openai', 'not a url'],
    ['openai', 'ftp://127.0.0.1/v1'],
    ['gemini', '127.0.0.1:8080'],
  ] as const)('%s with the invalid base URL "%s": exit 2 before any request', async (provider, url) => {
    const { code, lines, out } = await runLive(provider, url);
    expect(code).toBe(2);
    expect(lines).toEqual([`ctxbench: the live ${provider} provider at ${url} cannot be used: the base URL is not an absolute http(s) URL`]);
    expectUntouched(out);
  });

  it('a usable provider runs and writes the reports (the preflight is one models call)', async () => {
    const server = await loopback.serve((request) => (isModelsCall(request) ? modelsOk : openaiOk));
    const { code, out } = await runLive('openai', `${server.origin}/v1`);
    expect(code).toBe(0);
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'POST']);
    expect(JSON.parse(readFileSync(join(out, 'result.json'), 'utf8'))).toMatchObject({ mode: 'live' });
  });
});
