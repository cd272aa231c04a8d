import type { Gateway } from '../quota/gateway.js';
import type { RunEvent } from '../metrics/run-events.js';
import type { CompletionRequest, CompletionResult, Failure } from '../contracts/provider.js';
import type { Scenario } from '../scenario/types.js';
import type { Clock } from '../quota/types.js';
import type { Tokenizer } from '../tokens/types.js';
import type { ContextMessage, MessageEvent } from '../transcript/types.js';
import type { ProviderName } from '../contracts/provider.js';
import { retryDelay } from '../quota/retry.js';
import { pauseToRetry, refuseLongWait, waitToRetry } from '../quota/retry-wait.js';

/**
 * The probe call (DESIGN.md §3, closed-loop measurement): the probe question on top of the exact
 * context a strategy sent, through the unit's own gateway and provider (so mocked runs go through
 * nock to the simulated reader). It never carries the expected answer.
 */

/** What the model is told about a probe question; the question itself is the last user message. */
export const PROBE_INSTRUCTION =
  'A question about the conversation follows. Answer it from the conversation only, briefly, and quote exact values ' +
  '(paths, names, numbers, commands) as they were written. If the conversation does not contain the answer, reply: ' +
  'Not found in the context.';

// A reader's answer is a sentence or a few lines; the cap keeps a rambling live model cheap.
const PROBE_MAX_OUTPUT_TOKENS = 256;

/** What a probe call needs of the unit it measures. */
export interface ProbeCallDeps {
  gateway: Gateway;
  scenario: Scenario;
  clock: Clock;
  events: RunEvent[];
  tokenizer: Tokenizer;
  format: ProviderName;
}

export interface ProbeReply {
  ok: boolean;
  /** The model's answer, or why there is none (`(probe call failed: overflow: …)`). */
  answer: string;
  inputTokens: number;
  outputTokens: number;
}

function questionMessage(probeId: string, question: string): MessageEvent {
  return { type: 'message', id: `probe:${probeId}`, role: 'user', text: question };
}

/**
 * Sends `question` on top of `context` (with `extra` messages, e.g. retrieved text, between them)
 * as a `probe` call at `step`. The call uses the agent's quota only when the scenario says
 * `probesUseQuota`; then a rate limit waits on the virtual clock, as the agent would. In mocked
 * mode the simulated window is widened by the probe's own framing (instruction and question), so
 * a context that fitted the window is not lost to the measurement's wrapper; live models keep
 * their real window.
 */
export async function askQuestion(
  deps: ProbeCallDeps,
  probe: { id: string; question: string },
  context: readonly ContextMessage[],
  step: number,
  extra: readonly ContextMessage[] = [],
): Promise<ProbeReply> {
  const { scenario, tokenizer, format } = deps;
  const question = questionMessage(probe.id, probe.question);
  const framing = tokenizer.countMessages([question], format, PROBE_INSTRUCTION);
  const request: CompletionRequest = {
    model: scenario.model,
    messages: [...context, ...extra, question],
    instruction: PROBE_INSTRUCTION,
    maxOutputTokens: PROBE_MAX_OUTPUT_TOKENS,
    purpose: 'probe',
    directive: { purpose: 'probe', window: scenario.window + framing },
  };
  const result = await sendMeasurement(deps, request, step, scenario.probesUseQuota);
  if (!result.ok) return failedReply(result.failure);
  return { ok: true, answer: result.text, inputTokens: result.usage.input, outputTokens: result.usage.output };
}

/**
 * Sends one measurement call (a probe question, a judge request) at `step` under the scenario's
 * retry policy, recording every attempt as a `call` event of the request's purpose, so that
 * reports keep it apart from the agent's tokens. With `useQuota` the call is admitted by the
 * agent's quota and a rate limit waits on the virtual clock, as the agent would; without, it is
 * retried at once. Returns the last attempt's result: a failure is data.
 */
export async function sendMeasurement(deps: ProbeCallDeps, request: CompletionRequest, step: number, useQuota: boolean): Promise<CompletionResult> {
  const { gateway, scenario, clock, events } = deps;
  for (let attempt = 0; ; attempt++) {
    const answer = await gateway.attempt(request, { useQuota });
    const { result } = answer;
    events.push({
      type: 'call',
      step,
      atMs: clock.now(),
      purpose: request.purpose,
      inputTokens: result.ok ? result.usage.input : 0,
      outputTokens: result.ok ? result.usage.output : 0,
      ok: result.ok,
      ...(result.ok ? {} : { failure: result.failure.kind }),
    });
    if (result.ok) return result;
    const delay = retryDelay(scenario.retry, attempt, result.failure);
    if (delay === undefined) return result;
    const refusal = refuseLongWait(gateway, delay, answer);
    if (refusal !== undefined) return { ok: false, failure: { ...result.failure, message: `${result.failure.message} (${refusal})` } };
    // Waiting is the agent's time only when the call shares its quota; otherwise retry at once.
    if (useQuota) {
      const atMs = clock.now();
      const waited = await waitToRetry(gateway, clock, delay, answer, `${request.purpose} ${result.failure.kind}`);
      events.push({ type: 'wait', step, atMs, ms: waited, reason: `${request.purpose} ${result.failure.kind}` });
    } else {
      await pauseToRetry(gateway, delay, answer);
    }
  }
}

function failedReply(failure: Failure): ProbeReply {
  return { ok: false, answer: `(probe call failed: ${failure.kind}: ${failure.message})`, inputTokens: 0, outputTokens: 0 };
}
