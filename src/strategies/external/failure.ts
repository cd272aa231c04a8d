/**
 * A strategy from outside the registry failed (a policy process crashed, hung or wrote garbage; a
 * module threw, returned no message list or did not return in time): the engine ends that unit as
 * crashed with this message and kind, and the run goes on.
 */
export class StrategyFailedError extends Error {
  /** The policy refused its options at the handshake: bad input rather than a broken policy. */
  readonly isOptionsError: boolean;
  /** `strategy-timeout` when a hook did not answer within its time limit, else `strategy`. */
  readonly kind: 'strategy' | 'strategy-timeout';
  constructor(message: string, isOptionsError = false, kind: 'strategy' | 'strategy-timeout' = 'strategy') {
    super(message);
    this.isOptionsError = isOptionsError;
    this.kind = kind;
    this.name = 'StrategyFailedError';
  }
}

/**
 * A strategy wrote to a message that had entered a run (frozen, transcript/freeze.ts): one of the
 * transcript's, or one it made itself and sent at an earlier step. `verify` reports it as the
 * `in-place-edit` invariant.
 */
export class MessageEditedError extends StrategyFailedError {
  constructor(message: string) {
    super(message);
    this.name = 'MessageEditedError';
  }
}
