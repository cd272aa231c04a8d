import type { Clock } from './types.js';
import type { Attempt, Gateway } from './gateway.js';

/**
 * Waits before retrying `attempt` and returns the ms waited, by which the virtual clock has
 * moved. Mocked, and for a refusal the gateway made itself, the wait is `delayMs` of virtual time
 * and costs no wall time. Live, a provider's refusal is waited out for real (`gateway.sleep`) and
 * the time measured is what is charged and reported.
 */
export async function waitToRetry(gateway: Gateway, clock: Clock, delayMs: number, attempt: Attempt, reason?: string): Promise<number> {
  const ms = gateway.sleep !== undefined && attempt.sent === true ? await gateway.sleep(delayMs, reason) : delayMs;
  clock.advance(ms);
  return ms;
}

/**
 * For calls off the agent's clock (measurement without quota): live, a provider's refusal is still
 * waited out for real, so that the provider is not hammered; mocked, the retry is immediate.
 */
export async function pauseToRetry(gateway: Gateway, delayMs: number, attempt: Attempt): Promise<void> {
  if (gateway.sleep !== undefined && attempt.sent === true) await gateway.sleep(delayMs);
}

/**
 * Why a live retry of `attempt` is not waited for: the provider asks for longer than the run
 * allows (`--max-retry-wait`), so the call ends at once with its failure rather than after a wait
 * that would stall the run (a `retry-after: 999999`). Undefined when the wait is allowed, and
 * always in mocked mode or for a refusal the gateway made itself, whose waits are virtual.
 */
export function refuseLongWait(gateway: Gateway, delayMs: number, attempt: Attempt): string | undefined {
  if (gateway.maxWaitMs === undefined || gateway.sleep === undefined || attempt.sent !== true || delayMs <= gateway.maxWaitMs) return undefined;
  return `the retry would wait ${seconds(delayMs)}, longer than --max-retry-wait (${seconds(gateway.maxWaitMs)}): not waited`;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
