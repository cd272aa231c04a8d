/**
 * `ctxbench/check`: what sits on top of runs: gating a run against a baseline, sweeping options,
 * joining shards, and token-accounting fidelity against recorded usage.
 */
export { checkRun, compareResults, readResultFile, DEFAULT_CHECK_RULES, type CheckReport, type CheckRules, type CheckOptions } from '../check/index.js';
export { runSweep, type SweepOptions, type SweepResult } from '../sweep/run.js';
export { paretoFront, recommend } from '../sweep/pareto.js';
export { mergeShards } from '../engine/shard.js';
export { measureFidelity } from '../fidelity/measure.js';
export { renderFidelity } from '../fidelity/render.js';
