import type { ProviderName } from '../contracts/provider.js';
import type { PacingModel, QuotaLimits, RetryPolicy } from '../quota/types.js';
import type { StrategySpec } from '../strategies/types.js';
import type { CacheEstimate } from '../cache/families.js';
import type { ContextRotCurve } from './context-rot.js';

export type { StrategySpec, ExternalStrategySource } from '../strategies/types.js';

/** Where a scenario's transcript comes from: a file, or the seeded synthetic generator. */
export type TranscriptSource = { kind: 'file'; path: string; lenient: boolean; format?: string } | { kind: 'synthetic'; options: Record<string, unknown> };

export type OnCrash = 'stop' | 'continue';

/** A validated, resolved scenario: every default filled, every path absolute. */
export interface Scenario {
  name: string;
  file: string;
  description?: string;
  /** A stress test: reported, never averaged into the recommendation (docs/scenarios.md). */
  stress?: true;
  transcript: TranscriptSource;
  /** Side file of probes, absolute path. */
  probesFile?: string;
  /** Generate probes from the transcript at load time (probes/generate.ts options). */
  probesGenerate?: { max?: number; seed?: number; askAfter?: number };
  provider: ProviderName;
  model: string;
  window: number;
  /** How an implicit prompt cache is billed (src/cache/families.ts); explicit caches are exact either way. */
  promptCache: CacheEstimate;
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
  /**
   * The reader's context-length effect (`reader.contextRot`, probes/context-rot.ts): each correct
   * answer is also graded under it, reported apart (`answer_recall_rot`). Absent: off.
   */
  contextRot?: ContextRotCurve;
  /** USD per million tokens overriding the price table for `model` (cached input and writes default to input). */
  prices?: { input: number; cachedInput?: number; cacheWrite?: number; output: number };
  /**
   * Live runs only: after its deterministic grade, every probe answer is also scored by the LLM
   * judge (probes/judge.ts, rubric in docs/judge-rubric.md). A mocked run refuses it.
   */
  judge: boolean;
  strategies: StrategySpec[];
}
