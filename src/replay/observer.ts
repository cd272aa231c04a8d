import type { StrategyEnv } from '../strategies/types.js';
import type { TranscriptEvent } from '../transcript/types.js';
import type { ContextDiff } from '../transcript/context-diff.js';
import type { StepRecord } from '../metrics/run-events.js';
import type { StepContext } from './step.js';
import type { UnitProbeResult } from '../metrics/types.js';
import type { ProbeFigures } from '../metrics/summarize.js';

/** Recall figures a measurement observer reports for the summary, with the detail kept in the result. */
export interface ObservedProbeFigures extends ProbeFigures {
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
  onEnd?(ctx: StepContext, env: StrategyEnv): Promise<ObservedProbeFigures | undefined>;
}
