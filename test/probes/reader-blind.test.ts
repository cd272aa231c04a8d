import nock from 'nock';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/quota/gateway.js';
import type { RunEvent } from '../../src/metrics/run-events.js';
import { askQuestion, type ProbeCallDeps } from '../../src/probes/ask.js';
import { gradeAnswer, isAbsenceAnswer, normaliseAnswer } from '../../src/probes/grade.js';
import { CALL_HEADER } from '../../src/simulator/call-tag.js';
import { createProvider } from '../../src/providers/index.js';
import { simulateCall } from '../../src/simulator/model.js';
import type { Simulator } from '../../src/simulator/types.js';
import type { SimDirective } from '../../src/contracts/provider.js';
import type { RenderShape } from '../../src/wire/render-shape.js';
import type { Scenario } from '../../src/scenario/types.js';
import { createClock } from '../../src/quota/clock.js';
import { DEFAULT_PACING } from '../../src/quota/pacing.js';
import { QuotaGate } from '../../src/quota/quota.js';
import { DEFAULT_RETRY_POLICY } from '../../src/quota/retry.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import { generateSession } from '../../src/transcript/synthetic/generate.js';
import type { MessageEvent, Probe } from '../../src/transcript/types.js';

/**
 * The simulated reader answers from the context it is sent, and only from it: asked through the
 * real provider path (OpenAI SDK → nock → simulated model), with every message that holds a
 * probe's answer removed, it cannot give the answer, and nothing of the answer travels in the
 * request body it receives.
 */

const ORIGIN = 'https://reader-blind.test';
const tokenizer = createTokenizer('o200k_base');

/** A simulator whose interceptor also keeps every request body it answers. */
function recordingSimulator(): { simulator: Simulator; bodies: string[]; directives: SimDirective[] } {
  const pending = new Map<string, { directive: SimDirective; key: string; shape?: RenderShape }>();
  const bodies: string[] = [];
  const directives: SimDirective[] = [];
  let registered = 0;
  const scope = nock(ORIGIN)
    .persist()
    .post('/v1/chat/completions')
    .reply(function (_uri, body) {
      bodies.push(JSON.stringify(body));
      const call = pending.get(String(this.req.headers[CALL_HEADER]));
      if (call === undefined) return [500, { error: { message: 'no directive' } }];
      const reply = simulateCall({
        format: 'openai',
        body,
        model: 'gpt-4.1',
        directive: call.directive,
        tokenizer,
        seed: 1,
        key: call.key,
        ...(call.shape !== undefined ? { shape: call.shape } : {}),
      });
      return reply.kind === 'http' ? [reply.status, reply.body, reply.headers] : [500, {}];
    });
  const simulator: Simulator = {
    openaiBaseUrl: `${ORIGIN}/v1`,
    geminiBaseUrl: ORIGIN,
    register(directive, call = {}) {
      registered += 1;
      const id = `blind-${registered}`;
      directives.push(directive);
      pending.set(id, { directive, key: call.key ?? id, ...(call.shape !== undefined ? { shape: call.shape } : {}) });
      return id;
    },
    uninstall: () => scope.persist(false),
  };
  return { simulator, bodies, directives };
}

const recording = recordingSimulator();
afterAll(() => nock.cleanAll());

const scenario: Scenario = {
  name: 'blind',
  file: '<test>',
  transcript: { kind: 'synthetic', options: {} },
  provider: 'openai',
  model: 'gpt-4.1',
  window: 128_000,
  promptCache: 'expected',
  maxOutputTokens: 4096,
  quota: {},
  retry: DEFAULT_RETRY_POLICY,
  pacing: DEFAULT_PACING,
  seed: 1,
  onCrash: 'stop',
  probesUseQuota: false,
  judge: false,
  strategies: [],
};

function deps(events: RunEvent[]): ProbeCallDeps {
  const clock = createClock();
  const provider = createProvider({ name: 'openai', mode: 'mock', model: 'gpt-4.1', simulator: recording.simulator });
  const gateway = createGateway({ provider, quota: new QuotaGate({}, 'openai', clock), tokenizer, window: scenario.window, requireThoughtSignatures: false });
  return { gateway, scenario, clock, events, tokenizer, format: 'openai' };
}

const session = generateSession({ steps: 40, seed: 31, dialect: 'openai', toolOutputTokens: 300, facts: 10, hard: true });
const messages = session.events.filter((e): e is MessageEvent => e.type === 'message');
const probes = session.events.flatMap((e) => (e.type === 'probe' && e.probe.expected.anyOf !== undefined ? [e.probe] : []));
const answerOf = (probe: Probe): string => probe.expected.anyOf?.[0] ?? '';
const holds = (m: MessageEvent, answer: string): boolean =>
  JSON.stringify([m.text, m.toolCalls ?? []])
    .toLowerCase()
    .includes(answer.toLowerCase());

/**
 * The messages without those `drop` selects, each with its whole tool round (the call and all its
 * results): a request with a call or result left alone is one the provider refuses.
 */
function withoutRounds(all: readonly MessageEvent[], drop: (m: MessageEvent) => boolean): MessageEvent[] {
  const calls = new Set<string>();
  for (const m of all.filter(drop)) {
    for (const call of m.toolCalls ?? []) calls.add(call.id);
    if (m.role === 'tool' && m.toolCallId !== undefined) calls.add(m.toolCallId);
  }
  for (const m of all) if ((m.toolCalls ?? []).some((call) => calls.has(call.id))) for (const call of m.toolCalls ?? []) calls.add(call.id);
  const inRound = (m: MessageEvent): boolean =>
    (m.toolCalls ?? []).some((call) => calls.has(call.id)) || (m.role === 'tool' && m.toolCallId !== undefined && calls.has(m.toolCallId));
  return all.filter((m) => !drop(m) && !inRound(m));
}

describe('the simulated reader never sees the ground truth', () => {
  it('has probes with answers to hide', () => {
    expect(probes.length).toBeGreaterThanOrEqual(8);
  });

  it.each(probes.map((p) => [p.id, p] as const))('%s: without its evidence, the answer is wrong or "not found"', async (_, probe) => {
    const answer = answerOf(probe);
    const context = withoutRounds(messages, (m) => holds(m, answer));
    expect(context.length).toBeLessThan(messages.length);
    const bodies = recording.bodies.length;
    const directives = recording.directives.length;
    const reply = await askQuestion(deps([]), probe, context, 40);
    expect(reply.ok).toBe(true);
    expect(gradeAnswer(probe.expected, reply.answer).correct, reply.answer).toBe(false);
    // What the simulated model received: the body nock intercepted, and the directive beside it.
    const sent = recording.bodies.slice(bodies);
    expect(sent).toHaveLength(1);
    expect(normaliseAnswer(sent[0] ?? '')).not.toContain(normaliseAnswer(answer));
    expect(JSON.stringify(recording.directives.slice(directives)).toLowerCase()).not.toContain(answer.toLowerCase());
    expect(sent[0]).toContain(JSON.stringify(probe.question).slice(1, -1));
  });

  it('answers the same probes correctly when the evidence is sent', async () => {
    const events: RunEvent[] = [];
    let correct = 0;
    for (const probe of probes) {
      const reply = await askQuestion(deps(events), probe, messages, 40);
      if (gradeAnswer(probe.expected, reply.answer).correct) correct += 1;
    }
    expect(correct).toBe(probes.length);
    expect(events.filter((e) => e.type === 'call' && e.purpose === 'probe')).toHaveLength(probes.length);
  });

  it('says "not found" rather than guessing when nothing matches the question', async () => {
    const reply = await askQuestion(deps([]), { id: 'absent', question: 'Which Kubernetes namespace did the agent deploy to?' }, messages, 40);
    expect(isAbsenceAnswer(reply.answer)).toBe(true);
  });
});
