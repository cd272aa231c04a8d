import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import type { LocalReply, LocalServer, SeenRequest } from '../helpers/local-server.js';
import { geminiOk, isModelsCall, liveRunArgs, liveScenario, modelsOk, openaiOk, useLoopbackServers } from '../helpers/live-scenario.js';

// Live runs against a loopback server, with the CLI's retry sleep recorded instead of slept
// (`main(argv, { retrySleep })`): each test checks the waits the retry policy asked for (the
// provider's hints, the policy's backoff) and that the run reports what the sleep returned. No
// clock is read; that the real sleep waits is test/providers/live-sleep.test.ts's.
const loopback = useLoopbackServers();

/** A sleep that records each wait asked for and returns it as waited, at once. */
function recordingSleep(): { asked: number[]; retrySleep: (ms: number) => Promise<number> } {
  const asked: number[] = [];
  return {
    asked,
    retrySleep: (ms) => {
      asked.push(ms);
      return Promise.resolve(ms);
    },
  };
}

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
const openaiRateLimit = (headers: Record<string, string>): LocalReply => ({
  status: 429,
  headers,
  body: { error: { message: 'Rate limit reached for gpt-4.1 on tokens per min (TPM)', type: 'tokens', code: 'rate_limit_exceeded' } },
});

async function runLive(provider: 'openai' | 'gemini', baseUrl: string, out = tempDir()) {
  const sleep = recordingSleep();
  const outcome = await cli(liveRunArgs(provider, baseUrl, out), { retrySleep: sleep.retrySleep });
  return { ...outcome, out, waits: sleep.asked };
}

describe('live retries wait in real time', () => {
  it('openai: honours retry-after-ms and retry-after, and reports the waits that happened', async () => {
    const local = await serve([openaiRateLimit({ 'retry-after-ms': '400' }), openaiRateLimit({ 'retry-after': '1' })], openaiOk);
    const { code, stderr, out, waits } = await runLive('openai', `${local.origin}/v1`);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // The preflight, two refusals, then the two steps: nothing more.
    expect(local.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', ...Array(4).fill('POST /v1/chat/completions')]);
    // retry-after-ms: 400, then retry-after: 1 (seconds), each waited before its retry.
    expect(waits).toEqual([400, 1000]);
    const row = summaryRow(out);
    expect(row.rate_limit_hits).toBe('2');
    expect(Number(row.wait_ms)).toBe(1400);
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
    const { code, stderr, out, waits } = await runLive('gemini', local.origin);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(local.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1beta/models/gemini-2.5-flash',
      ...Array(3).fill('POST /v1beta/models/gemini-2.5-flash:generateContent'),
    ]);
    // RetryInfo retryDelay: '0.6s'.
    expect(waits).toEqual([600]);
    const row = summaryRow(out);
    expect(row.rate_limit_hits).toBe('1');
    expect(Number(row.wait_ms)).toBe(600);
  });

  it("a 500 on every call crashes the unit after the policy's real backoff; every unit so crashed, the run exits 1", async () => {
    const failing: LocalReply = { status: 500, body: { error: { message: 'The server had an error', type: 'server_error' } } };
    const local = await serve([], failing);
    const out = tempDir();
    const scenario = liveScenario('openai', ['retry: { maxRetries: 2, baseDelayMs: 100, factor: 2 }']);
    const sleep = recordingSleep();
    const { code, stderr } = await cli(['run', scenario, '--provider', 'openai', '--base-url', `${local.origin}/v1`, '--out', out, '--quiet', '--no-cache'], {
      retrySleep: sleep.retrySleep,
    });
    // A dead provider never passes: the unit's crash is written to the reports, and CI sees it.
    expect(code).toBe(1);
    expect(stderr).toMatch(/every unit \(1\) crashed for a provider fault, so nothing was measured: full on live-local: server: The server had an error/);
    expect(steps(local.requests)).toHaveLength(3);
    // The policy's backoff: 100 ms, then 100 × 2, then no retry left.
    expect(sleep.asked).toEqual([100, 200]);
    const row = summaryRow(out);
    expect(row).toMatchObject({ crashed: 'true', crash_kind: 'server', crash_step: '0' });
    expect(Number(row.wait_ms)).toBe(300);
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
