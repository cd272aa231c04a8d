/**
 * `ctxbench/strategies`: the strategy API (docs/strategy-api.md), stable; a change gets a
 * CHANGELOG.md entry. The registry, the contract's types, option validation, the history helper,
 * conformance (`verify`) and policy processes (docs/process-protocol.md).
 */
export { strategies, getStrategy, strategyNames } from '../strategies/index.js';
export type { Strategy, StrategyEnv, StrategyAction, StrategyModelCall, Archive, RecoverDecision } from '../strategies/types.js';
export { optionsFromValidate, type ValidateOptions, type OptionsValidation } from '../strategies/external/options.js';
export { createHistory, applyToHistory, type History } from '../strategies/helpers/history.js';
export { StrategyFailedError } from '../strategies/external/failure.js';
export { checkConformance, driveStrategy, conformanceSession, type Violation, type InvariantName } from '../replay/conformance.js';
export { createProcessStrategy, type PolicyCommand } from '../strategies/external/process-strategy.js';
export { PROTOCOL_VERSION } from '../strategies/external/protocol.js';
export { describeOptions } from '../strategies/helpers/describe.js';
export type { StrategySpec, ExternalStrategySource } from '../scenario/types.js';
