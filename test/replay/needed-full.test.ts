import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTranscript } from '../../src/scenario/load-transcript.js';
import { scenarioFileSchema } from '../../src/scenario/schema.js';
import { resolveScenario } from '../../src/scenario/resolve.js';
import { tokenizerForModel } from '../../src/tokens/tokenizer.js';
import { createSimulator } from '../../src/simulator/transport.js';
import { createProvider } from '../../src/providers/index.js';
import { runUnit } from '../../src/replay/run-unit.js';
import { createProbeObserver } from '../../src/replay/probe-observer.js';
import { prepareProbeSet } from '../../src/probes/probe-set.js';
import { extractNeededUses } from '../../src/probes/needed/extract.js';

/** Every real log of fixtures/real/ (their expected-count side files left out). */
function realLogs(dir = 'fixtures/real'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return realLogs(path);
    return /\.(?:jsonl|json)$/.test(entry.name) && !entry.name.endsWith('.expected.json') ? [path] : [];
  });
}

/** `full` replayed over a log in a window it fits, its needed facts measured (docs/probes.md, "Needed recall"). */
async function replayFull(file: string) {
  const log = resolve(file);
  const transcript = await loadTranscript({ kind: 'file', path: log, lenient: true }, 0);
  const data = scenarioFileSchema.parse({ name: 'real', transcript: log, provider: 'openai', window: 4_000_000, strategies: ['full'] });
  const scenario = resolveScenario({ file: log, data }, transcript, {});
  const tokenizer = tokenizerForModel(scenario.model);
  const simulator = createSimulator({ tokenizer, seed: scenario.seed });
  try {
    const provider = createProvider({ name: scenario.provider, mode: 'mock', model: scenario.model, simulator });
    const spec = scenario.strategies[0];
    if (spec === undefined) throw new Error('no strategy');
    const uses = extractNeededUses(transcript);
    const observer = createProbeObserver(prepareProbeSet(transcript, [], uses));
    const unit = await runUnit({ scenario, transcript, spec, provider, tokenizer, observer });
    return { unit, uses };
  } finally {
    simulator.uninstall();
  }
}

describe('needed recall of full on every real log', () => {
  it.each(realLogs())('%s: every needed use is kept where full did not crash', async (file) => {
    const { unit, uses } = await replayFull(file);
    const records = unit.probes?.needed ?? [];
    expect(records).toHaveLength(uses.length);
    expect(unit.summary.crashed).toBe(false);
    const missed = records.filter((r) => r.outcome !== 'kept');
    expect(missed.slice(0, 5)).toEqual([]);
    expect(unit.summary.needed_facts).toBe(uses.length === 0 ? null : uses.length);
    if (uses.length > 0) expect(unit.summary.needed_recall).toBe(1);
    // A session of 30 steps or more uses something it saw long before: the check is not empty. But
    // mclaude-97b0ffde's steps 8-57 poll one background shell whose id every call names, and the
    // steps after it use nothing seen ten steps before (docs/probes.md).
    if (unit.summary.steps >= 30 && !file.endsWith('mclaude-97b0ffde.jsonl')) expect(uses.length).toBeGreaterThan(0);
  });
});
