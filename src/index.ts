/**
 * ctxbench, the library. The CLI is a thin translator over these functions.
 */
export { runSuite, prepareScenarios, type RunOptions, type PreparedScenario } from './engine/run-suite.js';
export { runUnit, type UnitInput } from './engine/run-unit.js';
export type { RunEvent, StepRecord } from './engine/types.js';
export type { UnitObserver } from './engine/observer.js';
export { strategies, getStrategy, strategyNames } from './strategies/index.js';
export type { Strategy, StrategyEnv, StrategyAction } from './strategies/types.js';
export { describeOptions } from './strategies/describe.js';
export type { Scenario, StrategySpec } from './scenario/types.js';
export { loadScenarioFile, expandScenarioPaths } from './scenario/load.js';
export { resolveScenario, type ScenarioOverrides } from './scenario/resolve.js';
export type * from './transcript/types.js';
export { readTranscript } from './transcript/read.js';
export { serializeTranscript, writeTranscript } from './transcript/write.js';
export { generateSession } from './transcript/synthetic.js';
export { loadTranscript } from './transcript/load.js';
export { createProvider } from './providers/index.js';
export { installSimulator } from './providers/mock.js';
export type { Provider, CompletionRequest, CompletionResult, Failure } from './providers/types.js';
export { createTokenizer, encodingForModel, countTokens } from './tokens/tokenizer.js';
export type { RunResult, SummaryRow, UnitResult } from './metrics/types.js';
export { renderReports, reporterNames } from './report/index.js';
export { writeReportFiles } from './report/write.js';
export { HarnessError, InputError, UsageError, ConfigError, GateError } from './errors.js';
export { VERSION } from './version.js';
export { checkRun, compareResults, readResultFile, DEFAULT_CHECK_RULES, type CheckReport, type CheckRules, type CheckOptions } from './check/index.js';
export { runSweep, type SweepOptions, type SweepResult } from './sweep/run.js';
export { parseGridFlag, choosePoints } from './sweep/grid.js';
export { paretoFront, recommend } from './sweep/pareto.js';
export { parseShard, mergeShards } from './engine/shard.js';
export { measureFidelity } from './fidelity/measure.js';
export { renderFidelity } from './fidelity/render.js';
export { importTranscript, detectFormat, importers, importerNames } from './transcript/importers/index.js';
export { generateProbes } from './probes/generate.js';
export { loadProbeFile } from './probes/load.js';
export { gradeAnswer } from './probes/grade.js';
export { createProbeObserver } from './probes/observer.js';
