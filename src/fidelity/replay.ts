import { resolve } from 'node:path';
import type { Transcript } from '../transcript/types.js';
import type { Scenario } from '../scenario/types.js';
import type { StepRecord } from '../metrics/run-events.js';
import type { Calibration, Encoding } from '../tokens/types.js';
import { scenarioFileSchema } from '../scenario/schema.js';
import { resolveScenario } from '../scenario/resolve.js';
import { createTokenizer, encodingForModel } from '../tokens/tokenizer.js';
import { calibrationFor } from '../tokens/calibration.js';
import type { HiddenPrefix } from '../tokens/hidden-tokens.js';
import { createProvider } from '../providers/index.js';
import { createSimulator } from '../simulator/transport.js';
import { runUnit } from '../replay/run-unit.js';

/**
 * The replay has no window and no quota: fidelity measures how tokens are counted, not whether
 * the context fits, so every step must be sent.
 */
const UNBOUNDED_WINDOW = 1_000_000_000;

/** What the replay of one transcript with `recorded` produced. */
export interface RecordedReplay {
  scenario: Scenario;
  encoding: Encoding;
  /** Whether counts were calibrated (a model whose tokenizer is not public). */
  calibrated: boolean;
  hiddenPrefix?: HiddenPrefix;
  steps: StepRecord[];
}

/**
 * Replays a transcript with `recorded` (what the agent sent, its own compactions followed, its
 * hidden prefix estimated and charged) through the real engine (runUnit) on the mocked provider
 * of the transcript's own format — gemini for the gemini dialect, openai for openai and
 * anthropic — from an in-memory scenario resolved exactly as a scenario file naming the
 * transcript would be. `calibrate: false` counts with o200k_base as it is (the raw figures);
 * `calibration` replaces the shipped table (a fit to check, as the leave-one-log-out check does).
 */
export async function replayRecorded(
  transcript: Transcript,
  options: { calibrate?: boolean; calibration?: Readonly<Record<string, Calibration>> } = {},
): Promise<RecordedReplay> {
  const file = resolve(transcript.file);
  const data = scenarioFileSchema.parse({ name: 'fidelity', transcript: file, window: UNBOUNDED_WINDOW, strategies: ['recorded'] });
  const scenario = resolveScenario({ file, data }, transcript, { promptCache: 'upper-bound' });
  const encoding = encodingForModel(scenario.model);
  const tokenizer = createTokenizer(encoding, options.calibrate === false ? undefined : calibrationFor(scenario.model, options.calibration));
  const simulator = createSimulator({ tokenizer, seed: scenario.seed });
  try {
    const provider = createProvider({ name: scenario.provider, mode: 'mock', model: scenario.model, simulator });
    const spec = scenario.strategies[0] ?? { label: 'recorded', strategy: 'recorded', options: {} };
    const unit = await runUnit({ scenario, transcript, spec, provider, tokenizer });
    return {
      scenario,
      encoding,
      calibrated: tokenizer.calibration !== undefined,
      ...(unit.hiddenPrefix !== undefined ? { hiddenPrefix: unit.hiddenPrefix } : {}),
      steps: unit.steps,
    };
  } finally {
    simulator.uninstall();
  }
}
