import { tokenizerForModel } from '../tokens/tokenizer.js';
import type { ProviderMode } from '../providers/types.js';
import type { UnitResult } from '../metrics/types.js';
import type { Tokenizer } from '../tokens/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { ScenarioOverrides } from '../scenario/resolve.js';
import type { PreparedScenario } from './run-suite.js';
import type { PlannedUnit, ScenarioRef } from './plan.js';
import { loadScenarioFile } from '../scenario/load.js';
import { resolveScenario, transcriptSource, DEFAULT_SEED } from '../scenario/resolve.js';
import { loadTranscript } from '../transcript/load.js';
import { createProvider } from '../providers/index.js';
import { installSimulator } from '../providers/mock.js';
import { createResponseCache, type ResponseCache } from '../providers/cache.js';
import { loadJudgeRubric, loadScenarioProbes } from '../probes/load.js';
import { createProbeObserver } from '../probes/observer.js';
import { prepareProbeSet } from '../probes/probe-set.js';
import { resolveStrategy } from './resolve-strategy.js';
import { runUnit } from './run-unit.js';
import { scenarioKey } from './plan.js';

/** How units are run; plain data, so a worker thread receives it as it is. */
export interface ExecutorOptions {
  mode: ProviderMode;
  /** OpenAI-compatible base URL (live mode). */
  baseUrl?: string;
  /** Environment for live keys (default: the thread's process.env). */
  env?: Record<string, string | undefined>;
  /** Live mode: folder of the on-disk response cache; absent: no cache. */
  cacheDir?: string;
}

/** Runs planned units one at a time, preparing (once) each scenario it meets. */
export interface UnitExecutor {
  run(unit: PlannedUnit): Promise<UnitResult>;
}

/**
 * Resolves a loaded scenario against its transcript, validates its strategies and resolves its
 * probes: everything a unit of it needs, in memory.
 */
export async function prepareLoadedScenario(loaded: LoadedScenario, overrides: ScenarioOverrides): Promise<PreparedScenario> {
  const seed = overrides.seed ?? loaded.data.seed ?? DEFAULT_SEED;
  const transcript = await loadTranscript(transcriptSource(loaded, overrides), seed);
  const scenario = resolveScenario(loaded, transcript.header, overrides);
  for (const spec of scenario.strategies) resolveStrategy(spec, scenario.file);
  const probes = await loadScenarioProbes(scenario, transcript);
  return {
    scenario,
    transcript,
    ...(probes.length > 0 ? { probes: prepareProbeSet(transcript, probes) } : {}),
    ...(scenario.judge && probes.length > 0 ? { judgeRubric: await loadJudgeRubric() } : {}),
  };
}

interface ReadyScenario {
  prepared: PreparedScenario;
  tokenizer: Tokenizer;
}

/**
 * An executor with its own cache of prepared scenarios (seeded with `known`, keyed by
 * `scenarioKey`). Every unit gets a fresh provider, observer and, in mocked mode, its own
 * simulator installed for the unit alone: the simulator answers from (seed, call key, request)
 * only, so a unit's result does not depend on which units ran before it in the same thread.
 */
export function createUnitExecutor(options: ExecutorOptions, known: ReadonlyMap<string, PreparedScenario> = new Map()): UnitExecutor {
  const ready = new Map<string, Promise<ReadyScenario>>();
  const cache = options.mode === 'live' && options.cacheDir !== undefined ? createResponseCache(options.cacheDir) : undefined;
  const readyScenario = (ref: ScenarioRef): Promise<ReadyScenario> => {
    const key = scenarioKey(ref);
    let entry = ready.get(key);
    if (entry === undefined) {
      entry = loadReady(ref, known.get(key));
      ready.set(key, entry);
    }
    return entry;
  };
  return {
    async run(unit) {
      return runPlannedUnit(unit, await readyScenario(unit.scenario), options, cache);
    },
  };
}

async function loadReady(ref: ScenarioRef, known: PreparedScenario | undefined): Promise<ReadyScenario> {
  const prepared = known ?? (await prepareLoadedScenario(await loadScenarioFile(ref.file), ref.overrides));
  // A synthetic session is written to budgets in o200k_base tokens (toolOutputTokens, ...): its
  // counts are what the generator meant. Logs of real agents are counted as their model counts.
  const calibrate = prepared.scenario.transcript.kind === 'file';
  return { prepared, tokenizer: tokenizerForModel(prepared.scenario.model, { calibrate }) };
}

async function runPlannedUnit(unit: PlannedUnit, ready: ReadyScenario, options: ExecutorOptions, cache: ResponseCache | undefined): Promise<UnitResult> {
  const { scenario, transcript, probes, judgeRubric } = ready.prepared;
  const { tokenizer } = ready;
  const simulator =
    options.mode === 'mock' ? installSimulator({ tokenizer, seed: scenario.seed, ...(scenario.faults !== undefined ? { faults: scenario.faults } : {}) }) : undefined;
  try {
    const provider = createProvider({
      name: scenario.provider,
      mode: options.mode,
      model: scenario.model,
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
      ...(simulator !== undefined ? { simulator } : {}),
      ...(cache !== undefined ? { cache } : {}),
      // Faults are drawn per call key: a unit's own prefix keeps them independent of run order.
      callKeyPrefix: `${unit.spec.label}/`,
    });
    // A fresh observer per unit: its curves and answers are that unit's alone.
    const observer = probes === undefined ? undefined : createProbeObserver(probes, judgeRubric !== undefined ? { judgeRubric } : {});
    return await runUnit({ scenario, transcript, spec: unit.spec, provider, tokenizer, ...(observer !== undefined ? { observer } : {}) });
  } finally {
    simulator?.uninstall();
  }
}
