import { describe, expect, it } from 'vitest';
import { OpenAIProvider } from '../../src/providers/openai.js';
import { createCallTagger } from '../../src/simulator/call-tag.js';
import { createSimulator } from '../../src/simulator/transport.js';
import type { FaultRates } from '../../src/simulator/types.js';
import type { CompletionRequest, CompletionResult, ProviderMode } from '../../src/contracts/provider.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import { agentSession } from './conversation.js';

const tokenizer = createTokenizer('o200k_base');
const MODEL = 'gpt-4.1-mini';

function request(window: number): CompletionRequest {
  return {
    model: MODEL,
    messages: agentSession(),
    purpose: 'step',
    directive: { purpose: 'step', window, replay: { text: 'Done.', toolCalls: [{ id: 'call_9', name: 'read', args: { path: 'a.ts' } }] } },
  };
}

/**
 * The same simulated calls answered by a mocked provider (which asks the simulator directly, a
 * success read without a `Response`) and
 * by one whose every call goes through the SDK over the simulator's transport (`live` mode with
 * that transport: what mocked calls did before): the results must be the same, failures included.
 */
async function answers(mode: ProviderMode, faults: FaultRates | undefined, window: number): Promise<CompletionResult[]> {
  const simulator = createSimulator({ tokenizer, seed: 5, ...(faults !== undefined ? { faults } : {}) });
  try {
    const provider = new OpenAIProvider({
      apiKey: 'ctxbench-mock-key',
      mode,
      model: MODEL,
      baseUrl: simulator.openaiBaseUrl,
      tagCall: createCallTagger(simulator, 'test-'),
      ...(simulator.fetch !== undefined ? { fetch: simulator.fetch } : {}),
      ...(simulator.ask !== undefined ? { ask: simulator.ask } : {}),
    });
    const results: CompletionResult[] = [];
    for (let i = 0; i < 4; i++) results.push(await provider.complete(request(window)));
    return results;
  } finally {
    simulator.uninstall();
  }
}

describe('a mocked OpenAI provider asking the simulator directly', () => {
  const cases: [string, FaultRates | undefined, number][] = [
    ['no fault', undefined, 100_000],
    ['a context over the window (400)', undefined, 10],
    ['HTTP 500', { server500: 1 }, 100_000],
    ['HTTP 503', { unavailable503: 1 }, 100_000],
    ['a connection timeout', { timeout: 1 }, 100_000],
    ['a malformed 200', { malformed: 1 }, 100_000],
    ['some of each', { server500: 0.2, unavailable503: 0.2, timeout: 0.2, malformed: 0.2 }, 100_000],
  ];
  it.each(cases)('reads %s as the SDK does', async (_name, faults, window) => {
    const direct = await answers('mock', faults, window);
    expect(direct).toEqual(await answers('live', faults, window));
    if (window < 100 || (faults !== undefined && Object.keys(faults).length === 1)) expect(direct.every((r) => !r.ok)).toBe(true);
  });
});
