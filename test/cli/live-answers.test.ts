import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import type { LocalReply, SeenRequest } from '../helpers/local-server.js';
import { isModelsCall, modelsOk, openaiOk, useLoopbackServers } from '../helpers/live-scenario.js';

// What ctxbench checks in a live provider's answer before it trusts its numbers, and how a run
// that a provider fault ended everywhere exits (docs/live-runs.md), against a fake provider on
// 127.0.0.1 with the retry sleep recorded, not slept.
const loopback = useLoopbackServers();
const live = resolve(import.meta.dirname, '../../fixtures/bad/live');

type ProviderName = 'openai' | 'gemini';

const openaiWith = (usage: unknown, choice: Record<string, unknown> = {}): LocalReply => ({
  status: 200,
  body: {
    ...(openaiOk.body as object),
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop', ...choice }],
    ...(usage !== undefined ? { usage } : { usage: undefined }),
  },
});
const geminiWith = (usageMetadata: unknown, candidate: Record<string, unknown> = {}): LocalReply => ({
  status: 200,
  body: { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', ...candidate }], usageMetadata },
});
const serverError: LocalReply = { status: 500, body: { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } } };
const rateLimited = (retryAfter: string): LocalReply => ({
  status: 429,
  headers: { 'retry-after': retryAfter },
  body: { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } },
});

function summaryRow(out: string): Record<string, string> {
  const [header, row] = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n');
  const columns = (header ?? '').split(',');
  return Object.fromEntries((row ?? '').split(',').map((cell, i) => [columns[i], cell]));
}
const completions = (requests: SeenRequest[]) => requests.filter((r) => !isModelsCall(r));

/** A live run of fixtures/bad/live/<provider>.yaml whose n-th completion (from 0) the server answers with `reply(n)`. */
async function runAgainst(provider: ProviderName, reply: (n: number) => LocalReply, extra: string[] = ['--quiet']) {
  let n = 0;
  const server = await loopback.serve((request) => (isModelsCall(request) ? modelsOk : reply(n++)));
  const out = tempDir();
  const waits: number[] = [];
  const retrySleep = (ms: number): Promise<number> => {
    waits.push(ms);
    return Promise.resolve(ms);
  };
  const baseUrl = provider === 'openai' ? `${server.origin}/v1` : server.origin;
  const args = ['run', join(live, `${provider}.yaml`), '--provider', provider, '--base-url', baseUrl, '--out', out, '--no-cache', '--workers', '1'];
  const outcome = await cli([...args, ...extra], { retrySleep });
  return { ...outcome, out, waits, requests: server.requests };
}

describe('fixtures/bad/live: a usage that is no count of tokens is malformed, never a number in the report', () => {
  it.each([
    ['openai', 'no usage', openaiWith(undefined), /no usage\.prompt_tokens/],
    ['openai', 'a "NaN" count', openaiWith({ prompt_tokens: 'NaN', completion_tokens: 5 }), /usage\.prompt_tokens is "NaN", not a count of tokens/],
    ['gemini', 'a 9e15 count', geminiWith({ promptTokenCount: 9e15, candidatesTokenCount: 5 }), /promptTokenCount is 9000000000000000, not a count/],
  ] as const)('%s, %s in the first answer: exit 2, one line, no report', async (provider, _name, reply, message) => {
    const { code, stderr, out } = await runAgainst(provider, () => reply);
    expect(code, stderr).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`the live ${provider} provider at .* cannot be used: malformed response: .*${message.source}`));
    expect(stderr).not.toMatch(/internal error/);
    expect(() => readFileSync(join(out, 'summary.csv'))).toThrow();
  });

  it('openai: a negative count after a usable answer crashes the unit (server, malformed), the run exits 1', async () => {
    const { code, stderr, out } = await runAgainst('openai', (n) => (n === 0 ? openaiOk : openaiWith({ prompt_tokens: -2_000_000, completion_tokens: 5 })));
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/1 unit crashed for a provider fault: full on live-bad-openai: server: malformed response: usage\.prompt_tokens is -2000000/);
    expect(summaryRow(out)).toMatchObject({ crashed: 'true', crash_kind: 'server', crash_step: '1', prompt_tokens: '10' });
  });
});

describe('fixtures/bad/live: an empty answer the filter or the output limit ended is its own crash kind', () => {
  it.each([
    [
      'openai',
      'content_filter',
      openaiWith({ prompt_tokens: 10, completion_tokens: 0 }, { finish_reason: 'content_filter', message: { role: 'assistant', content: null } }),
    ],
    ['openai', 'length', openaiWith({ prompt_tokens: 10, completion_tokens: 64 }, { finish_reason: 'length', message: { role: 'assistant', content: '' } })],
    ['gemini', 'SAFETY', geminiWith({ promptTokenCount: 10 }, { finishReason: 'SAFETY', content: undefined })],
    [
      'gemini',
      'MAX_TOKENS',
      geminiWith({ promptTokenCount: 10, thoughtsTokenCount: 64 }, { finishReason: 'MAX_TOKENS', content: { role: 'model', parts: [] } }),
    ],
  ] as const)('%s %s: crash_kind empty-answer, not retried, the run exits 1 (no unit measured anything)', async (provider, reason, reply) => {
    const { code, stderr, out, requests, waits } = await runAgainst(provider, () => reply);
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `every unit \\(1\\) crashed for a provider fault, so nothing was measured: full on live-bad-${provider}: empty-answer: .* returned no content \\(finish reason ${reason}\\)`,
      ),
    );
    expect(summaryRow(out)).toMatchObject({ crashed: 'true', crash_kind: 'empty-answer', crash_step: '0' });
    expect(completions(requests)).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('fixtures/bad/live: a dead provider never passes', () => {
  it.each(['openai', 'gemini'] as const)('%s: HTTP 500 on every call: every unit crashes (server), the run exits 1 saying so', async (provider) => {
    const { code, stderr, out, waits } = await runAgainst(provider, () => serverError);
    expect(code, stderr).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/every unit \(1\) crashed for a provider fault, so nothing was measured: full on live-bad-[a-z]+: server: Internal error/);
    expect(summaryRow(out)).toMatchObject({ crashed: 'true', crash_kind: 'server' });
    expect(waits).toEqual([50]); // the scenario's one retry, after its backoff
  });

  it('a 429 asking for 999999 s ends the unit at once with the reason, never waited; the run exits 1', async () => {
    const { code, stderr, out, waits, requests } = await runAgainst('gemini', () => rateLimited('999999'));
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(
      /every unit \(1\) crashed for a provider fault.*rate-limit: .*the retry would wait 999999 s, longer than --max-retry-wait \(300 s\): not waited/,
    );
    expect(waits).toEqual([]);
    expect(completions(requests)).toHaveLength(1);
    expect(summaryRow(out)).toMatchObject({ crash_kind: 'rate-limit', crash_step: '0' });
  });

  it('--max-retry-wait sets the limit: a 429 asking for 2 s is waited under the default, ends the unit under --max-retry-wait 1', async () => {
    const waited = await runAgainst('openai', (n) => (n === 0 ? rateLimited('2') : openaiOk), []);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.waits).toEqual([2000]);
    // A live run says what it waits for, as the wait starts.
    expect(waited.stderr).toContain('ctxbench: live-bad-openai · full: the provider refused (rate-limit); retrying in 2 s');
    const refused = await runAgainst('openai', (n) => (n === 0 ? rateLimited('2') : openaiOk), ['--quiet', '--max-retry-wait', '1']);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.waits).toEqual([]);
    expect(refused.stderr).toMatch(/longer than --max-retry-wait \(1 s\)/);
  });

  it('a unit that finished keeps the run green: the crash of the other is a measured outcome', async () => {
    // full gets the first two answers and finishes; rolling-window meets only 500s.
    const { code, stderr, out } = await runAgainst('openai', (n) => (n < 2 ? openaiOk : serverError), ['--quiet', '--strategies', 'full,rolling-window']);
    expect(code, stderr).toBe(0);
    const rows = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n').slice(1);
    expect(rows.map((row) => row.split(',').slice(0, 6).join(','))).toEqual([
      'live-bad-openai,full,2,2,false,',
      'live-bad-openai,rolling-window,2,0,true,server',
    ]);
  });
});

describe('fixtures/bad/live: a redirect to another host is refused, the prompt never sent there', () => {
  it.each(['openai', 'gemini'] as const)('%s: a 307 to another host exits 2 naming it; that host sees nothing', async (provider) => {
    const elsewhere = await loopback.serve(() => (provider === 'openai' ? openaiOk : geminiWith({ promptTokenCount: 10 })));
    const { code, stderr, out } = await runAgainst(provider, () => ({ status: 307, headers: { location: `${elsewhere.origin}/v1/steal` } }));
    expect(code, stderr).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`cannot be used: the provider redirected \\(HTTP 307\\) from .* to another host, ${elsewhere.origin}: refused`));
    expect(elsewhere.requests).toEqual([]);
    expect(() => readFileSync(join(out, 'summary.csv'))).toThrow();
  });
});
