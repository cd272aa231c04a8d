import { resolve } from 'node:path';
import type { Transcript } from '../transcript/types.js';
import type { Scenario } from '../scenario/types.js';
import type { StepRecord } from '../engine/types.js';
import type { Encoding } from '../tokens/types.js';
import { scenarioFileSchema } from '../scenario/schema.js';
import { resolveScenario } from '../scenario/resolve.js';
import { createTokenizer, encodingForModel } from '../tokens/tokenizer.js';
import { createProvider } from '../providers/index.js';
import { installSimulator } from '../providers/mock.js';
import { runUnit } from '../engine/run-unit.js';

/**
 * The replay has no window and no quota: fidelity measures how tokens are counted, not whether
 * the context fits, so `full` must send every step.
 */
const UNBOUNDED_WINDOW = 1_000_000_000;

/** What the replay of one transcript with `full` produced. */
export interface FullReplay {
  scenario: Scenario;
  encoding: Encoding;
  steps: StepRecord[];
}

/**
 * Replays a transcript with `full` through the real engine (runUnit) on the mocked provider of
 * the transcript's own format — gemini for the gemini dialect, openai for openai and anthropic —
 * from an in-memory scenario resolved exactly as a scenario file naming the transcript would be.
 */
export async function replayWithFull(transcript: Transcript): Promise<FullReplay> {
  const file = resolve(transcript.file);
  const data = scenarioFileSchema.parse({ name: 'fidelity', transcript: file, window: UNBOUNDED_WINDOW, strategies: ['full'] });
  const scenario = resolveScenario({ file, data }, transcript.header, {});
  const encoding = encodingForModel(scenario.model);
  const tokenizer = createTokenizer(encoding);
  const simulator = installSimulator({ tokenizer, seed: scenario.seed });
  try {
    const provider = createProvider({ name: scenario.provider, mode: 'mock', model: scenario.model, simulator });
    const spec = scenario.strategies[0] ?? { label: 'full', strategy: 'full', options: {} };
    const unit = await runUnit({ scenario, transcript, spec, provider, tokenizer });
    return { scenario, encoding, steps: unit.steps };
  } finally {
    simulator.uninstall();
  }
}
