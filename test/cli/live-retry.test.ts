import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import type { LocalReply, LocalServer, SeenRequest } from '../helpers/local-server.js';
import { geminiOk, isModelsCall, liveRunArgs, liveScenario, modelsOk, openaiOk, useLoopbackServers } from '../helpers/live-scenario.js';

// Live runs against a loopback server. The live sleep is replaced by one that records each wait the
// run asks for and returns at once, reporting that wait as the time that passed: what is checked is
// which waits the retry policy asked for (the provider's hints honoured) and what the run reports,
// never the wall clock. That the real sleep waits, and reports what it measured, is
// test/providers/live-sleep.test.ts's.
const sleeps = vi.hoisted(() => ({ asked: [] as number[] }));
vi.mock('../../src/providers/live-sleep.js', () => ({
  createLiveSleep: () => async (delayMs: number) => {
    sleeps.asked.push(delayMs);
    return Math.round(delayMs);
  },
}));
beforeEach(() => {
  sleeps.asked.length = 0;
});
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
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const openaiRateLimit = (headers: Record<string, string>): LocalReply => ({
  status: 429,
  headers,
  body: { error: { message: 'Rate limit reached for gpt-4.1 on tokens per min (TPM)', type: 'tokens', code: 'rate_limit_exceeded' } },
});

async function runLive(provider: 'openai' | 'gemini', baseUrl: string, out = tempDir()) {
  return { ...(await cli(liveRunArgs(provider, baseUrl, out))), out };
}

describe('live retries wait what the provider asks', () => {
  it('openai: honours retry-after-ms and retry-after, and reports the waits that happened', async () => {
    const local = await serve([openaiRateLimit({ 'retry-after-ms': '400' }), openaiRateLimit({ 'retry-after': '1' })], openaiOk);
    const { code, stderr, out } = await runLive('openai', `${local.origin}/v1`);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // The preflight, two refusals, then the two steps: nothing more.
    expect(local.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', ...Array(4).fill('POST /v1/chat/completions')]);
    expect(sleeps.asked).toHaveLength(2);
    expect(sleeps.asked[0]).toBeGreaterThanOrEqual(400);
    expect(sleeps.asked[1]).toBeGreaterThanOrEqual(1000);
    const row = summaryRow(out);
    expect(row.rate_limit_hits).toBe('2');
    const waited = Number(row.wait_ms);
    expect(waited).toBeGreaterThanOrEqual(1400);
    expect(waited).toBe(sum(sleeps.asked));
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
    const { code, stderr, out } = await runLive('gemini', local.origin);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(local.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1beta/models/gemini-2.5-flash',
      ...Array(3).fill('POST /v1beta/models/gemini-2.5-flash:generateContent'),
    ]);
    expect(sleeps.asked).toHaveLength(1);
    expect(sleeps.asked[0]).toBeGreaterThanOrEqual(600);
    const row = summaryRow(out);
    expect(row.rate_limit_hits).toBe('1');
    expect(Number(row.wait_ms)).toBeGreaterThanOrEqual(600);
    expect(Number(row.wait_ms)).toBe(sum(sleeps.asked));
  });

  it("a 500 once the run is under way stays a measured crash, after the policy's real backoff", async () => {
    const failing: LocalReply = { status: 500, body: { error: { message: 'The server had an error', type: 'server_error' } } };
    const local = await serve([], failing);
    const out = tempDir();
    const scenario = liveScenario('openai', ['retry: { maxRetries: 2, baseDelayMs: 100, factor: 2 }']);
    const { code } = await cli(['run', scenario, '--provider', 'openai', '--base-url', `${local.origin}/v1`, '--out', out, '--quiet', '--no-cache']);
    expect(code).toBe(0);
    expect(steps(local.requests)).toHaveLength(3);
    const row = summaryRow(out);
    expect(row).toMatchObject({ crashed: 'true', crash_kind: 'server', crash_step: '0' });
    // The policy's backoff: 100 ms, then 200 ms.
    expect(sleeps.asked).toEqual([100, 200]);
    expect(Number(row.wait_ms)).toBe(sum(sleeps.asked));
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
