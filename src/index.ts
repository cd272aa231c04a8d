/**
 * ctxbench, the library: what most hosts need, from the package root. The CLI is a thin
 * translator over these functions. The rest of the public API is in subpaths, one per subject
 * (`package.json` `exports`): `ctxbench/strategies` (the whole strategy API, conformance and
 * policy processes), `ctxbench/transcript` (events, reading, writing, synthetic sessions),
 * `ctxbench/importers`, `ctxbench/reports` (renderers, writing, redaction), `ctxbench/check`
 * (gating, sweeps, shards, fidelity) and `ctxbench/providers` (providers, simulator, tokenizers).
 * `test/api/exports.test.ts` holds every entry's export list: a change to it is a conscious one.
 */
// Run
export { runSuite, type RunOptions } from './run/run-suite.js';
export { runUnit, type UnitInput } from './replay/run-unit.js';
export { loadScenarioFile } from './scenario/load.js';
export type { ScenarioOverrides } from './scenario/resolve.js';
export type { Scenario, StrategySpec } from './scenario/types.js';
// Strategies
export { strategies, getStrategy, strategyNames } from './strategies/index.js';
export type { Strategy, StrategyEnv, StrategyAction, StrategyModelCall } from './strategies/types.js';
// Transcripts and importers
export { importTranscript, detectFormat, importerNames } from './transcript/importers/index.js';
export { loadTranscript } from './scenario/load-transcript.js';
export type { Transcript, TranscriptEvent, MessageEvent, ContextMessage, Probe } from './transcript/types.js';
// Results and reports
export type { RunResult, SummaryRow, UnitResult } from './metrics/types.js';
export type { RunEvent, StepRecord } from './metrics/run-events.js';
export type { Recommendation } from './metrics/recommendation.js';
export { renderReports, reporterNames } from './report/index.js';
export { writeReportFiles } from './report/write.js';
export { checkRun, type CheckReport } from './check/index.js';
// Errors and version
export { HarnessError, InputError, UsageError } from './errors.js';
export { VERSION } from './version.js';
