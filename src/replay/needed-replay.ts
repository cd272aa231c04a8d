import type { LoadedScenario } from '../scenario/load.js';
import { resolveScenario, type ScenarioOverrides } from '../scenario/resolve.js';
import type { ContextMessage, Transcript } from '../transcript/types.js';
import type { NeededRecord } from '../metrics/types.js';
import { tokenizerForModel } from '../tokens/tokenizer.js';
import { createSimulator } from '../simulator/transport.js';
import { createProvider } from '../providers/index.js';
import { prepareProbeSet } from '../probes/probe-set.js';
import { extractNeededUses } from '../probes/needed/extract.js';
import type { NeededUse } from '../probes/needed/types.js';
import type { UnitObserver } from './observer.js';
import { createProbeObserver } from './probe-observer.js';
import { runUnit } from './run-unit.js';

/** One needed use with the outcome `recorded` got for it in the run's own measure, and the context it sent at the use's step. */
export interface RecordedUse {
  readonly use: NeededUse;
  readonly record: NeededRecord;
  /** The context `recorded` sent at the use's step; empty when the step was never sent. */
  readonly context: readonly ContextMessage[];
}

/**
 * Runs the `recorded` strategy over a log as `ctxbench run <log> --strategies recorded` does (the
 * ad-hoc scenario of the log, a mock provider, the hidden prefix estimated from the recorded usage
 * and the re-attached files fitted to it: run-unit.ts `fitRestored`), and returns its needed.csv
 * rows (probes/needed/measure.ts), each beside its use and the context sent at its step. So
 * `validate` and a run agree on `recorded` by construction: they are the same measure.
 */
export async function replayRecordedNeeded(
  loaded: LoadedScenario,
  transcript: Transcript,
  overrides: ScenarioOverrides = {},
  minDistance?: number,
): Promise<RecordedUse[]> {
  const uses = extractNeededUses(transcript, minDistance === undefined ? {} : { minDistance });
  if (uses.length === 0) return [];
  const scenario = resolveScenario(loaded, transcript, { ...overrides, strategies: ['recorded'] });
  const spec = scenario.strategies.find((s) => s.strategy === 'recorded');
  if (spec === undefined) throw new Error('the recorded strategy is not registered');
  const set = prepareProbeSet(transcript, [], uses);
  const needed = set.needed;
  if (needed === undefined) return [];
  const tokenizer = tokenizerForModel(scenario.model);
  const simulator = createSimulator({ tokenizer, seed: scenario.seed });
  const contexts = new Map<number, readonly ContextMessage[]>();
  const measure = createProbeObserver(set);
  // The run's own observer measures; this one keeps the context of each step with a use, for the causes of the misses.
  const observer: UnitObserver = {
    ...measure,
    onStep: async (record, sent, env) => {
      if (needed.byStep.has(record.step)) contexts.set(record.step, sent.after);
      await measure.onStep?.(record, sent, env);
    },
  };
  try {
    const provider = createProvider({ name: scenario.provider, mode: 'mock', model: scenario.model, simulator, guard: true });
    const unit = await runUnit({ scenario, transcript, spec, provider, tokenizer, observer, needed });
    const records = unit.probes?.needed ?? [];
    return needed.uses.map(({ use }, i) => ({ use, record: records[i] as NeededRecord, context: contexts.get(use.useStep) ?? [] }));
  } finally {
    simulator.uninstall();
  }
}
