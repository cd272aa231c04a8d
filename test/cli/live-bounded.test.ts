import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { transpiledPackage } from '../helpers/transpile.js';
import { runAndSignal } from '../helpers/signal-run.js';
import type { LocalReply, SeenRequest } from '../helpers/local-server.js';
import { geminiOk, isModelsCall, modelsOk, openaiOk, useLoopbackServers } from '../helpers/live-scenario.js';

// Live runs against a fake provider on 127.0.0.1 (real sockets; nock lets only loopback through):
// every failure ends bounded in time, classified, and with the exit status CI reads.
const loopback = useLoopbackServers();
const live = resolve(import.meta.dirname, '../../fixtures/bad/live');

type ProviderName = 'openai' | 'gemini';

interface Case {
  name: string;
  provider: ProviderName;
  /** The answer to the n-th completion call (from 0); models calls (the preflight) succeed. */
  reply: (n: number, request: SeenRequest) => LocalReply;
  extraArgs?: string[];
  code: number;
  /** What stderr says (exit 2), or undefined when the run goes on. */
  message?: RegExp;
  /** Whether the earlier --out must be byte-identical afterwards. */
  untouched: boolean;
  /** What else must hold, given the --out folder and the requests the server saw. */
  after?: (out: string, requests: SeenRequest[]) => void;
}

const html: LocalReply = { status: 200, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html><body>Sign in to the proxy</body></html>' };
const brokenJson: LocalReply = { status: 200, body: '{"choices": [{"message": {"role": "assistant", "content": "ok"' };
const hang: LocalReply = { status: 200, hang: true };
const okOf = (provider: ProviderName): LocalReply => (provider === 'openai' ? openaiOk : geminiOk);

/** An OpenAI completion whose text is the request's last user message: a provider that echoes the prompt. */
function echo(provider: ProviderName, request: SeenRequest): LocalReply {
  const text = request.body;
  if (provider === 'openai') {
    return {
      status: 200,
      body: { ...(openaiOk.body as object), choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] },
    };
  }
  return { status: 200, body: { ...(geminiOk.body as object), candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }] } };
}

const rateLimited = (retryAfter: string): LocalReply => ({
  status: 429,
  headers: { 'retry-after': retryAfter },
  body: { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } },
});

const summaryRow = (out: string): Record<string, string> => {
  const [header, row] = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n');
  const columns = (header ?? '').split(',');
  return Object.fromEntries((row ?? '').split(',').map((cell, i) => [columns[i], cell]));
};
const completions = (requests: SeenRequest[]) => requests.filter((r) => !isModelsCall(r));
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
const cacheDir = tempDir();

const CASES: Case[] = [
  ...(['openai', 'gemini'] as const).flatMap((provider): Case[] => [
    {
      name: `${provider}: a 200 with an HTML page first: exit 2 naming it, --out untouched`,
      provider,
      reply: () => html,
      code: 2,
      message: new RegExp(`the live ${provider} provider at .* cannot be used: malformed response: the body is not a completion`),
      untouched: true,
    },
    {
      name: `${provider}: a 200 with broken JSON first: exit 2, --out untouched`,
      provider,
      reply: () => brokenJson,
      code: 2,
      message: /cannot be used: malformed response: the body is not a completion \(.*JSON/,
      untouched: true,
    },
    {
      name: `${provider}: a first completion that never comes: exit 2 after --request-timeout, --out untouched`,
      provider,
      reply: () => hang,
      extraArgs: ['--request-timeout', '1.5'],
      code: 2,
      message: /cannot be used: no answer within 1\.5 s \(--request-timeout\)/,
      untouched: true,
      after: (_out, requests) => expect(completions(requests)).toHaveLength(1),
    },
    {
      name: `${provider}: broken JSON after a usable answer: the unit crashes with the reason, the run reports and exits 1`,
      provider,
      reply: (n) => (n === 0 ? okOf(provider) : brokenJson),
      code: 1,
      message: /1 unit crashed for a provider fault: full on live-bad-[a-z]+: server: .*malformed response/,
      untouched: false,
      after: (out, requests) => {
        expect(completions(requests)).toHaveLength(3); // the step that worked, then the broken one and its one retry
        expect(summaryRow(out)).toMatchObject({ crashed: 'true', crash_kind: 'server', crash_step: '1' });
        expect(readFileSync(join(out, 'events.csv'), 'utf8')).toMatch(/malformed response: the body is not a completion/);
      },
    },
    {
      name: `${provider}: a hang after a usable answer: each try ends at --request-timeout, the unit crashes, the run exits 1`,
      provider,
      reply: (n) => (n === 0 ? okOf(provider) : hang),
      extraArgs: ['--request-timeout', '1.5'],
      code: 1,
      message: /1 unit crashed for a provider fault: full on live-bad-[a-z]+: network: .*no answer within 1\.5 s/,
      untouched: false,
      after: (out) => {
        expect(summaryRow(out)).toMatchObject({ crashed: 'true', crash_kind: 'network', crash_step: '1' });
        expect(readFileSync(join(out, 'events.csv'), 'utf8')).toMatch(/no answer within 1\.5 s/);
      },
    },
    {
      name: `${provider}: a 429 with only a retry-after header waits what it says`,
      provider,
      reply: (n) => (n === 0 ? rateLimited('1') : okOf(provider)),
      code: 0,
      untouched: false,
      after: (out, requests) => {
        const [first, second] = completions(requests);
        expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1000 - 5);
        expect(Number(summaryRow(out).wait_ms)).toBeGreaterThanOrEqual(1000 - 5);
      },
    },
    {
      name: `${provider}: a provider that echoes the prompt leaves no secret in the response cache`,
      provider,
      reply: (_n, request) => echo(provider, request),
      extraArgs: ['--cache-dir', join(cacheDir, provider)],
      code: 0,
      untouched: false,
      after: () => {
        const files = filesUnder(join(cacheDir, provider));
        expect(files.length).toBeGreaterThanOrEqual(2);
        const stored = files.map((file) => readFileSync(file, 'utf8')).join('\n');
        expect(stored).toContain('[redacted:openai-key]');
        expect(stored).not.toMatch(/sk-proj-|ghp_|BEGIN RSA PRIVATE KEY/);
      },
    },
  ]),
];

describe('fixtures/bad/live: a live provider that misbehaves ends the run bounded, classified, and non-zero when nothing came back', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    let n = 0;
    const server = await loopback.serve((request) => {
      if (isModelsCall(request)) return modelsOk;
      n += 1;
      return c.reply(n - 1, request);
    });
    const out = tempDir();
    writeFileSync(join(out, 'result.json'), '{"earlier":true}\n');
    const baseUrl = c.provider === 'openai' ? `${server.origin}/v1` : server.origin;
    const args = ['run', join(live, `${c.provider}.yaml`), '--provider', c.provider, '--base-url', baseUrl, '--out', out, '--quiet', '--workers', '1'];
    const { code, stderr } = await cli([...args, ...(c.extraArgs?.some((a) => a === '--cache-dir') === true ? [] : ['--no-cache']), ...(c.extraArgs ?? [])]);
    expect(code, stderr).toBe(c.code);
    if (c.message !== undefined) {
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(c.message);
    }
    if (c.untouched) {
      expect(readdirSync(out)).toEqual(['result.json']);
      expect(readFileSync(join(out, 'result.json'), 'utf8')).toBe('{"earlier":true}\n');
    }
    c.after?.(out, server.requests);
  });
});

describe('sweep --request-timeout', () => {
  it('bounds a live sweep the same way: a first completion that never comes exits 2 after the limit', async () => {
    const server = await loopback.serve((request) => (isModelsCall(request) ? modelsOk : hang));
    const out = tempDir();
    const args = ['sweep', join(live, 'openai.yaml'), '--grid', 'rolling-window.groups=2', '--provider', 'openai', '--base-url', `${server.origin}/v1`];
    const { code, stderr } = await cli([...args, '--out', out, '--quiet', '--workers', '1', '--no-cache', '--request-timeout', '1.5']);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/cannot be used: no answer within 1\.5 s \(--request-timeout\)/);
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('fixtures/bad/live: SIGTERM and SIGINT end a live run whose request hangs, on one worker', () => {
  let main = '';
  beforeAll(async () => {
    main = join(await transpiledPackage(), 'dist', 'cli', 'main.js');
  }, 120_000);

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s: the request in flight is aborted, partial reports written, the lock released (exit %i)', async (signal, exitCode) => {
    const server = await loopback.serve((request) => (isModelsCall(request) ? modelsOk : hang));
    const out = tempDir();
    const args = [
      'run',
      join(live, 'openai.yaml'),
      '--provider',
      'openai',
      '--base-url',
      `${server.origin}/v1`,
      '--out',
      out,
      '--workers',
      '1',
      '--no-cache',
      '--reports',
      'json',
    ];
    // Signalled once the first completion is in flight (the server never answers it).
    const { code, stderr } = await runAndSignal(main, args, () => completions(server.requests).length > 0, signal, {
      ...process.env,
      OPENAI_API_KEY: 'sk-test-dummy-key-0123456789',
    });
    expect(code, stderr).toBe(exitCode);
    expect(stderr).toContain(`${signal}: stopping`);
    const partial = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { partial: { planned: number; completed: number; reason: string } };
    expect(partial.partial).toEqual({ planned: 1, completed: 0, reason: signal });
    expect(existsSync(join(out, '.lock'))).toBe(false);
    expect(existsSync(join(out, '.journal.jsonl'))).toBe(true);
  });
});
