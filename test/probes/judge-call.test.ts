import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Gateway } from '../../src/quota/gateway.js';
import { runSuite } from '../../src/run/run-suite.js';
import type { RunEvent } from '../../src/metrics/run-events.js';
import type { ProbeAnswer, RunResult } from '../../src/metrics/types.js';
import { PROBE_INSTRUCTION, type ProbeCallDeps } from '../../src/probes/ask.js';
import { judgeAnswer } from '../../src/probes/judge-call.js';
import { JUDGE_RUBRIC_URL, loadJudgeRubric } from '../../src/probes/load.js';
import type { CompletionRequest, CompletionResult } from '../../src/contracts/provider.js';
import { renderCsv } from '../../src/report/csv.js';
import { resolveScenario } from '../../src/scenario/resolve.js';
import { scenarioFileSchema } from '../../src/scenario/schema.js';
import { createClock } from '../../src/quota/clock.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { Probe } from '../../src/transcript/types.js';
import { writeFiles } from '../helpers/temp.js';

/**
 * The optional LLM judge of live runs: one `judge` call per probe answer, off the agent's quota,
 * its scores recorded on the answer. Live providers only, so the API is a hand-written nock
 * interceptor here; no key but a dummy passed as the env option.
 */

const root = resolve(import.meta.dirname, '../..');
const OPENAI = 'https://api.openai.com';
const env = { OPENAI_API_KEY: 'test-key' };
const rubric = readFileSync(join(root, 'docs', 'judge-rubric.md'), 'utf8');
/** A line of the rubric's body: only a judge request carries it. */
const JUDGE_MARK = 'You are grading an AI coding agent';

const probe: Probe = {
  id: 'port',
  kind: 'recall',
  question: 'Which port is the ledger-api listener set to?',
  expected: { anyOf: ['41234'] },
  evidence: ['t1'],
  ask: ['end'],
};

const completion = (text: string, usage: [number, number] = [40, 8]) => ({
  id: 'chatcmpl-judge',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4.1',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
  usage: { prompt_tokens: usage[0], completion_tokens: usage[1], total_tokens: usage[0] + usage[1] },
});

afterEach(() => nock.cleanAll());

describe('judgeAnswer', () => {
  const ok = (text: string): CompletionResult => ({ ok: true, text, toolCalls: [], usage: { input: 300, output: 12, cachedInput: 0, reasoning: 0 } });

  function setup(replies: CompletionResult[]) {
    const seen: { request: CompletionRequest; useQuota: boolean }[] = [];
    const gateway: Gateway = {
      async attempt(request, { useQuota }) {
        seen.push({ request, useQuota });
        return { result: replies.shift() ?? { ok: false, failure: { kind: 'bad-request', message: 'script ran out' } }, inputTokens: 0 };
      },
    };
    // The scenario shares the agent's quota with its probes: the judge still must not use it.
    const data = scenarioFileSchema.parse({
      name: 'j',
      transcript: 't.ctx.jsonl',
      provider: 'openai',
      model: 'gpt-4.1',
      probesUseQuota: true,
      retry: { maxRetries: 1 },
    });
    const scenario = resolveScenario({ file: '/s.yaml', data }, { header: { type: 'session', id: 't', dialect: 'openai' }, events: [] }, {});
    const events: RunEvent[] = [];
    const deps: ProbeCallDeps = { gateway, scenario, clock: createClock(), events, tokenizer: createTokenizer('o200k_base'), format: 'openai' };
    return { deps, seen, events };
  }

  it('sends one judge call off the quota and reads the four scores and their total', async () => {
    const { deps, seen, events } = setup([ok('```json\n{"accuracy": 5, "completeness": 4, "continuity": 5, "artifact_trail": 3}\n```')]);
    const judgement = await judgeAnswer(deps, rubric, probe, 'The port is 41234.', 2);
    expect(judgement).toEqual({ accuracy: 5, completeness: 4, continuity: 5, artifactTrail: 3, total: 17 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.useQuota).toBe(false);
    expect(seen[0]?.request).toMatchObject({ purpose: 'judge', model: 'gpt-4.1', maxOutputTokens: 200 });
    expect(seen[0]?.request.instruction).toContain(JUDGE_MARK);
    expect(seen[0]?.request.messages.at(-1)?.text).toContain('The port is 41234.');
    expect(events).toEqual([{ type: 'call', step: 2, atMs: 0, purpose: 'judge', inputTokens: 300, outputTokens: 12, ok: true }]);
  });

  it('turns a reply that is not the JSON object, or a failed call, into an error', async () => {
    const prose = setup([ok('The answer looks right to me.')]);
    expect(await judgeAnswer(prose.deps, rubric, probe, '41234', 1)).toEqual({ error: 'judge reply holds no JSON object' });
    const outOfRange = setup([ok('{"accuracy": 9, "completeness": 4, "continuity": 5, "artifactTrail": 3}')]);
    expect(await judgeAnswer(outOfRange.deps, rubric, probe, '41234', 1)).toMatchObject({ error: expect.stringMatching(/^judge reply: accuracy/) });
    // A server error is retried under the scenario's policy (here once), then given up as data.
    const down = setup([
      { ok: false, failure: { kind: 'server', message: 'boom' } },
      { ok: false, failure: { kind: 'server', message: 'boom again' } },
    ]);
    expect(await judgeAnswer(down.deps, rubric, probe, '41234', 1)).toEqual({ error: 'judge call failed: server: boom again' });
    expect(down.events.map((e) => e.type === 'call' && e.purpose)).toEqual(['judge', 'judge']);
    expect(down.events.filter((e) => e.type === 'wait')).toEqual([]);
  });
});

describe('the judge rubric', () => {
  it('is docs/judge-rubric.md at the package root, two folders up from src/probes/ (and dist/probes/)', async () => {
    expect(fileURLToPath(JUDGE_RUBRIC_URL)).toBe(join(root, 'docs', 'judge-rubric.md'));
    expect(await loadJudgeRubric()).toBe(rubric);
    const files = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }).files;
    expect(files).toContain('docs');
  });
});

/** A two-step session with a fact in a tool result, and two probes asked at the end. */
function liveSuite(scenarioExtra: string[] = []): string {
  const transcript = [
    { type: 'session', id: 'judged', dialect: 'openai', model: 'gpt-4.1' },
    { type: 'message', id: 'u1', role: 'user', text: 'Find the port of the ledger-api listener.' },
    {
      type: 'message',
      id: 'a1',
      role: 'assistant',
      text: 'Reading the config.',
      toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'config/settings.yaml' } }],
    },
    { type: 'message', id: 't1', role: 'tool', toolCallId: 'c1', toolName: 'read_file', text: 'port: 41234  # ledger-api listener' },
    { type: 'message', id: 'a2', role: 'assistant', text: 'The listener is on port 41234.' },
    { type: 'probe', probe: { ...probe, ask: [{ step: 1 }, 'end'] } },
    {
      type: 'probe',
      probe: { id: 'owner', kind: 'recall', question: 'Which team owns the billing service?', expected: { anyOf: ['payments-core'] }, ask: ['end'] },
    },
  ];
  const yaml = [
    'name: judged',
    'transcript: t.ctx.jsonl',
    'provider: openai',
    'model: gpt-4.1',
    'window: 128000',
    'seed: 1',
    'strategies: [full]',
    ...scenarioExtra,
  ];
  return join(writeFiles({ 's.yaml': yaml.join('\n'), 't.ctx.jsonl': transcript.map((e) => JSON.stringify(e)).join('\n') }), 's.yaml');
}

/**
 * The OpenAI API as nock answers it, told apart by the request body: a judge call carries the
 * rubric, a probe call the probe instruction, anything else is a replayed step. The reader knows
 * the port and not the owner; the judge scores whatever `judgeReply` says for the answer it sees.
 */
function interceptOpenAI(judgeReply: (answer: string) => string): { bodies: string[] } {
  const bodies: string[] = [];
  // The live run's preflight (a models call) comes first.
  nock(OPENAI).get('/v1/models').reply(200, { object: 'list', data: [] });
  nock(OPENAI)
    .persist()
    .post('/v1/chat/completions')
    .reply(200, (_uri, body) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      bodies.push(text);
      if (text.includes(JUDGE_MARK)) return completion(judgeReply(text), [350, 20]);
      if (text.includes(JSON.stringify(PROBE_INSTRUCTION).slice(1, -1))) {
        return completion(text.includes('ledger-api listener set to') ? 'The port is 41234.' : 'Not found in the context.', [90, 6]);
      }
      return completion('Reading the config.');
    });
  return { bodies };
}

const answersOf = (result: RunResult): ProbeAnswer[] => result.units[0]?.probes?.answers ?? [];
const csvRows = (result: RunResult): string[] =>
  renderCsv(result)
    .find((f) => f.file === 'probes.csv')
    ?.contents.trimEnd()
    .split('\n') ?? [];

describe('a live run with the judge on (nock stands in for the OpenAI API)', () => {
  it('judges every probe answer, apart from the agent and the probe tokens, and reports the scores', async () => {
    const { bodies } = interceptOpenAI((text) =>
      text.includes('The port is 41234.')
        ? '{"accuracy": 5, "completeness": 5, "continuity": 4, "artifactTrail": 5}'
        : '{"accuracy": 0, "completeness": 1, "continuity": 0, "artifactTrail": 0}',
    );
    const result = await runSuite({ scenarios: [liveSuite()], mode: 'live', env, overrides: { judge: true } });
    const answers = answersOf(result);
    expect(answers.map((a) => [a.probeId, a.askedAt, a.correct, a.judge])).toEqual([
      ['port', 'step', true, { accuracy: 5, completeness: 5, continuity: 4, artifactTrail: 5, total: 19 }],
      ['port', 'end', true, { accuracy: 5, completeness: 5, continuity: 4, artifactTrail: 5, total: 19 }],
      ['owner', 'end', false, { accuracy: 0, completeness: 1, continuity: 0, artifactTrail: 0, total: 1 }],
    ]);
    const unit = result.units[0];
    expect(unit?.probes?.recall.judgeMean).toBeCloseTo(13, 10);
    // Judge tokens are neither the agent's overhead nor the probes' own tokens.
    expect(unit?.summary.overhead_tokens).toBe(0);
    expect(unit?.probes?.recall.probeTokens).toBe(3 * (90 + 6));
    const judgeCalls = unit?.events.filter((e) => e.type === 'call' && e.purpose === 'judge') ?? [];
    expect(judgeCalls).toHaveLength(3);
    expect(judgeCalls.every((e) => e.type === 'call' && e.ok && e.inputTokens === 350)).toBe(true);
    // The expected answer goes to the judge only, never to the reader.
    expect(bodies.filter((b) => !b.includes(JUDGE_MARK)).some((b) => b.includes('payments-core'))).toBe(false);
    expect(bodies.filter((b) => b.includes(JUDGE_MARK)).every((b) => /41234|payments-core/.test(b))).toBe(true);
    const rows = csvRows(result);
    expect(rows[0]?.endsWith(',retrieval_tokens,judge_total,outcome,valid,needed_later')).toBe(true);
    expect(rows.slice(1).map((row) => row.split(',').at(-4))).toEqual(['19', '19', '1']);
  });

  it('records a judge reply that is not JSON as an error, and the run goes on', async () => {
    interceptOpenAI(() => 'I would give this answer a solid four out of five.');
    const result = await runSuite({ scenarios: [liveSuite(['judge: true'])], mode: 'live', env });
    const answers = answersOf(result);
    expect(answers).toHaveLength(3);
    expect(answers.map((a) => a.judge)).toEqual(Array(3).fill({ error: 'judge reply holds no JSON object' }));
    expect(answers.map((a) => a.correct)).toEqual([true, true, false]);
    expect(result.units[0]?.probes?.recall.judgeMean).toBeNull();
    expect(
      csvRows(result)
        .slice(1)
        .map((row) => row.split(',').at(-4)),
    ).toEqual(['', '', '']);
  });

  it('makes no judge call and records nothing of it when the judge is off', async () => {
    const { bodies } = interceptOpenAI(() => '{}');
    const result = await runSuite({ scenarios: [liveSuite()], mode: 'live', env });
    expect(bodies.some((b) => b.includes(JUDGE_MARK))).toBe(false);
    expect(answersOf(result).some((a) => 'judge' in a)).toBe(false);
    expect(result.units[0]?.probes?.recall).not.toHaveProperty('judgeMean');
  });
});

describe('the judge in a mocked run', () => {
  it('is a usage error (exit 2) before any unit runs, asked by the overrides or by the scenario', async () => {
    const byFlag = runSuite({ scenarios: [liveSuite()], overrides: { judge: true } });
    await expect(byFlag).rejects.toMatchObject({ name: 'UsageError', exitCode: 2, message: expect.stringMatching(/^--judge needs a live provider/) });
    const byScenario = runSuite({ scenarios: [liveSuite(['judge: true'])], mode: 'mock' });
    await expect(byScenario).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/s\.yaml \(field judge\): the LLM judge needs a live provider/),
    });
  });
});
