import { describe, expect, it } from 'vitest';
import { deriveOnce, scopeOf } from '../../../src/strategies/helpers/derived.js';
import { tieredTruncation } from '../../../src/strategies/tiered-truncation.js';
import { observationMasking } from '../../../src/strategies/observation-masking.js';
import { anthropicContextEditing } from '../../../src/strategies/anthropic-context-editing.js';
import { createHarness, msg } from '../../helpers/strategy-harness.js';
import type { Strategy } from '../../../src/strategies/types.js';
import type { ContextMessage, MessageEvent, TranscriptEvent } from '../../../src/transcript/types.js';

const message: ContextMessage = { type: 'message', id: 't1', role: 'tool', text: 'one\ntwo', toolCallId: 'c1' };

describe('deriveOnce', () => {
  it('builds once per message and edit, undefined included, and tells edits and messages apart', () => {
    let builds = 0;
    const build = () => ({ ...message, text: `cut ${++builds}` });
    const first = deriveOnce(message, 'cut', build);
    expect(deriveOnce(message, 'cut', build)).toBe(first);
    expect(builds).toBe(1);
    expect(deriveOnce(message, 'other', build)).not.toBe(first);
    expect(deriveOnce({ ...message }, 'cut', build)).not.toBe(first);
    let misses = 0;
    deriveOnce(message, 'nothing', () => (misses++, undefined));
    deriveOnce(message, 'nothing', () => (misses++, undefined));
    expect(misses).toBe(1);
  });

  it('names each owner apart and the same owner alike', () => {
    const a = {};
    const b = {};
    expect(scopeOf(a)).toBe(scopeOf(a));
    expect(scopeOf(a)).not.toBe(scopeOf(b));
  });
});

/**
 * A strategy that re-derives its edits at every step must hand back the copy it made before:
 * every per-message memo downstream (counts, cache fingerprints, request bodies) is keyed by the
 * object, and a fresh copy per step made long replays quadratic.
 */
describe('edited messages are the same objects from one step to the next', () => {
  const lines = (n: number): string => `${'x'.repeat(49)}\n`.repeat(n);
  const events: TranscriptEvent[] = [msg.user('u1')];
  for (let n = 1; n <= 8; n++) events.push({ ...(msg.call(`a${n}`, `c${n}`) as MessageEvent), thinking: `why ${n}` }, msg.tool(`t${n}`, `c${n}`, lines(200)));

  const cases: [string, Strategy<never, unknown>, Record<string, unknown>][] = [
    ['tiered-truncation', tieredTruncation as unknown as Strategy<never, unknown>, {}],
    ['observation-masking', observationMasking as unknown as Strategy<never, unknown>, { keepLast: 2 }],
    ['anthropic-context-editing', anthropicContextEditing as unknown as Strategy<never, unknown>, { triggerTokens: 1, clearToolInputs: true }],
  ];
  it.each(cases)('%s', async (_name, strategy, options) => {
    const harness = createHarness({ window: 1_000_000 });
    const state = strategy.init(strategy.options.parse(options) as never, { sessionId: 's', window: 1_000_000 });
    for (const event of events) await strategy.observe?.(event, state, harness.env);
    const first = await strategy.prepare(state, harness.env);
    const second = await strategy.prepare(state, harness.env);
    const edited = first.filter((m) => !events.includes(m as TranscriptEvent));
    expect(edited.length).toBeGreaterThan(0);
    expect(second).toHaveLength(first.length);
    first.forEach((m, i) => expect(second[i]).toBe(m));
  });
});
