/**
 * A scenario made ready to run: its transcript or logs read, its strategies resolved, its probes
 * given, generated or left for later (`completeProbes`), its needed facts found. What a unit runs
 * on (execute-unit.ts), made once per scenario and thread.
 */
import type { LoadedScenario } from '../scenario/load.js';
import type { ScenarioOverrides } from '../scenario/resolve.js';
import type { PreparedLog, PreparedScenario } from './prepared-scenario.js';
import type { Scenario } from '../scenario/types.js';
import { InputError } from '../errors.js';
import type { Transcript } from '../transcript/types.js';
import { importClaudeSidechains } from '../transcript/claude-sidechains.js';
import { displayPath } from '../paths.js';
import { listTranscriptLogs } from '../scenario/load.js';
import { resolveScenario, scenarioSeed, transcriptSource } from '../scenario/resolve.js';
import { loadTranscript } from '../scenario/load-transcript.js';
import { joinGenerated, loadGivenProbes, loadJudgeRubric, mayClashWithGenerated, withGeneratedProbes } from '../probes/load.js';
import type { GenerateOptions } from '../probes/generate.js';
import type { Probe } from '../transcript/types.js';
import { prepareProbeSet } from '../probes/probe-set.js';
import { extractNeededUses } from '../probes/needed/extract.js';
import type { NeededUse } from '../probes/needed/types.js';
import type { ShardSpec } from './shard.js';
import { hashCorpusFiles, isFileCorpus, keepShardLogs, logsToRead, type CorpusFile } from './corpus-files.js';
import { resolveStrategy } from '../replay/resolve-strategy.js';
import { loadStrategyModules } from '../strategies/external/module-loader.js';

/** How a scenario is prepared. */
export interface PrepareOptions {
  /**
   * Leave `probes: generate` for `completeProbes` (run-suite.ts generates them while the first
   * units run): generating is derived work that cannot meet bad input, and it was most of the
   * serial start of a run. A scenario whose own probe ids could clash with generated ones still
   * generates at once, so that the clash stops the run before anything runs.
   */
  deferGenerated?: boolean;
  /**
   * A shard of the run (`run --shard i/n`): of a corpus of logs one file each
   * (run/corpus-files.ts), read in full only the logs the shard replays and the first (its header
   * resolves the scenario); the others are only hashed. Absent: every log is read.
   */
  shard?: ShardSpec;
}

/**
 * Generates the probes of one log elsewhere (a worker thread, run/workers.ts): `generateProbes` of
 * the transcript with the scenario's `probes: generate` options, the same probes, and when there
 * are some the log's needed facts (`extractNeededUses`, a pure function of the transcript), which
 * their probe set is resolved with: made there, they are not made on this thread.
 */
export type ProbeGenerator = (transcript: Transcript, options: GenerateOptions) => Promise<GeneratedProbes>;

/** What a `ProbeGenerator` makes of a log: its generated probes and, when there are some, its needed facts. */
export interface GeneratedProbes {
  probes: Probe[];
  needed?: NeededUse[];
}

/** Scenarios whose generated probes were left for later: what makes them, and the making once begun. */
const deferredProbes = new WeakMap<PreparedScenario, { finish: (generate?: ProbeGenerator) => Promise<void>; done?: Promise<void> }>();

/**
 * Resolves a loaded scenario against its transcript, validates its strategies and resolves its
 * probes: everything a unit of it needs, in memory (but generated probes, with `deferGenerated`).
 */
export async function prepareLoadedScenario(loaded: LoadedScenario, overrides: ScenarioOverrides, options: PrepareOptions = {}): Promise<PreparedScenario> {
  const seed = scenarioSeed(loaded, overrides);
  const source = transcriptSource(loaded, overrides);
  const logFiles = loaded.logFiles ?? (source.kind === 'file' ? await listTranscriptLogs(source.path, loaded.file, source.format) : undefined);
  const withSidechains = loaded.data.sidechains === 'include';
  if (source.kind === 'file' && (logFiles !== undefined || withSidechains)) {
    const files = logFiles ?? [source.path];
    const corpus = isFileCorpus(files, withSidechains) ? await hashCorpusFiles(files) : undefined;
    // A shard reads its own logs of a corpus, and the first; the corpus's files name the rest.
    const read = corpus !== undefined && options.shard !== undefined ? logsToRead(files.length, options.shard) : undefined;
    const chosen = read === undefined ? files : read.map((i) => files[i] as string);
    const logs = await loadLogs(loaded.file, chosen, { lenient: source.lenient, withSidechains, format: source.format });
    return prepareLogs(loaded, overrides, logs, options, corpus === undefined ? undefined : { files: corpus, read });
  }
  const transcript = await loadTranscript(source, seed);
  const scenario = resolveScenario(loaded, transcript, overrides);
  await loadStrategyModules(scenario.strategies, scenario.file);
  for (const spec of scenario.strategies) resolveStrategy(spec, scenario.file);
  const given = await loadGivenProbes(scenario, transcript);
  const prepared: PreparedScenario = { scenario, transcript, ...(given.length > 0 ? { givenProbes: given } : {}) };
  const finish = async (): Promise<void> => {
    const probes = withGeneratedProbes(scenario, transcript, given);
    if (probes.length === 0) return;
    prepared.probes = prepareProbeSet(transcript, probes, extractNeededUses(transcript));
    if (scenario.judge) prepared.judgeRubric = await loadJudgeRubric();
  };
  return settle(prepared, finish, defers(scenario, [given], options));
}

/** Whether a scenario's generated probes wait for `completeProbes`. */
const defers = (scenario: Scenario, given: readonly Probe[][], options: PrepareOptions): boolean =>
  options.deferGenerated === true && scenario.probesGenerate !== undefined && !given.some(mayClashWithGenerated);

async function settle(prepared: PreparedScenario, finish: (generate?: ProbeGenerator) => Promise<void>, defer: boolean): Promise<PreparedScenario> {
  if (defer) deferredProbes.set(prepared, { finish });
  else await finish();
  return prepared;
}

/**
 * Makes the probes `prepareLoadedScenario` left for later (none: nothing to do), once however many
 * ask; a scenario of several logs yields to the event loop between them, so that a thread waiting
 * for its next unit is not held up. With `generate`, a scenario of several logs has its logs'
 * probes generated there (worker threads, each log as one is free) and resolves them here.
 */
export function completeProbes(prepared: PreparedScenario): Promise<void> {
  return completeProbesWith(prepared, undefined);
}

/** `completeProbes`, a scenario of several logs generating its logs' probes with `generate` (none: here). */
export function completeProbesWith(prepared: PreparedScenario, generate: ProbeGenerator | undefined): Promise<void> {
  const deferred = deferredProbes.get(prepared);
  if (deferred === undefined) return Promise.resolve();
  deferred.done ??= deferred.finish(generate);
  return deferred.done;
}

/**
 * A scenario of several logs: each is loaded and gets its own probes; the first log's header
 * resolves the scenario (provider, model), so the logs of one scenario should come from one agent.
 */
async function prepareLogs(
  loaded: LoadedScenario,
  overrides: ScenarioOverrides,
  loadedLogs: { file: string; transcript: Transcript }[],
  options: PrepareOptions,
  corpus?: { files: CorpusFile[]; read: readonly number[] | undefined },
): Promise<PreparedScenario> {
  const logs: PreparedLog[] = [];
  const given: Probe[][] = [];
  let scenario: Scenario | undefined;
  for (const { file, transcript } of loadedLogs) {
    scenario ??= resolveScenario(loaded, transcript, overrides);
    if (scenario.probesFile !== undefined) {
      throw new InputError({ file: loaded.file, field: 'probes' }, 'a probe file answers one transcript; a scenario of several logs takes `probes: generate`');
    }
    given.push(await loadGivenProbes(scenario, transcript));
    logs.push({ file, transcript });
  }
  const first = logs[0];
  if (scenario === undefined || first === undefined) throw new InputError({ file: loaded.file, field: 'transcript' }, 'no transcript to replay');
  await loadStrategyModules(scenario.strategies, scenario.file);
  for (const spec of scenario.strategies) resolveStrategy(spec, scenario.file);
  const resolved = scenario;
  const prepared: PreparedScenario = { scenario, transcript: first.transcript, logs, ...(corpus !== undefined ? { corpusFiles: corpus.files } : {}) };
  if (corpus?.read !== undefined) keepShardLogs(prepared, corpus.read, options.shard as ShardSpec);
  const givenOf = new Map(logs.map((log, i) => [log, given[i] ?? []]));
  const finish = async (generate?: ProbeGenerator): Promise<void> => {
    // The logs kept by then: a shard of a corpus keeps its own (run-suite.ts) and makes their probes only.
    const kept = prepared.logs ?? [];
    // Every log's generation is asked for at once (the threads take them in turn); each log's set is resolved here in order.
    const options = resolved.probesGenerate;
    const generated = generate === undefined || options === undefined ? undefined : kept.map((log) => generate(log.transcript, options));
    // A failure is raised where its log is awaited; the logs after it are then not awaited at all.
    for (const pending of generated ?? []) pending.catch(() => undefined);
    for (const [i, log] of kept.entries()) {
      const pending = generated?.[i];
      const own = givenOf.get(log) ?? [];
      const made = await pending;
      const probes = made === undefined ? withGeneratedProbes(resolved, log.transcript, own) : joinGenerated(resolved, own, made.probes);
      if (probes.length > 0) log.probes = prepareProbeSet(log.transcript, probes, made?.needed ?? extractNeededUses(log.transcript));
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (resolved.judge && kept.some((log) => log.probes !== undefined)) prepared.judgeRubric = await loadJudgeRubric();
  };
  return settle(prepared, finish, defers(scenario, given, options));
}

/**
 * Each log file's transcript, followed (with `sidechains: include`) by its subagent conversations.
 * The scenario's `format`, when it names one, is the format of every file of a folder or pattern.
 */
async function loadLogs(
  scenarioFile: string,
  files: readonly string[],
  options: { lenient: boolean; withSidechains: boolean; format?: string | undefined },
): Promise<{ file: string; transcript: Transcript }[]> {
  const { lenient, withSidechains, format } = options;
  const logs: { file: string; transcript: Transcript }[] = [];
  for (const file of files) {
    const transcript = await loadTranscript({ kind: 'file', path: file, lenient, ...(format !== undefined ? { format } : {}) }, 0);
    logs.push({ file, transcript });
    if (!withSidechains) continue;
    if (transcript.header.source?.format !== 'claude-code') {
      throw new InputError(
        { file: scenarioFile, field: 'sidechains' },
        `only Claude Code logs have subagent sidechains; ${displayPath(file)} is ${transcript.header.source?.format ?? 'a canonical transcript'}`,
      );
    }
    for (const sidechain of await importClaudeSidechains(file, { lenient })) logs.push({ file, transcript: sidechain });
  }
  return logs;
}
