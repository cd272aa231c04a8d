import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { createUnitExecutor } from '../../src/run/execute-unit.js';
import type { PlannedUnit } from '../../src/run/plan.js';

const scenarios = resolve(import.meta.dirname, '../../scenarios');

/**
 * Built-ins the strict simulated provider refused on the bundled suite (issue 29): each sent a
 * request OpenAI or Gemini answers with a 400. Replayed through the engine, none may now.
 * - rolling-window: its token budget dropped a group's user message but kept the group's rounds,
 *   so the history opened on a call (Gemini: "function call turn comes immediately after a user turn");
 * - sigma: a task evicted after a recap kept its tombstone calls while the recap hid some results;
 * - surgical-eviction: a text-protocol agent's task tombstone lost `sentAsText`, so its calls went
 *   out as tool calls whose results were plain user text.
 */
const CASES: { strategy: string; scenario: string }[] = [
  { strategy: 'rolling-window', scenario: 'overflow-coding.yaml' },
  { strategy: 'sigma', scenario: 'real/real-claude-code-vsla-compacted.yaml' },
  { strategy: 'surgical-eviction', scenario: 'real/real-mini-swe-agent.yaml' },
];

describe('built-ins send only requests the providers accept', () => {
  it.each(CASES)('$strategy on $scenario', { timeout: 120_000 }, async ({ strategy, scenario }) => {
    const unit = { index: 0, scenario: { file: join(scenarios, scenario), overrides: {} }, spec: { label: strategy, strategy, options: {} } };
    const result = await createUnitExecutor({ mode: 'mock' }).run(unit as PlannedUnit);
    const refused = result.events.filter((e) => e.type === 'failure' && e.failure.kind === 'invalid-request');
    expect(refused).toEqual([]);
    expect(result.summary.crash_kind).not.toBe('invalid-request');
  });
});
