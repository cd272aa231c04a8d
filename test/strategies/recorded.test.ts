import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recorded } from '../../src/strategies/recorded.js';
import { full } from '../../src/strategies/full.js';
import { ids, msg, replay } from '../helpers/strategy-harness.js';
import type { CompactionEvent, TranscriptEvent } from '../../src/transcript/types.js';
import type { UnitResult } from '../../src/metrics/types.js';
import { loadTranscript } from '../../src/scenario/load-transcript.js';
import { scenarioFileSchema } from '../../src/scenario/schema.js';
import { resolveScenario } from '../../src/scenario/resolve.js';
import { tokenizerForModel } from '../../src/tokens/tokenizer.js';
import { createSimulator } from '../../src/simulator/transport.js';
import { createProvider } from '../../src/providers/index.js';
import { runUnit } from '../../src/replay/run-unit.js';

const compaction: CompactionEvent = { type: 'compaction', id: 'k1', summary: 'Summary: u1 asked for X; a1 ran c1.' };
const session: TranscriptEvent[] = [
  msg.system('s'),
  msg.user('u1'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1'),
  compaction,
  msg.assistant('a2'),
  msg.user('u2'),
  msg.assistant('a3'),
];

describe('recorded', () => {
  const table: { name: string; events: TranscriptEvent[]; expected: string[] }[] = [
    { name: "at the agent's compaction, the system prompt and the summary replace the history", events: session, expected: ['s', 'k1', 'a2', 'u2', 'a3'] },
    {
      name: 'a compaction without a summary changes nothing (nothing to replace the history with)',
      events: [msg.user('u1'), { type: 'compaction', id: 'k0' }, msg.assistant('a1')],
      expected: ['u1', 'a1'],
    },
    { name: 'without a compaction it is full', events: [msg.user('u1'), msg.call('a1', 'c1'), msg.tool('t1', 'c1')], expected: ['u1', 'a1', 't1'] },
  ];
  it.each(table)('$name', async ({ events, expected }) => {
    const { context } = await replay(recorded, {}, events);
    expect(ids(context)).toEqual(expected);
  });

  it('sends the summary as a user message and records the compaction on the timeline', async () => {
    const { context, harness } = await replay(recorded, {}, session);
    expect(context[1]).toMatchObject({ id: 'k1', role: 'user', text: compaction.summary, synthetic: 'recorded-compaction' });
    expect(harness.actions.map((a) => [a.action, a.reason, a.detail])).toEqual([['compact', 'recorded compaction', 'k1']]);
  });

  it('full, on the same log, never compacts and never adds the summary on top of the history', async () => {
    const { context } = await replay(full, {}, session);
    expect(ids(context)).toEqual(['s', 'u1', 'a1', 't1', 'a2', 'u2', 'a3']);
  });
});

/** Replays a real log with `recorded` and `full` at a 200k window, mocked, as `ctxbench run` does. */
async function runReal(path: string, window: number): Promise<Record<string, UnitResult>> {
  const file = resolve(path);
  const transcript = await loadTranscript({ kind: 'file', path: file, lenient: false }, 0);
  const data = scenarioFileSchema.parse({ name: 'real', transcript: file, window, strategies: ['recorded', 'full'] });
  const scenario = resolveScenario({ file, data }, transcript, {});
  const tokenizer = tokenizerForModel(scenario.model);
  const units: Record<string, UnitResult> = {};
  for (const spec of scenario.strategies) {
    const simulator = createSimulator({ tokenizer, seed: scenario.seed });
    try {
      const provider = createProvider({ name: scenario.provider, mode: 'mock', model: scenario.model, simulator });
      units[spec.label] = await runUnit({ scenario, transcript, spec, provider, tokenizer });
    } finally {
      simulator.uninstall();
    }
  }
  return units;
}

describe('recorded on the long Claude Code session with a real compaction (vsla-0a725fb5)', () => {
  it('compacts where the agent did, peaks within 5 % of the recorded 154,565 tokens (reached: 151.8k, −1.8 %), and full does not compact', async () => {
    const units = await runReal('fixtures/real/claude-code-long/vsla-0a725fb5.jsonl', 200_000);
    const rec = units.recorded as UnitResult;
    const fullUnit = units.full as UnitResult;
    // The agent's summary arrives after its 158th call (step 157, recorded input 154,565).
    const compactions = rec.events.filter((e) => e.type === 'action' && e.action === 'compact');
    expect(compactions.map((e) => e.step)).toEqual([158]);
    expect(rec.summary.compactions).toBe(1);
    expect(fullUnit.summary.compactions).toBe(0);
    const peak = rec.summary.peak_context_tokens ?? 0;
    expect(peak).toBeLessThan(154_565);
    expect(Math.abs(peak - 154_565) / 154_565).toBeLessThan(0.05);
    // Of that, 13.1k is what Claude Code appended to messages without logging it (file-change
    // reminders after the sed over twelve .tex files, step 46, and others; replay/unlogged.ts).
    expect(Object.keys(rec.hiddenPrefix?.unlogged ?? {}).length).toBeGreaterThan(0);
    expect((rec.steps[157]?.hiddenTokens ?? 0) - (rec.hiddenPrefix?.tokens ?? 0)).toBe(13_061);
    // The first call after the compaction (recorded 30,905) holds the summary, not the history.
    const after = rec.steps[158];
    expect(after?.promptTokens).toBeGreaterThan(28_000);
    expect(after?.promptTokens).toBeLessThan(34_000);
    expect(fullUnit.steps[158]?.promptTokens).toBeGreaterThan(140_000);
    // Every request carries the estimated hidden prefix (≈ 14.4k of system prompt and tools).
    expect(rec.hiddenPrefix?.source).toBe('auto');
    expect(rec.hiddenPrefix?.tokens).toBeGreaterThan(13_500);
    expect(rec.hiddenPrefix?.tokens).toBeLessThan(15_500);
    expect(rec.steps[0]?.hiddenTokens).toBe(rec.hiddenPrefix?.tokens);
  }, 120_000);
});
