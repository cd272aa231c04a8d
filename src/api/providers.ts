/**
 * `ctxbench/providers`: live providers, the simulated model (a mocked run's provider), the
 * provider contract, and the tokenizers and their calibration.
 */
export { createProvider } from '../providers/index.js';
export { createSimulator } from '../simulator/transport.js';
export type { Provider, CompletionRequest, CompletionResult, Failure } from '../contracts/provider.js';
export { createTokenizer, encodingForModel, countTokens, tokenizerForModel } from '../tokens/tokenizer.js';
export { DEFAULT_CALIBRATION, calibrationFor, calibrationFamily } from '../tokens/calibration.js';
