/**
 * A strategy from outside the registry failed (a policy process crashed, hung or wrote garbage; a
 * module threw): the engine ends that unit as crashed with this message, and the run goes on.
 */
export class StrategyFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StrategyFailedError';
  }
}
