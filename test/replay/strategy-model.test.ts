import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { z } from 'zod';
import { prepareScenarios } from '../../src/run/run-suite.js';
import { runUnit } from '../../src/replay/run-unit.js';
import { createProvider } from '../../src/providers/index.js';
import { createSimulator } from '../../src/simulator/transport.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import { costOf, priceForModel, stepUsd } from '../../src/pricing/prices.js';
import type { Strategy } from '../../src/strategies/types.js';
import type { RunEvent } from '../../src/metrics/run-events.js';
import { applyToHistory, createHistory, type History } from '../../src/strategies/helpers/history.js';
import { writeFiles } from '../helpers/temp.js';

/** Sends the whole history, and from step 2 on first asks the model to summarise all of it. */
const summarising: Strategy<Record<string, never>, History> = {
  name: 'summarising',
  description: 'test strategy',
  options: z.strictObject({}),
  init: () => createHistory(),
  observe: (event, state) => void applyToHistory(state, event),
  async prepare(state, env) {
    if (env.step >= 2) await env.model.complete({ instruction: 'Summarise the session so far.', messages: [...state.messages], maxOutputTokens: 200 });
    return [...state.messages];
  },
};

async function runSummarising(): Promise<{ events: RunEvent[]; steps: Awaited<ReturnType<typeof runUnit>>['steps'] }> {
  const yaml = [
    'name: billed',
    'transcript:',
    '  generate: { steps: 5, seed: 3, toolOutputTokens: 800 }',
    'provider: openai',
    'model: claude-sonnet-4',
    'window: 200000',
    'seed: 3',
  ].join('\n');
  const dir = writeFiles({ 's.yaml': yaml });
  const [prepared] = await prepareScenarios([join(dir, 's.yaml')]);
  if (prepared === undefined) throw new Error('no scenario');
  const tokenizer = createTokenizer('o200k_base');
  const simulator = createSimulator({ tokenizer, seed: 1 });
  try {
    const provider = createProvider({ name: 'openai', mode: 'mock', model: prepared.scenario.model, simulator });
    const result = await runUnit({
      ...prepared,
      spec: { label: 'summarising', strategy: 'full', options: {} },
      provider,
      tokenizer,
      strategyOverride: summarising,
    });
    return { events: result.events, steps: result.steps };
  } finally {
    simulator.uninstall();
  }
}

describe('strategy model calls are billed through the session prompt cache', () => {
  it('a summary re-sending a history an earlier summary sent reads it from cache, and the step pays net of it', async () => {
    const { events, steps } = await runSummarising();
    const calls = events.filter((e): e is Extract<RunEvent, { type: 'call' }> => e.type === 'call' && e.purpose === 'summary');
    expect(calls).toHaveLength(3);
    const [first, second] = calls as [Extract<RunEvent, { type: 'call' }>, Extract<RunEvent, { type: 'call' }>];
    // The instruction leads the call, so the first shares no prefix with the agent's requests: all written.
    expect(first.cachedTokens).toBe(0);
    expect(first.cacheWriteTokens).toBeGreaterThan(first.inputTokens * 0.9);
    // The second starts with the same instruction and history: all of that is a read.
    expect(second.cachedTokens).toBeGreaterThan(first.inputTokens * 0.9);
    expect(second.cachedTokens).toBeLessThanOrEqual(first.inputTokens);
    const price = priceForModel('claude-sonnet-4');
    if (price === undefined) throw new Error('no price');
    const step3 = steps[3];
    if (step3 === undefined) throw new Error('no step 3');
    const agent = costOf(
      {
        cached: step3.cachedPrefixTokens,
        write: step3.cacheWriteTokens ?? 0,
        uncached: step3.promptTokens - step3.cachedPrefixTokens - (step3.cacheWriteTokens ?? 0),
        output: step3.completionTokens,
      },
      price,
    );
    const cached = second.cachedTokens ?? 0;
    const write = second.cacheWriteTokens ?? 0;
    const summary = costOf({ cached, write, uncached: second.inputTokens - cached - write, output: second.outputTokens }, price);
    // A step's cost is kept to the micro-dollar (stepUsd).
    expect(step3.costUsd).toBe(stepUsd(agent + summary));
    // Billed as uncached input, the same summary would cost more.
    expect(summary).toBeLessThan(costOf({ cached: 0, write: 0, uncached: second.inputTokens, output: second.outputTokens }, price) * 0.5);
  });
});
