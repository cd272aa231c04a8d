/**
 * Needed facts (docs/probes.md): the specifics a session's own future used. A pure function of
 * the transcript decides which they are (`extract.ts`); the replay measures, at the step of each
 * use, whether the context a strategy sent held the fact (`measure.ts`).
 */

/** What kind of specific a needed fact is. Read from its shape, never from one language's words. */
export type NeededKind = 'path' | 'identifier' | 'number' | 'quoted' | 'error' | 'command' | 'constraint';

/** One use of a fact: an assistant message or tool call at `useStep` that uses a specific seen earlier. */
export interface NeededUse {
  /** The specific, verbatim as the using message wrote it. */
  readonly fact: string;
  readonly kind: NeededKind;
  /** Index, in the transcript's message list, of the last earlier message that held the fact. */
  readonly sourceIndex: number;
  /** The step (model call) before which that message was sent. */
  readonly sourceStep: number;
  /** Index of the assistant message (its text or a tool call's arguments) that used the fact. */
  readonly useIndex: number;
  /** The step whose completion is that message: the context sent at this step must hold the fact. */
  readonly useStep: number;
}

/**
 * Where a strategy's context held a needed fact at the step of its use: verbatim (`kept`), only
 * inside a summary or recap the strategy wrote (`summarized`), behind a reference, archive key or
 * a file or command it can re-read (`recoverable`), not at all (`lost`), or the unit crashed
 * before that step (`unanswered`).
 */
export type NeededOutcome = 'kept' | 'summarized' | 'recoverable' | 'lost' | 'unanswered';
