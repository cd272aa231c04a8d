/**
 * A strategy from outside the registry failed (a policy process crashed, hung or wrote garbage; a
 * module threw): the engine ends that unit as crashed with this message, and the run goes on.
 */
export class StrategyFailedError extends Error {
  /** The policy refused its options at the handshake: bad input rather than a broken policy. */
  readonly isOptionsError: boolean;
  constructor(message: string, isOptionsError = false) {
    super(message);
    this.isOptionsError = isOptionsError;
    this.name = 'StrategyFailedError';
  }
}
