/**
 * `ctxbench/check`: what sits on top of runs: gating a run against a baseline, sweeping options,
 * joining shards, token-accounting fidelity against recorded usage, and the recommendation (the
 * strategy to ship under an objective and constraints).
 */
export { checkRun, compareResults, readResultFile, DEFAULT_CHECK_RULES, type CheckReport, type CheckRules, type CheckOptions } from '../check/index.js';
export { runSweep, type SweepOptions, type SweepResult } from '../sweep/run.js';
export { paretoFront } from '../sweep/pareto.js';
export { recommend, DEFAULT_DECISION, type DecisionOptions, type DecisionRow } from '../metrics/recommend.js';
export { recommendRun } from '../run/recommend-run.js';
export { mergeShards } from '../run/shard.js';
export { measureFidelity } from '../fidelity/measure.js';
export { renderFidelity } from '../fidelity/render.js';
