import type { StrategyEnv } from '../strategies/types.js';
import type { TranscriptEvent } from '../transcript/types.js';
import type { ContextDiff } from '../transcript/context-diff.js';
import type { StepRecord } from '../metrics/run-events.js';
import type { StepContext } from './step.js';
import type { UnitProbeResult } from '../metrics/types.js';
import type { NeededFigures } from '../metrics/needed.js';

/** Recall figures a measurement observer reports for the summary. */
export interface ProbeFigures {
  retention: number | null;
  answerRecall: number | null;
  count: number | null;
  /** Ask points never reached: the session crashed or ended first. */
  unanswered?: number | null;
  /** Ask points left out as invalid (the reader failed on `full`'s context there). */
  invalid?: number | null;
  /** Answer recall under the reader's context-length effect; present only when it was on. */
  answerRecallRot?: number | null;
  /** The needed-fact figures (metrics/needed.ts); absent when the probe set has no needed facts. */
  needed?: NeededFigures;
  /** Answer recall over the ask points whose fact is needed later; absent likewise. */
  answerRecallNeeded?: number | null;
  /** The detail kept in the result (answers, retention curves). */
  detail?: UnitProbeResult;
}

/**
 * Measurement hooks of a unit run (probes, retention curves). They see what the strategy sends
 * but never change it.
 */
export interface UnitObserver {
  /**
   * Once, before the first event, with the unit's step context: measurement calls (probe
   * questions) go through its gateway, on its clock, beside its events.
   */
  onStart?(ctx: StepContext): void;
  /** After each transcript event was observed by the strategy. */
  onEvent?(event: TranscriptEvent, env: StrategyEnv): void;
  /**
   * After each step, with the diff of the context that was sent (the last attempt's, `sent.after`)
   * from the context of the request before.
   */
  onStep?(record: StepRecord, sent: ContextDiff, env: StrategyEnv): Promise<void> | void;
  /** At the end of the session; returns the recall figures of the summary. */
  onEnd?(ctx: StepContext, env: StrategyEnv): Promise<ProbeFigures | undefined>;
}
