import { importerNames } from '../transcript/importers/index.js';
import type { ProviderName } from '../contracts/provider.js';
import type { CacheEstimate } from '../cache/families.js';
import type { OnCrash, Scenario, StrategySpec, TranscriptSource } from './types.js';
import type { LoadedScenario } from './load.js';
import type { ScenarioFile } from './schema.js';
import { resolveRelative } from './load.js';
import { DEFAULT_RETRY_POLICY } from '../quota/retry.js';
import { DEFAULT_PACING } from '../quota/pacing.js';
import { strategyNames } from '../strategies/index.js';
import { InputError } from '../errors.js';
import type { PriceOverride } from '../pricing/resolve.js';
import { priceOverrideFor, type PriceFile } from '../pricing/file.js';
import { externalSpec, moduleSpec, type ExternalEntry } from './external-spec.js';
import { resolveLogSettings, type TranscriptFacts } from './log-settings.js';
import { resolveContextRot, type ContextRotSpec } from './context-rot.js';

/** Settings the command line may override for every scenario of a run. */
export interface ScenarioOverrides {
  provider?: ProviderName;
  model?: string;
  window?: number;
  /** `--prompt-cache`: how implicit prompt caches are billed. */
  promptCache?: CacheEstimate;
  /** A quota for every scenario; `null` removes the scenarios' own (`--tpm none`: no quota). */
  tpm?: number | null;
  rpm?: number | null;
  seed?: number;
  onCrash?: OnCrash;
  lenient?: boolean;
  /** Score probe answers with the LLM judge too (live runs only). */
  judge?: boolean;
  /** `--context-rot`: the reader's context-length effect for every scenario (`off` turns a scenario's own off). */
  contextRot?: ContextRotSpec;
  /** The format of transcripts named where a scenario is expected (`run --from`); scenario files name theirs in `format`. */
  from?: string;
  /** Strategy names or labels to run (others are left out; unknown registered names are added). */
  strategies?: string[];
  /** `--prices <file>`: wins over a scenario's `prices` for the models it names (src/pricing/file.ts). */
  prices?: PriceFile;
  /**
   * Absolute paths of strategy modules (`--strategy-module`) run on every scenario: beside the
   * `strategies` selection when there is one, else in place of the scenario's own strategies.
   */
  strategyModules?: string[];
  /** `--strategy-timeout`: every module's and command's time limit per hook call, over the scenario's `timeoutMs`. */
  strategyTimeoutMs?: number;
}

export const DEFAULT_SEED = 42;

/**
 * A scenario's seed: the run's `--seed`, else the scenario's own, else the default. The one place
 * it is decided: the transcript generator, the simulator and every report read it from here
 * (through `Scenario.seed`).
 */
export function scenarioSeed(loaded: LoadedScenario, overrides: ScenarioOverrides): number {
  return overrides.seed ?? loaded.data.seed ?? DEFAULT_SEED;
}

/** Where the scenario's transcript comes from (before it is loaded). */
export function transcriptSource(loaded: LoadedScenario, overrides: ScenarioOverrides): TranscriptSource {
  const t = loaded.data.transcript;
  if (typeof t === 'string') {
    const format = loaded.data.format;
    return {
      kind: 'file',
      path: resolveRelative(loaded.file, t),
      lenient: overrides.lenient ?? loaded.data.lenient,
      ...(format !== undefined ? { format } : {}),
    };
  }
  return { kind: 'synthetic', options: t.generate };
}

/**
 * Fills every default of a scenario, given its transcript (header and recorded usage: the log's own
 * settings, log-settings.ts) and the run's overrides.
 */
export function resolveScenario(loaded: LoadedScenario, transcript: TranscriptFacts, overrides: ScenarioOverrides): Scenario {
  const d = loaded.data;
  const settings = resolveLogSettings(d, transcript, overrides);
  const provider = settings.provider.value;
  const model = settings.model.value;
  const quota = { ...d.quota };
  if (overrides.tpm === null) delete quota.tpm;
  else if (overrides.tpm !== undefined) quota.tpm = overrides.tpm;
  if (overrides.rpm === null) delete quota.rpm;
  else if (overrides.rpm !== undefined) quota.rpm = overrides.rpm;
  return {
    name: d.name,
    file: loaded.file,
    ...(d.description !== undefined ? { description: d.description } : {}),
    ...(d.stress === true ? { stress: true as const } : {}),
    transcript: transcriptSource(loaded, overrides),
    ...resolveProbes(loaded, transcript),
    provider,
    model,
    window: settings.window.value,
    promptCache: overrides.promptCache ?? d.promptCache ?? 'expected',
    maxOutputTokens: d.maxOutputTokens,
    hiddenPrefix: d.hiddenPrefix,
    quota,
    retry: { ...DEFAULT_RETRY_POLICY, ...d.retry },
    pacing: { ...DEFAULT_PACING, ...d.pacing },
    seed: scenarioSeed(loaded, overrides),
    onCrash: overrides.onCrash ?? d.onCrash,
    ...(d.faults !== undefined ? { faults: d.faults } : {}),
    probesUseQuota: d.probesUseQuota,
    ...contextRotOf(overrides.contextRot ?? d.reader?.contextRot),
    ...pricesOf(overrides.prices, model, d.prices),
    judge: overrides.judge ?? d.judge,
    strategies: withTimeout(
      withModules(
        selectStrategies(checkIdenticalRows(resolveSpecs(d.strategies, loaded.file), d.identicalRows, loaded.file), overrides.strategies),
        overrides,
        loaded.file,
      ),
      overrides.strategyTimeoutMs,
    ),
  };
}

function contextRotOf(spec: ContextRotSpec | undefined): Pick<Scenario, 'contextRot'> {
  const curve = spec === undefined ? undefined : resolveContextRot(spec);
  return curve === undefined ? {} : { contextRot: curve };
}

/** The specs with `--strategy-timeout` laid on every module and command. */
function withTimeout(specs: StrategySpec[], timeoutMs: number | undefined): StrategySpec[] {
  if (timeoutMs === undefined) return specs;
  return specs.map((spec) => (spec.source === undefined ? spec : { ...spec, source: { ...spec.source, timeoutMs } }));
}

/** The run's price file wins over the scenario's field for the models it names. */
function pricesOf(file: PriceFile | undefined, model: string, scenario: PriceOverride | undefined): { prices?: PriceOverride } {
  const prices = (file !== undefined ? priceOverrideFor(file, model) : undefined) ?? scenario;
  return prices !== undefined ? { prices } : {};
}

/** Every label an `identicalRows` entry names is one of the scenario's strategies. */
function checkIdenticalRows(specs: StrategySpec[], entries: ScenarioFile['identicalRows'], file: string): StrategySpec[] {
  const labels = new Set(specs.map((s) => s.label));
  (entries ?? []).forEach((entry, i) =>
    entry.strategies.forEach((label, j) => {
      if (!labels.has(label)) throw new InputError({ file, field: `identicalRows.${i}.strategies.${j}` }, `"${label}" is not one of the scenario's strategies`);
    }),
  );
  return specs;
}

/** The word that, as `probes:`, asks for generated probes rather than naming a side file. */
const GENERATE = 'generate';

/**
 * The scenario's probe sources: a side file (absolute path) and/or generation options. A real log
 * (one an importer read) holds no probes of its own: without `probes:` they are generated from it,
 * as for a log named on the command line, so that recall is measured by default (issue 34).
 */
function resolveProbes(loaded: LoadedScenario, transcript: TranscriptFacts): Pick<Scenario, 'probesFile' | 'probesGenerate'> {
  const probes = loaded.data.probes;
  if (probes === undefined) return isRealLog(transcript) ? { probesGenerate: {} } : {};
  if (typeof probes === 'string') {
    return probes === GENERATE ? { probesGenerate: {} } : { probesFile: resolveRelative(loaded.file, probes) };
  }
  return {
    ...(probes.file !== undefined ? { probesFile: resolveRelative(loaded.file, probes.file) } : {}),
    ...(probes.generate !== undefined ? { probesGenerate: probes.generate === true ? {} : { ...probes.generate } } : {}),
  };
}

/** An agent's own log (read by an importer: its format is one's name) with no probe events: what `probes: generate` is the default for. */
function isRealLog(transcript: TranscriptFacts): boolean {
  const format = transcript.header.source?.format;
  return format !== undefined && importerNames().includes(format) && !transcript.events.some((event) => event.type === 'probe');
}

/** Turns the scenario's strategy entries into specs; none listed means every registered strategy. */
function resolveSpecs(entries: unknown[] | undefined, file: string): StrategySpec[] {
  const specs = expandAll(entries ?? [ALL_STRATEGIES]).map(([entry, field]) => toSpec(entry, file, field));
  const seen = new Set<string>();
  specs.forEach((spec, i) => {
    if (seen.has(spec.label)) throw new InputError({ file, field: `strategies.${i}.label` }, `duplicate strategy label "${spec.label}"`);
    seen.add(spec.label);
  });
  return specs;
}

/** The entry `all` in a scenario's strategy list: every registered strategy with its defaults. */
const ALL_STRATEGIES = 'all';

/**
 * Expands `all` into every registered strategy not listed elsewhere under its own name, so a
 * scenario can add tuned variants beside the defaults and still pick up new strategies.
 */
function expandAll(entries: unknown[]): [unknown, string][] {
  const listed = new Set(entries.filter((e): e is string => typeof e === 'string'));
  return entries.flatMap((entry, i): [unknown, string][] => {
    if (entry !== ALL_STRATEGIES) return [[entry, `strategies.${i}`]];
    return strategyNames()
      .filter((name) => !listed.has(name))
      .map((name) => [name, `strategies.${i}`]);
  });
}

function toSpec(entry: unknown, file: string, field: string): StrategySpec {
  if (typeof entry === 'string') return { label: entry, strategy: entry, options: {} };
  const e = entry as ExternalEntry;
  const external = externalSpec(e, file, field);
  if (external !== undefined) return external;
  if (e.pipeline !== undefined) {
    const stages = e.pipeline.map((s, i) => toSpec(s, file, `${field}.pipeline.${i}`));
    return { label: e.label ?? stages.map((s) => s.label).join('+'), strategy: 'pipeline', options: e.options ?? {}, stages };
  }
  if (e.strategy === undefined)
    throw new InputError({ file, field: `${field}.strategy` }, 'a strategy entry needs `strategy`, `pipeline`, `module` or `command`');
  return { label: e.label ?? e.strategy, strategy: e.strategy, options: e.options ?? {} };
}

function selectStrategies(specs: StrategySpec[], wanted: string[] | undefined): StrategySpec[] {
  if (wanted === undefined || wanted.length === 0) return specs;
  return wanted.flatMap((name) => {
    const matches = specs.filter((s) => s.label === name || s.strategy === name);
    return matches.length > 0 ? matches : [{ label: name, strategy: name, options: {} }];
  });
}

/** Adds the `--strategy-module` strategies: beside a `--strategies` selection, else alone. */
function withModules(selected: StrategySpec[], overrides: ScenarioOverrides, file: string): StrategySpec[] {
  const paths = overrides.strategyModules ?? [];
  if (paths.length === 0) return selected;
  const specs = [
    ...(overrides.strategies !== undefined && overrides.strategies.length > 0 ? selected : []),
    ...paths.map((path) => moduleSpec(path, undefined, {})),
  ];
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec.label))
      throw new InputError({ file, field: 'strategies' }, `two strategies are labelled "${spec.label}" (a --strategy-module is named after its file)`);
    seen.add(spec.label);
  }
  return specs;
}
