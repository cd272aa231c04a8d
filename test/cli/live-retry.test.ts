import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import type { LocalReply, LocalServer, SeenRequest } from '../helpers/local-server.js';
import { geminiOk, isModelsCall, liveRunArgs, liveScenario, modelsOk, openaiOk, useLoopbackServers } from '../helpers/live-scenario.js';

// Live runs against a loopback server: retries wait for real, and what is reported is measured.
// Every time check here is a lower bound (a wait that really happened, the run at least as long as
// its waits): the behaviour under test, which a loaded machine can only lengthen, never a speed
// target (those are in npm run bench).
const loopback = useLoopbackServers();

/** The step calls the server answered with `replies` in turn (then `last`); models calls succeed. */
async function serve(replies: LocalReply[], last: LocalReply): Promise<LocalServer> {
  let call = 0;
  const server = await loopback.serve((request) => {
    if (isModelsCall(request)) return modelsOk;
    call += 1;
    return replies[call - 1] ?? last;
  });
  return server;
}

function summaryRow(out: string): Record<string, string> {
  const [header, row] = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n');
  const columns = (header ?? '').split(',');
  return Object.fromEntries((row ?? '').split(',').map((cell, i) => [columns[i], cell]));
}

const steps = (requests: SeenRequest[]) => requests.filter((r) => !isModelsCall(r));
const gap = (requests: SeenRequest[], i: number) => (requests[i + 1]?.at ?? 0) - (requests[i]?.at ?? 0);
const openaiRateLimit = (headers: Record<string, string>): LocalReply => ({
  status: 429,
  headers,
  body: { error: { message: 'Rate limit reached for gpt-4.1 on tokens per min (TPM)', type: 'tokens', code: 'rate_limit_exceeded' } },
});

// `elapsed` is only ever a lower bound in these tests (elapsed >= the waits the run reports): it
// proves live mode really sleeps, and a loaded machine can only make it longer, never fail it.
async function runLive(provider: 'openai' | 'gemini', baseUrl: string, out = tempDir()) {
  const started = performance.now();
  const outcome = await cli(liveRunArgs(provider, baseUrl, out));
  return { ...outcome, out, elapsed: performance.now() - started };
}

describe('live retries wait in real time', () => {
  it('openai: honours retry-after-ms and retry-after, and reports the waits that happened', async () => {
    const local = await serve([openaiRateLimit({ 'retry-after-ms': '400' }), openaiRateLimit({ 'retry-after': '1' })], openaiOk);
    const { code, stderr, out, elapsed } = await runLive('openai', `${local.origin}/v1`);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // The preflight, two refusals, then the two steps: nothing more.
    expect(local.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', ...Array(4).fill('POST /v1/chat/completions')]);
    const sent = steps(local.requests);
    expect(gap(sent, 0)).toBeGreaterThanOrEqual(400 - 5);
    expect(gap(sent, 1)).toBeGreaterThanOrEqual(1000 - 5);
    const row = summaryRow(out);
    expect(row.rate_limit_hits).toBe('2');
    const waited = Number(row.wait_ms);
    expect(waited).toBeGreaterThanOrEqual(1400 - 5);
    expect(elapsed).toBeGreaterThanOrEqual(waited);
  });

  it('gemini (httpOptions.baseUrl): honours RetryInfo retryDelay', async () => {
    const exhausted: LocalReply = {
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'You exceeded your current quota.',
          status: 'RESOURCE_EXHAUSTED',
          details: [
            { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateContentInputTokensPerModelPerMinute-FreeTier' }] },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.6s' },
          ],
        },
      },
    };
    const local = await serve([exhausted], geminiOk);
    const { code, stderr, out, elapsed } = await runLive('gemini', local.origin);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(local.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1beta/models/gemini-2.5-flash',
      ...Array(3).fill('POST /v1beta/models/gemini-2.5-flash:generateContent'),
    ]);
    expect(gap(steps(local.requests), 0)).toBeGreaterThanOrEqual(600 - 5);
    const row = summaryRow(out);
    expect(row.rate_limit_hits).toBe('1');
    expect(Number(row.wait_ms)).toBeGreaterThanOrEqual(600 - 5);
    expect(elapsed).toBeGreaterThanOrEqual(Number(row.wait_ms));
  });

  it("a 500 once the run is under way stays a measured crash, after the policy's real backoff", async () => {
    const failing: LocalReply = { status: 500, body: { error: { message: 'The server had an error', type: 'server_error' } } };
    const local = await serve([], failing);
    const out = tempDir();
    const scenario = liveScenario('openai', ['retry: { maxRetries: 2, baseDelayMs: 100, factor: 2 }']);
    const started = performance.now();
    const { code } = await cli(['run', scenario, '--provider', 'openai', '--base-url', `${local.origin}/v1`, '--out', out, '--quiet', '--no-cache']);
    const elapsed = performance.now() - started;
    expect(code).toBe(0);
    expect(steps(local.requests)).toHaveLength(3);
    const row = summaryRow(out);
    expect(row).toMatchObject({ crashed: 'true', crash_kind: 'server', crash_step: '0' });
    expect(Number(row.wait_ms)).toBeGreaterThanOrEqual(300 - 5);
    expect(elapsed).toBeGreaterThanOrEqual(Number(row.wait_ms));
  });
});

describe('a quota-exhausted answer stops the run without a retry', () => {
  const untouched = () => {
    const out = tempDir();
    writeFileSync(join(out, 'summary.csv'), 'previous run\n');
    return out;
  };

  it('openai insufficient_quota: exit 2, one step call, --out untouched', async () => {
    const quota: LocalReply = {
      status: 429,
      body: {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      },
    };
    const local = await serve([], quota);
    const { code, stderr, out } = await runLive('openai', `${local.origin}/v1`, untouched());
    expect(code).toBe(2);
    expect(steps(local.requests)).toHaveLength(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`the live openai provider at ${local.origin}/v1 cannot be used: quota exhausted`);
    expect(readFileSync(join(out, 'summary.csv'), 'utf8')).toBe('previous run\n');
  });

  it('a Gemini per-day limit: exit 2, one step call', async () => {
    const daily: LocalReply = {
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'You exceeded your current quota.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }] }],
        },
      },
    };
    const local = await serve([], daily);
    const { code, stderr } = await runLive('gemini', local.origin, untouched());
    expect(code).toBe(2);
    expect(steps(local.requests)).toHaveLength(1);
    expect(stderr).toContain(`the live gemini provider at ${local.origin} cannot be used: quota exhausted`);
  });
});
