import type { Failure } from '../contracts/provider.js';
import { foreignRedirectOf } from './no-redirect.js';

/**
 * The bounds of one live request: the run's stop signal (SIGINT / SIGTERM) and the request's
 * own time limit (`--request-timeout`). Both abort the SDK call; they end differently: a stop
 * throws `RequestStopped` (the unit in flight is dropped, the run writes what finished), a time
 * limit is a `network` failure the retry policy sees like any other.
 */
export interface RequestBounds {
  /** Aborts when the run stops or the time limit passes; undefined when there is neither. */
  signal: AbortSignal | undefined;
  /** What the SDK threw, as this request's outcome: throws RequestStopped when the run stopped. */
  failureOf(error: unknown, classify: (error: unknown) => Failure): Failure;
}

/** Thrown by a live provider whose request the run's stop signal aborted: not a provider failure. */
class RequestStopped extends Error {
  constructor(reason: unknown) {
    super(`the run was stopped (${String(reason)}): the request in flight was aborted`);
    this.name = 'RequestStopped';
  }
}

export function boundRequest(stop: AbortSignal | undefined, timeoutMs: number | undefined): RequestBounds {
  const timer = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const signals = [stop, timer].filter((signal): signal is AbortSignal => signal !== undefined);
  const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  return {
    signal,
    failureOf(error, classify) {
      if (stop?.aborted === true) throw new RequestStopped(stop.reason);
      if (timer?.aborted === true) return { kind: 'network', message: `no answer within ${formatSeconds(timeoutMs ?? 0)} (--request-timeout)`, timedOut: true };
      if (error instanceof SyntaxError) return malformedBody(error.message);
      const redirect = foreignRedirectOf(error);
      if (redirect !== undefined) return { kind: 'bad-request', message: redirect.message, status: redirect.status };
      return classify(error);
    },
  };
}

/** A 200 whose body is not a completion (broken JSON, an HTML page): the provider's fault. */
export function malformedBody(detail: string): Failure {
  return { kind: 'server', message: `malformed response: the body is not a completion (${detail.slice(0, 200)})`, malformed: true };
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
