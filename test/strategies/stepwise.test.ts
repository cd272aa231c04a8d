import { describe, expect, it } from 'vitest';
import { generateSession } from '../../src/transcript/synthetic/generate.js';
import { surgicalEviction } from '../../src/strategies/surgical-eviction.js';
import { tieredTruncation } from '../../src/strategies/tiered-truncation.js';
import type { Strategy } from '../../src/strategies/types.js';
import type { ContextMessage, TranscriptEvent } from '../../src/transcript/types.js';
import { createHarness, replay } from '../helpers/strategy-harness.js';

/**
 * Strategies that carry what their last step made of the history into the next one (a pass to
 * extend, cuts to reuse) must prepare the same context as a fresh state fed the same events: at
 * every step of a session with tasks, several groups and long tool results, the long-lived
 * state's context equals the one a new state prepares from scratch.
 */
const session = generateSession({ steps: 36, seed: 7, toolOutputTokens: 600 });

async function stepwise<O, S>(strategy: Strategy<O, S>, options: Partial<O>, events: readonly TranscriptEvent[]): Promise<number> {
  const harness = createHarness();
  const state = strategy.init(strategy.options.parse(options), { sessionId: harness.env.sessionId, window: harness.env.window });
  let compared = 0;
  for (const [i, event] of events.entries()) {
    if (event.type === 'message') (harness.env.archive as unknown as { add(e: TranscriptEvent): void }).add(event);
    await strategy.observe?.(event, state, harness.env);
    if (event.type !== 'message' || event.role !== 'assistant') continue;
    const kept: ContextMessage[] = await strategy.prepare(state, harness.env);
    const fresh = await replay(strategy, options, events.slice(0, i + 1));
    expect(kept, `step ${compared}`).toEqual(fresh.context);
    compared += 1;
  }
  return compared;
}

describe('strategies that reuse their last pass', () => {
  it('tiered-truncation prepares at every step what a fresh state prepares', async () => {
    expect(await stepwise(tieredTruncation, { recentResults: 2, recentChars: 800, olderChars: 400, finishedChars: 120 }, session.events)).toBe(36);
  });

  it('surgical-eviction prepares at every step what a fresh state prepares', async () => {
    const cuts = await replay(surgicalEviction, {}, session.events);
    // The session must make the strategy evict, or the comparison shows nothing.
    expect(cuts.harness.actions.length).toBeGreaterThan(0);
    expect(await stepwise(surgicalEviction, {}, session.events)).toBe(36);
  });
});
