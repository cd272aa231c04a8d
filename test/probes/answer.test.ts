import { describe, expect, it } from 'vitest';
import { createArchive } from '../../src/replay/archive.js';
import type { Gateway } from '../../src/quota/gateway.js';
import type { RunEvent } from '../../src/metrics/run-events.js';
import { answerProbe, unansweredProbe } from '../../src/probes/answer.js';
import { PROBE_INSTRUCTION, type ProbeCallDeps } from '../../src/probes/ask.js';
import { prepareProbeSet } from '../../src/probes/probe-set.js';
import type { CompletionRequest, CompletionResult } from '../../src/contracts/provider.js';
import type { Scenario } from '../../src/scenario/types.js';
import { createClock } from '../../src/quota/clock.js';
import { DEFAULT_PACING } from '../../src/quota/pacing.js';
import { DEFAULT_RETRY_POLICY } from '../../src/quota/retry.js';
import { retrievalHint } from '../../src/strategies/helpers/hints.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { ContextMessage, MessageEvent, Probe, Transcript } from '../../src/transcript/types.js';

/** A gateway that answers from a script: the unit's provider is exercised by the engine tests. */
function scriptedGateway(replies: CompletionResult[], seen: { request: CompletionRequest; useQuota: boolean }[]): Gateway {
  return {
    async attempt(request, { useQuota }) {
      seen.push({ request, useQuota });
      const result = replies.shift() ?? { ok: false, failure: { kind: 'server', message: 'script ran out' } };
      return { result, inputTokens: 0 };
    },
  };
}

const ok = (text: string, input = 500, output = 20): CompletionResult => ({
  ok: true,
  text,
  toolCalls: [],
  usage: { input, output, cachedInput: 0, reasoning: 0 },
});
const failed = (kind: 'overflow' | 'rate-limit', retryAfterMs?: number): CompletionResult => ({
  ok: false,
  failure: { kind, message: kind, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) },
});

const scenario = (probesUseQuota: boolean): Scenario => ({
  name: 's',
  file: '<test>',
  transcript: { kind: 'synthetic', options: {} },
  provider: 'openai',
  model: 'gpt-4.1',
  window: 10_000,
  promptCache: 'expected',
  maxOutputTokens: 1000,
  quota: {},
  retry: DEFAULT_RETRY_POLICY,
  pacing: DEFAULT_PACING,
  seed: 1,
  onCrash: 'stop',
  probesUseQuota,
  judge: false,
  strategies: [],
});

const result: MessageEvent = { type: 'message', id: 'm3', role: 'tool', text: 'port: 41234  # ledger-api listener', toolCallId: 'c1' };
const transcript: Transcript = {
  header: { type: 'session', id: 't', dialect: 'openai' },
  events: [
    { type: 'message', id: 'm1', role: 'user', text: 'Check the ports.' },
    { type: 'message', id: 'm2', role: 'assistant', text: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'config/settings.yaml' } }] },
    result,
    { type: 'message', id: 'm4', role: 'assistant', text: 'Done.' },
  ],
  file: '<test>',
  skipped: [],
  unknown: {},
};
const probe: Probe = {
  id: 'port',
  kind: 'recall',
  question: 'Which port is the ledger-api listener set to in config/settings.yaml?',
  expected: { anyOf: ['41234'] },
  evidence: ['m3'],
  ask: ['end'],
};
const [measured] = prepareProbeSet(transcript, [probe]).probes;
if (measured === undefined) throw new Error('no probe');
const tombstoned: ContextMessage[] = transcript.events.flatMap((e) =>
  e.type !== 'message' ? [] : e.id === 'm3' ? [{ ...e, text: `[removed] ${retrievalHint('m3')}` }] : [e],
);
const archive = createArchive();
archive.add(result);

function setup(replies: CompletionResult[], probesUseQuota = false) {
  const seen: { request: CompletionRequest; useQuota: boolean }[] = [];
  const events: RunEvent[] = [];
  const clock = createClock();
  const deps: ProbeCallDeps = {
    gateway: scriptedGateway(replies, seen),
    scenario: scenario(probesUseQuota),
    clock,
    events,
    tokenizer: createTokenizer('o200k_base'),
    format: 'openai',
  };
  return { deps, seen, events, clock };
}

describe('answerProbe', () => {
  it('sends the question last, as a user message, after the instruction and the exact context', async () => {
    const { deps, seen, events } = setup([ok('port: 41234  # ledger-api listener')]);
    const answer = await answerProbe(deps, archive, measured, { askedAt: 'end', step: 4, context: tombstoned });
    const request = seen[0]?.request;
    expect(request?.instruction).toBe(PROBE_INSTRUCTION);
    expect(request?.purpose).toBe('probe');
    expect(request?.messages.slice(0, -1)).toEqual(tombstoned);
    expect(request?.messages.at(-1)).toMatchObject({ role: 'user', text: probe.question });
    expect(JSON.stringify(request)).not.toContain('41234');
    expect(seen[0]?.useQuota).toBe(false);
    expect(answer).toMatchObject({ correct: true, retrieved: false, correctWithRetrieval: true, inputTokens: 500, outputTokens: 20, askedAt: 'end', step: 4 });
    expect(events).toEqual([{ type: 'call', step: 4, atMs: 0, purpose: 'probe', inputTokens: 500, outputTokens: 20, ok: true }]);
  });

  it('follows the hint when the reader found nothing, and charges the second call', async () => {
    const { deps, seen } = setup([ok('Not found in the context.'), ok('port: 41234  # ledger-api listener', 800, 30)]);
    const answer = await answerProbe(deps, archive, measured, { askedAt: 'end', step: 4, context: tombstoned });
    expect(answer).toMatchObject({ correct: false, retrieved: true, correctWithRetrieval: true, retrievalTokens: 830, inputTokens: 500 });
    const second = seen[1]?.request.messages ?? [];
    expect(second.at(-2)?.text).toContain('port: 41234');
    expect(second.at(-1)?.text).toBe(probe.question);
  });

  it('keeps a right first answer right when the fetch overflows', async () => {
    const { deps } = setup([ok(`41234 ${retrievalHint('m3')}`), failed('overflow')]);
    const answer = await answerProbe(deps, archive, measured, { askedAt: 'end', step: 4, context: tombstoned });
    expect(answer).toMatchObject({ correct: true, retrieved: true, correctWithRetrieval: true, retrievalTokens: 0 });
    expect(answer.retrievalAnswer).toMatch(/probe call failed: overflow/);
  });

  it('records a failed probe call as an incorrect answer', async () => {
    const { deps } = setup([failed('overflow')]);
    const answer = await answerProbe(deps, archive, measured, { askedAt: 'step', step: 2, context: tombstoned });
    expect(answer).toMatchObject({ correct: false, retrieved: false, inputTokens: 0, reason: 'no answer: the probe call failed' });
    expect(answer.answer).toMatch(/^\(probe call failed: overflow/);
  });

  it('waits on the virtual clock for a rate limit only when probes use the quota', async () => {
    const own = setup([failed('rate-limit', 7000), ok('41234')], false);
    await answerProbe(own.deps, archive, measured, { askedAt: 'end', step: 4, context: tombstoned });
    expect(own.clock.now()).toBe(0);
    expect(own.events.filter((e) => e.type === 'wait')).toEqual([]);
    const shared = setup([failed('rate-limit', 7000), ok('41234')], true);
    await answerProbe(shared.deps, archive, measured, { askedAt: 'end', step: 4, context: tombstoned });
    expect(shared.clock.now()).toBe(7000);
    expect(shared.seen.every((s) => s.useQuota)).toBe(true);
    expect(shared.events.filter((e) => e.type === 'wait')).toHaveLength(1);
  });

  it('hands the first answer to the judge, and judges nothing when the probe call failed', async () => {
    const judged: [string, string, number][] = [];
    const judge = async (p: Probe, text: string, step: number) => {
      judged.push([p.id, text, step]);
      return { accuracy: 5, completeness: 5, continuity: 5, artifactTrail: 5, total: 20 };
    };
    const { deps } = setup([ok('Not found in the context.'), ok('port: 41234')]);
    const answer = await answerProbe(deps, archive, measured, { askedAt: 'end', step: 4, context: tombstoned }, judge);
    expect(answer).toMatchObject({ retrieved: true, judge: { total: 20 } });
    expect(judged).toEqual([['port', 'Not found in the context.', 4]]);
    const down = setup([failed('overflow')]);
    const unanswered = await answerProbe(down.deps, archive, measured, { askedAt: 'step', step: 2, context: tombstoned }, judge);
    expect(unanswered.judge).toEqual({ error: 'not judged: the probe call failed' });
    expect(judged).toHaveLength(1);
  });
});

describe('unansweredProbe', () => {
  it('is incorrect, costs nothing, and says why', () => {
    expect(unansweredProbe(measured, 'end', 7, 'the session crashed at step 7 (overflow)')).toMatchObject({
      answer: '(session ended before this point)',
      correct: false,
      correctWithRetrieval: false,
      reason: 'not asked: the session crashed at step 7 (overflow)',
      inputTokens: 0,
      step: 7,
    });
  });
});
