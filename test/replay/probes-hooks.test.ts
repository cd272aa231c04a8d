import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareScenarios } from '../../src/run/run-suite.js';
import type { PreparedScenario } from '../../src/run/prepared-scenario.js';
import { runUnit } from '../../src/replay/run-unit.js';
import { createProbeObserver } from '../../src/replay/probe-observer.js';
import { prepareProbeSet } from '../../src/probes/probe-set.js';
import { createProvider } from '../../src/providers/index.js';
import { createSimulator } from '../../src/simulator/transport.js';
import type { Simulator } from '../../src/simulator/types.js';
import { applyToHistory, createHistory, type History } from '../../src/strategies/helpers/history.js';
import { retrievalHint } from '../../src/strategies/helpers/hints.js';
import type { Strategy } from '../../src/strategies/types.js';
import { createTokenizer, encodingForModel } from '../../src/tokens/tokenizer.js';
import type { MessageEvent, Probe, ProbeAsk } from '../../src/transcript/types.js';
import type { UnitResult } from '../../src/metrics/types.js';
import { writeFiles } from '../helpers/temp.js';

/**
 * The probe hooks of the engine, through runUnit with a strategy written for the test: asks at a
 * step, after a compaction and at the end; retrieval hints followed at a cost; the end `prepare`
 * charged as overhead; probe calls kept off the agent's quota unless the scenario says otherwise.
 */

const STEPS = 32;
const COMPACT_AT = 12;

interface CompactorState extends History {
  compacted: boolean;
}

/**
 * From step COMPACT_AT, replaces every tool result but the last two by a tombstone with a
 * retrieval hint (once announced as a compaction); at the end (step STEPS) it also asks the model
 * for a summary, so the end `prepare` has a cost.
 */
const hintingCompactor: Strategy<Record<string, never>, CompactorState> = {
  name: 'hinting-compactor',
  description: 'test strategy: tombstones old tool results with retrieval hints',
  options: z.strictObject({}),
  init: () => ({ ...createHistory(), compacted: false }),
  observe(event, state) {
    applyToHistory(state, event);
  },
  async prepare(state, env) {
    if (env.step < COMPACT_AT) return [...state.messages];
    const tools = state.messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
    const keep = new Set(tools.slice(-2));
    const context = state.messages.map((m, i) =>
      m.role === 'tool' && !keep.has(i) ? { ...m, text: `[output removed] ${retrievalHint(m.id)}`, synthetic: 'tombstone', replaces: [m.id] } : m,
    );
    if (!state.compacted) {
      state.compacted = true;
      env.emit({ action: 'compact', reason: 'test', tokensBefore: env.countMessages(state.messages), tokensAfter: env.countMessages(context) });
    }
    // The newest messages, never opening on a result whose call is cut off (the provider refuses that).
    const tail = context.slice(-4);
    while (tail[0]?.role === 'tool') tail.shift();
    if (env.step === STEPS) await env.model.complete({ instruction: 'Summarise.', messages: tail, maxOutputTokens: 64 });
    return context;
  },
};

function scenarioFile(extra: string): string {
  const yaml = [
    'name: hooks',
    `transcript: { generate: { steps: ${STEPS}, seed: 9, dialect: openai, toolOutputTokens: 400, facts: 10 } }`,
    'provider: openai',
    'window: 128000',
    'seed: 9',
    'strategies: [full]',
    extra,
  ].join('\n');
  return join(writeFiles({ 's.yaml': yaml }), 's.yaml');
}

// Installed while the file is collected: the first describe runs its units then.
const simulator: Simulator = createSimulator({ tokenizer: createTokenizer('o200k_base'), seed: 9 });
afterAll(() => simulator.uninstall());

async function run(prepared: PreparedScenario, probes: Probe[] | undefined, strategy?: Strategy): Promise<UnitResult> {
  const { scenario, transcript } = prepared;
  const tokenizer = createTokenizer(encodingForModel(scenario.model));
  const provider = createProvider({ name: scenario.provider, mode: 'mock', model: scenario.model, simulator });
  const spec = { label: strategy?.name ?? 'full', strategy: 'full', options: {} };
  return runUnit({
    scenario,
    transcript,
    spec,
    provider,
    tokenizer,
    ...(strategy !== undefined ? { strategyOverride: strategy } : {}),
    ...(probes !== undefined ? { observer: createProbeObserver(prepareProbeSet(transcript, probes)) } : {}),
  });
}

/** The session's planted probes, asked where the test wants them. */
function askedAt(prepared: PreparedScenario, ask: ProbeAsk[]): Probe[] {
  return prepared.transcript.events.flatMap((e) => (e.type === 'probe' ? [{ ...e.probe, ask }] : []));
}

describe('probe hooks with a compacting strategy that leaves retrieval hints', async () => {
  const [prepared] = await prepareScenarios([scenarioFile('')]);
  if (prepared === undefined) throw new Error('no scenario');
  const probes = askedAt(prepared, ['after-compaction', 'end', { step: 20 }]);
  const set = prepareProbeSet(prepared.transcript, probes);
  const unit = await run(prepared, probes, hintingCompactor);
  const answers = unit.probes?.answers ?? [];

  it('asks after-compaction probes on the first context sent after the compaction, once visible', () => {
    const after = answers.filter((a) => a.askedAt === 'after-compaction');
    const visible = set.probes.filter((p) => (p.visibleFrom ?? Infinity) <= COMPACT_AT).map((p) => p.probe.id);
    expect(after.map((a) => a.probeId)).toEqual(visible);
    for (const answer of after) expect(answer.step).toBe(COMPACT_AT);
    expect(unit.probes?.specificsAfterCompaction?.map((s) => s.step)).toEqual([COMPACT_AT]);
  });

  it('asks {step: n} on the exact context step n sent', () => {
    const sent = unit.steps[20]?.promptTokens ?? 0;
    const atStep = answers.filter((a) => a.askedAt === 'step');
    expect(atStep).toHaveLength(probes.length);
    for (const answer of atStep) {
      expect(answer.step).toBe(20);
      // The context, plus the probe's instruction and question.
      expect(answer.inputTokens - sent, answer.probeId).toBeGreaterThan(20);
      expect(answer.inputTokens - sent, answer.probeId).toBeLessThan(200);
    }
  });

  it('follows the retrieval hints of tombstoned tool output, and charges the fetch', () => {
    const recall = unit.probes?.recall;
    expect(recall?.withRetrieval).toBeGreaterThan(recall?.withoutRetrieval ?? 1);
    expect(recall?.retrievalTokens).toBeGreaterThan(0);
    const recovered = answers.filter((a) => a.retrieved && !a.correct && a.correctWithRetrieval);
    expect(recovered.length).toBeGreaterThan(0);
    for (const answer of recovered) {
      expect(answer.answer).toBe('Not found in the context.');
      expect(answer.retrievalTokens).toBeGreaterThan(answer.inputTokens);
      expect(answer.reason).toMatch(/after retrieving m\d{4}/);
    }
    expect(recall?.retrievalTokens).toBe(answers.reduce((n, a) => n + a.retrievalTokens, 0));
  });

  it('charges the end prepare (one more step) as the strategy overhead', () => {
    const summaries = unit.events.filter((e) => e.type === 'call' && e.purpose === 'summary');
    expect(summaries.map((e) => e.step)).toEqual([STEPS]);
    expect(unit.summary.overhead_tokens).toBeGreaterThan(0);
    expect(answers.filter((a) => a.askedAt === 'end').every((a) => a.step === STEPS)).toBe(true);
  });

  it('loses tool-output evidence in retention once tombstoned, keeps it before', () => {
    const toolOnly = set.probes.filter((p) => p.evidence.length > 0 && p.evidence.every((m: MessageEvent) => m.role === 'tool'));
    expect(toolOnly.length).toBeGreaterThan(0);
    const lost: string[] = [];
    for (const probe of toolOnly) {
      const points = unit.probes?.retention.find((c) => c.probeId === probe.probe.id)?.points ?? [];
      for (const [step, kept] of points) if (step < COMPACT_AT) expect(kept, `${probe.probe.id}@${step}`).toBe(1);
      if (points.at(-1)?.[1] === 0) lost.push(probe.probe.id);
    }
    expect(lost.length).toBeGreaterThan(0);
  });
});

describe('probe calls and the agent quota', async () => {
  const quota = 'quota: { tpm: 30000 }';
  const withProbes = (prepared: PreparedScenario) => askedAt(prepared, [{ step: 6 }, { step: 12 }, { step: 18 }, 'end']);

  it('leave the agent numbers unchanged by default', async () => {
    const [prepared] = await prepareScenarios([scenarioFile(quota)]);
    if (prepared === undefined) throw new Error('no scenario');
    const bare = await run(prepared, undefined);
    const measured = await run(prepared, withProbes(prepared));
    expect(bare.summary.rate_limit_hits).toBeGreaterThan(0);
    const agent = (u: UnitResult) => ({ ...u.summary, retention: null, answer_recall: null, probes: null, unanswered: null, invalid_asks: null });
    expect(agent(measured)).toEqual(agent(bare));
    expect(measured.probes?.answers.length).toBeGreaterThan(0);
  });

  it('count against the quota with probesUseQuota', async () => {
    const [prepared] = await prepareScenarios([scenarioFile(`${quota}\nprobesUseQuota: true`)]);
    if (prepared === undefined) throw new Error('no scenario');
    const bare = await run(prepared, undefined);
    const measured = await run(prepared, withProbes(prepared));
    expect(measured.summary.wait_ms).toBeGreaterThan(bare.summary.wait_ms);
  });
});
