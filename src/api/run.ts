/**
 * `ctxbench/run`: running scenarios beyond `runSuite`: preparing them once, replaying one unit with
 * an observer of its own, and resolving a scenario's defaults.
 */
export { runSuite, prepareScenarios, type RunOptions } from '../run/run-suite.js';
export type { PreparedScenario } from '../run/prepared-scenario.js';
export { runUnit, type UnitInput } from '../replay/run-unit.js';
export type { UnitObserver } from '../replay/observer.js';
export type { ContextChange, ContextDiff } from '../transcript/context-diff.js';
export { createProbeObserver } from '../replay/probe-observer.js';
export { loadScenarioFile, expandScenarioPaths } from '../scenario/load.js';
export { resolveScenario, type ScenarioOverrides } from '../scenario/resolve.js';
export type { Scenario, StrategySpec, ExternalStrategySource } from '../scenario/types.js';
export type { RunEvent, StepRecord } from '../metrics/run-events.js';
