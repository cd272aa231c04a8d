import type { ProviderMode } from '../providers/types.js';
import type { RunResult, ScenarioInfo, UnitResult } from '../metrics/types.js';
import type { Scenario } from '../scenario/types.js';
import type { Transcript } from '../transcript/types.js';
import { RESULT_SCHEMA_VERSION } from '../metrics/types.js';
import { expandScenarioPaths, loadScenarioFile, type LoadedScenario } from '../scenario/load.js';
import { resolveScenario, transcriptSource, DEFAULT_SEED, type ScenarioOverrides } from '../scenario/resolve.js';
import { loadTranscript } from '../transcript/load.js';
import { applySavingVsFull } from '../metrics/summarize.js';
import { createTokenizer, encodingForModel } from '../tokens/tokenizer.js';
import { createProvider } from '../providers/index.js';
import { installSimulator } from '../providers/mock.js';
import { resolveStrategy } from './resolve-strategy.js';
import { runUnit } from './run-unit.js';
import { VERSION } from '../version.js';
import { loadScenarioProbes } from '../probes/load.js';
import { createProbeObserver } from '../probes/observer.js';
import { prepareProbeSet, type ProbeSet } from '../probes/probe-set.js';
import { displayPath } from '../paths.js';

export interface RunOptions {
  /** Scenario files or folders. */
  scenarios: string[];
  overrides?: ScenarioOverrides;
  mode?: ProviderMode;
  /** OpenAI-compatible base URL (live mode). */
  baseUrl?: string;
  /** Environment for live keys (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Called before each unit starts and after it ends (progress display). */
  onUnit?: (event: { phase: 'start' | 'end'; scenario: string; strategy: string; index: number; total: number; unit?: UnitResult }) => void;
}

/** A scenario ready to run: resolved, with its transcript and its probes in memory. */
export interface PreparedScenario {
  scenario: Scenario;
  transcript: Transcript;
  /** Inline, side-file and generated probes, resolved against the transcript; none: no recall measured. */
  probes?: ProbeSet;
}

/**
 * Loads and validates every scenario, its transcript and its strategies before anything runs, so
 * that bad input stops the run before any work is done (and none is lost).
 */
export async function prepareScenarios(paths: string[], overrides: ScenarioOverrides = {}): Promise<PreparedScenario[]> {
  const files = await expandScenarioPaths(paths);
  const loaded: LoadedScenario[] = [];
  for (const file of files) loaded.push(await loadScenarioFile(file));
  const prepared: PreparedScenario[] = [];
  for (const l of loaded) {
    const seed = overrides.seed ?? l.data.seed ?? DEFAULT_SEED;
    const transcript = await loadTranscript(transcriptSource(l, overrides), seed);
    const scenario = resolveScenario(l, transcript.header, overrides);
    for (const spec of scenario.strategies) resolveStrategy(spec, scenario.file);
    const probes = await loadScenarioProbes(scenario, transcript);
    prepared.push({ scenario, transcript, ...(probes.length > 0 ? { probes: prepareProbeSet(transcript, probes) } : {}) });
  }
  return prepared;
}

/** Runs every scenario × strategy unit and returns the deterministic result. */
export async function runSuite(options: RunOptions): Promise<RunResult> {
  const mode = options.mode ?? 'mock';
  const prepared = await prepareScenarios(options.scenarios, options.overrides);
  const total = prepared.reduce((n, p) => n + p.scenario.strategies.length, 0);
  const units: UnitResult[] = [];
  for (const scenario of prepared) {
    units.push(...(await runScenario(scenario, { ...options, mode }, units.length, total)));
  }
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    tool: { name: 'ctxbench', version: VERSION },
    seed: options.overrides?.seed ?? DEFAULT_SEED,
    mode,
    scenarios: prepared.map(({ scenario, transcript }) => scenarioInfo(scenario, transcript)),
    units: applySavingVsFull(units),
  };
}

async function runScenario(
  { scenario, transcript, probes }: PreparedScenario,
  options: RunOptions & { mode: ProviderMode },
  offset: number,
  total: number,
): Promise<UnitResult[]> {
  const tokenizer = createTokenizer(encodingForModel(scenario.model));
  const simulator = options.mode === 'mock' ? installSimulator({ tokenizer, seed: scenario.seed }) : undefined;
  const out: UnitResult[] = [];
  try {
    for (const spec of scenario.strategies) {
      const index = offset + out.length;
      options.onUnit?.({ phase: 'start', scenario: scenario.name, strategy: spec.label, index, total });
      const provider = createProvider({
        name: scenario.provider,
        mode: options.mode,
        model: scenario.model,
        ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
        ...(options.env !== undefined ? { env: options.env } : {}),
        ...(simulator !== undefined ? { simulator } : {}),
      });
      // A fresh observer per unit: its curves and answers are that unit's alone.
      const observer = probes === undefined ? undefined : createProbeObserver(probes);
      const unit = await runUnit({ scenario, transcript, spec, provider, tokenizer, ...(observer !== undefined ? { observer } : {}) });
      out.push(unit);
      options.onUnit?.({ phase: 'end', scenario: scenario.name, strategy: spec.label, index, total, unit });
    }
  } finally {
    simulator?.uninstall();
  }
  return out;
}

function scenarioInfo(scenario: Scenario, transcript: Transcript): ScenarioInfo {
  const steps = transcript.events.filter((e) => e.type === 'message' && e.role === 'assistant').length;
  return {
    name: scenario.name,
    file: displayPath(scenario.file),
    ...(scenario.description !== undefined ? { description: scenario.description } : {}),
    transcript: scenario.transcript.kind === 'file' ? displayPath(scenario.transcript.path) : `synthetic:${JSON.stringify(scenario.transcript.options)}`,
    provider: scenario.provider,
    model: scenario.model,
    window: scenario.window,
    ...scenario.quota,
    steps,
    seed: scenario.seed,
    skippedLines: transcript.skipped.length,
  };
}
