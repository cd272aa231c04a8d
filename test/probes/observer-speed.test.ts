import { describe, expect, it } from 'vitest';
import type { StepContext } from '../../src/engine/step.js';
import type { StepRecord } from '../../src/engine/types.js';
import { createProbeObserver } from '../../src/probes/observer.js';
import { prepareProbeSet } from '../../src/probes/probe-set.js';
import type { StrategyEnv } from '../../src/strategies/types.js';
import { generateSession } from '../../src/transcript/synthetic.js';
import type { ContextMessage, Probe } from '../../src/transcript/types.js';

/**
 * Retention is measured at every step for every probe, with no model call: on a 500-step session
 * with 50 probes it must stay cheap beside the replay itself (`npm run bench` tracks the number).
 */
describe('retention measurement speed', () => {
  it('checks 50 probes at each of 500 steps of a growing context in well under three seconds', async () => {
    const session = generateSession({ steps: 500, seed: 4, facts: 52, toolOutputTokens: 200 });
    // Asked at the end only, and the end is never reached here: no probe call is made.
    const probes: Probe[] = session.events.flatMap((e) => (e.type === 'probe' ? [{ ...e.probe, ask: ['end' as const] }] : [])).slice(0, 50);
    expect(probes.length).toBeGreaterThanOrEqual(50);
    const observer = createProbeObserver(prepareProbeSet(session, probes));
    const env = { format: 'openai', archive: { get: () => undefined, lookup: () => undefined } } as unknown as StrategyEnv;
    observer.onStart?.({ env, events: [] } as unknown as StepContext);
    const history: ContextMessage[] = [];
    let step = 0;
    const started = performance.now();
    for (const event of session.events) {
      if (event.type !== 'message') continue;
      if (event.role === 'assistant') {
        const record = { step, status: 'ok' } as StepRecord;
        await observer.onStep?.(record, [...history], env);
        step += 1;
      }
      history.push(event);
    }
    const elapsed = performance.now() - started;
    expect(step).toBe(500);
    expect(elapsed).toBeLessThan(3000);
  });
});
