import type { Clock } from './types.js';
import type { Attempt, Gateway } from './gateway.js';

/**
 * Waits before retrying `attempt` and returns the ms waited, by which the virtual clock has
 * moved. Mocked, and for a refusal the gateway made itself, the wait is `delayMs` of virtual time
 * and costs no wall time. Live, a provider's refusal is waited out for real (`gateway.sleep`) and
 * the time measured is what is charged and reported.
 */
export async function waitToRetry(gateway: Gateway, clock: Clock, delayMs: number, attempt: Attempt): Promise<number> {
  const ms = gateway.sleep !== undefined && attempt.sent === true ? await gateway.sleep(delayMs) : delayMs;
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
