import type { ProviderName } from '../contracts/provider.js';
import type { PacingModel, QuotaLimits, RetryPolicy } from '../sim/types.js';

/** A strategy as a scenario names it: a registered strategy with options, or a pipeline. */
export interface StrategySpec {
  /** Label in reports (defaults to the strategy name; must be unique in a scenario). */
  label: string;
  /** Registered strategy name, or `pipeline`. */
  strategy: string;
  options: Record<string, unknown>;
  /** For `pipeline`: the stages, each seeing the output of the previous one. */
  stages?: StrategySpec[];
  /** A strategy from outside the registry (docs/strategy-api.md, docs/process-protocol.md); `strategy` is then its label. */
  source?: ExternalStrategySource;
}

/**
 * Where a strategy that is not registered comes from: a JS module exporting a `Strategy`, or a
 * command started per unit that speaks the JSON-lines process protocol. Plain data, so a planned
 * unit still crosses to a worker thread, which loads or starts it by path itself.
 */
export type ExternalStrategySource =
  | { kind: 'module'; path: string }
  | { kind: 'command'; argv: string[]; cwd: string; timeoutMs: number };

/** Where a scenario's transcript comes from: a file, or the seeded synthetic generator. */
export type TranscriptSource =
  | { kind: 'file'; path: string; lenient: boolean; format?: string }
  | { kind: 'synthetic'; options: Record<string, unknown> };

export type OnCrash = 'stop' | 'continue';

/** A validated, resolved scenario: every default filled, every path absolute. */
export interface Scenario {
  name: string;
  file: string;
  description?: string;
  transcript: TranscriptSource;
  /** Side file of probes, absolute path. */
  probesFile?: string;
  /** Generate probes from the transcript at load time (probes/generate.ts options). */
  probesGenerate?: { max?: number; seed?: number };
  provider: ProviderName;
  model: string;
  window: number;
  maxOutputTokens: number;
  /** The agent's hidden prefix: estimated from recorded usage (`auto`, also when absent) or given in tokens. */
  hiddenPrefix?: 'auto' | number;
  quota: QuotaLimits;
  retry: RetryPolicy;
  pacing: PacingModel;
  seed: number;
  onCrash: OnCrash;
  /** Mocked mode: faults the simulated model injects at seeded rates per call. */
  faults?: { server500?: number; unavailable503?: number; timeout?: number; malformed?: number };
  /** Whether probe calls count against the agent's quota. */
  probesUseQuota: boolean;
  /** USD per million tokens overriding the price table for `model` (cached input and writes default to input). */
  prices?: { input: number; cachedInput?: number; cacheWrite?: number; output: number };
  /**
   * Live runs only: after its deterministic grade, every probe answer is also scored by the LLM
   * judge (probes/judge.ts, rubric in docs/judge-rubric.md). A mocked run refuses it.
   */
  judge: boolean;
  strategies: StrategySpec[];
}
