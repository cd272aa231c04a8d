import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { z } from 'zod';
import { runSuite } from '../../src/run/run-suite.js';
import { prepareScenarios } from '../../src/run/run-suite.js';
import { runUnit } from '../../src/replay/run-unit.js';
import { createProvider } from '../../src/providers/index.js';
import { createSimulator } from '../../src/simulator/transport.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { Strategy } from '../../src/strategies/types.js';
import type { UnitResult } from '../../src/metrics/types.js';
import { applyToHistory, createHistory, type History } from '../../src/strategies/helpers/history.js';
import { writeFiles } from '../helpers/temp.js';

function scenarioYaml(fields: Record<string, string>): string {
  const base: Record<string, string> = {
    name: 'unit',
    transcript: '\n  generate: { steps: 24, seed: 5, dialect: gemini, toolOutputTokens: 800 }',
    provider: 'gemini',
    window: '200000',
    seed: '5',
    strategies: '[full, rolling-window]',
    ...fields,
  };
  return Object.entries(base)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

async function run(fields: Record<string, string>): Promise<UnitResult[]> {
  const dir = writeFiles({ 's.yaml': scenarioYaml(fields) });
  const result = await runSuite({ scenarios: [join(dir, 's.yaml')] });
  return result.units;
}

const unit = (units: UnitResult[], label: string): UnitResult => {
  const found = units.find((u) => u.strategy === label);
  if (found === undefined) throw new Error(`no unit ${label}`);
  return found;
};

describe('runUnit: crash semantics', () => {
  it('ends the session at the first overflow; rolling-window survives the same window', async () => {
    const units = await run({ window: '14000', strategies: '[full, {strategy: rolling-window, options: {groups: 1}}]' });
    const full = unit(units, 'full').summary;
    expect(full).toMatchObject({ crashed: true, crash_kind: 'overflow' });
    expect(full.steps_completed).toBe(full.crash_step);
    expect(unit(units, 'full').steps).toHaveLength((full.crash_step ?? 0) + 1);
    expect(unit(units, 'rolling-window').summary).toMatchObject({ crashed: false, steps_completed: 24 });
  });

  it('keeps measuring after a crash with onCrash: continue', async () => {
    const units = await run({ window: '12000', onCrash: 'continue', strategies: '[full]' });
    const full = unit(units, 'full');
    expect(full.steps).toHaveLength(24);
    expect(full.steps.filter((s) => s.status === 'crashed').length).toBeGreaterThan(1);
    expect(full.summary.crash_step).toBe(full.steps.find((s) => s.status === 'crashed')?.step);
  });

  it('waits on the virtual clock when the TPM quota refuses a call, and recovers', async () => {
    const units = await run({ quota: '{ tpm: 40000 }', strategies: '[full]' });
    const full = unit(units, 'full').summary;
    expect(full.crashed).toBe(false);
    expect(full.rate_limit_hits).toBeGreaterThan(0);
    expect(full.wait_ms).toBeGreaterThan(0);
  });

  it('crashes with rate-limit when a request can never fit the TPM quota', async () => {
    const units = await run({ quota: '{ tpm: 3000 }', retry: '{ maxRetries: 2 }', strategies: '[full]' });
    const full = unit(units, 'full');
    expect(full.summary).toMatchObject({ crashed: true, crash_kind: 'rate-limit' });
    expect(full.steps.at(-1)?.retries).toBe(2);
  });

  it('stops with a quota crash when the requests per day are spent', async () => {
    const units = await run({ quota: '{ rpd: 5 }', strategies: '[full]' });
    expect(unit(units, 'full').summary).toMatchObject({ crashed: true, crash_kind: 'quota', crash_step: 5 });
  });

  it('gives the same numbers in the OpenAI format', async () => {
    const units = await run({ provider: 'openai', window: '12000', strategies: '[full]' });
    expect(unit(units, 'full').summary).toMatchObject({ crashed: true, crash_kind: 'overflow' });
  });
});

/** A reactive test strategy: sends everything until an overflow, then only the newest messages. */
interface HalvingState extends History {
  keep: number | undefined;
}
const halving: Strategy<Record<string, never>, HalvingState> = {
  name: 'halving',
  description: 'test strategy',
  options: z.strictObject({}),
  init: () => ({ ...createHistory(), keep: undefined }),
  observe: (event, state) => void applyToHistory(state, event),
  prepare(state, env) {
    if (state.keep === undefined) return [...state.messages];
    let start = Math.max(0, state.messages.length - state.keep);
    while (start > 0 && state.messages[start]?.role === 'tool') start -= 1;
    // A request may not open on a call (the provider refuses it): the newest user message leads.
    const user = state.messages.findLast((m, i) => i < start && m.role === 'user');
    const context = [...(user !== undefined && state.messages[start]?.role === 'assistant' ? [user] : []), ...state.messages.slice(start)];
    env.emit({ action: 'compact', reason: 'kept the newest', tokensBefore: env.countMessages(state.messages), tokensAfter: env.countMessages(context) });
    return context;
  },
  recover(failure, state) {
    if (failure.kind !== 'overflow') return 'give-up';
    state.keep = 4;
    return 'retry';
  },
};

describe('runUnit: recover', () => {
  it('hands an overflow to the strategy, which shrinks the context and the step is retried', async () => {
    const dir = writeFiles({ 's.yaml': scenarioYaml({ window: '12000', strategies: '[full]' }) });
    const [prepared] = await prepareScenarios([join(dir, 's.yaml')]);
    if (prepared === undefined) throw new Error('no scenario');
    const tokenizer = createTokenizer('o200k_base');
    const simulator = createSimulator({ tokenizer, seed: 1 });
    try {
      const provider = createProvider({ name: 'gemini', mode: 'mock', model: prepared.scenario.model, simulator });
      const result = await runUnit({ ...prepared, spec: { label: 'halving', strategy: 'full', options: {} }, provider, tokenizer, strategyOverride: halving });
      expect(result.summary.crashed).toBe(false);
      expect(result.events.some((e) => e.type === 'failure' && e.failure.kind === 'overflow')).toBe(true);
      expect(result.summary.compactions).toBeGreaterThan(0);
    } finally {
      simulator.uninstall();
    }
  });
});

describe('runSuite: determinism', () => {
  it('gives identical units for the same seed', async () => {
    const a = await run({ quota: '{ tpm: 40000 }' });
    const b = await run({ quota: '{ tpm: 40000 }' });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});

describe('runUnit: injected faults', () => {
  it('retries seeded server errors and timeouts on the virtual clock; the same seed gives the same faults', async () => {
    const faults = '{ server500: 0.15, unavailable503: 0.1, timeout: 0.1, malformed: 0.05 }';
    const a = await run({ faults, strategies: '[full]', retry: '{ maxRetries: 8 }' });
    const b = await run({ faults, strategies: '[full]', retry: '{ maxRetries: 8 }' });
    const full = unit(a, 'full');
    const kinds = new Set(full.events.flatMap((e) => (e.type === 'failure' ? [e.failure.kind] : [])));
    expect(kinds).toEqual(new Set(['server', 'network']));
    expect(full.summary.crashed).toBe(false);
    expect(full.summary.wait_ms).toBeGreaterThan(0);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});

describe('runUnit: the hidden prefix (scenario hiddenPrefix)', () => {
  it('charges a given prefix on every request: prompt, context, peak, and the window check', async () => {
    const base = unit(await run({ strategies: '[full]' }), 'full');
    const given = unit(await run({ strategies: '[full]', hiddenPrefix: '5000' }), 'full');
    // The synthetic generator records usage without any prefix: `auto` (the default) finds none.
    expect(base.hiddenPrefix).toMatchObject({ tokens: 0, source: 'auto' });
    expect(base.steps.every((s) => s.hiddenTokens === 0)).toBe(true);
    expect(given.hiddenPrefix).toEqual({ tokens: 5_000, source: 'given' });
    expect(given.steps.map((s) => s.promptTokens - 5_000)).toEqual(base.steps.map((s) => s.promptTokens));
    expect(given.steps.map((s) => s.contextTokens - 5_000)).toEqual(base.steps.map((s) => s.contextTokens));
    expect(given.steps.every((s) => s.hiddenTokens === 5_000 && s.reasoningTokens === 0)).toBe(true);
    expect(given.summary.peak_context_tokens).toBe((base.summary.peak_context_tokens ?? 0) + 5_000);
    // A window the messages alone fit overflows once the prefix is charged.
    const peak = base.summary.peak_context_tokens ?? 0;
    const tight = unit(await run({ strategies: '[full]', window: String(peak + 100), hiddenPrefix: '5000' }), 'full');
    expect(tight.summary).toMatchObject({ crashed: true, crash_kind: 'overflow' });
  });
});
