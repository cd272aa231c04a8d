/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment --
   `instanceof APIError` gives the SDK's APIError<any, any, any>; the fields read are checked here. */
import { APIConnectionError, APIError } from 'openai';
import type { Failure } from '../contracts/provider.js';
import { describeThrown } from './classify-gemini.js';
import { retryAfterOf } from '../wire/durations.js';

const OVERFLOW_LIMIT = /maximum context length is (\d+) tokens/i;
const OVERFLOW_INPUT = /(?:resulted in|requested) (\d+) tokens/i;
/** OpenAI words a per-day limit as "... on requests per day (RPD)" or "tokens per day (TPD)". */
const PER_DAY = /per day|\((?:RPD|TPD)\)/i;
/** The 400s OpenAI gives a message list it refuses for its shape (tool calls and results that do not pair up, no messages). */
const REFUSED_MESSAGES =
  /must be followed by tool messages responding to each 'tool_call_id'|messages with role 'tool' must be a response to a prece|not found in 'tool_calls' of previous message|is too short - 'messages'/i;

/**
 * Turns anything `chat.completions.create` threw into a typed failure. `APIConnectionError` (and
 * its timeout subclass) and errors that are not `APIError` at all (a body that was not JSON) never
 * produced a readable response: `network`.
 */
export function classifyOpenAIError(error: unknown): Failure {
  if (error instanceof APIConnectionError || !(error instanceof APIError) || error.status === undefined) {
    return { kind: 'network', message: describeThrown(error) };
  }
  const message = readMessage(error);
  const status = error.status;
  if (status === 429) return classifyTooMany(error, message);
  if (status >= 500) return { kind: 'server', message, status };
  if (status === 400 && (error.code === 'context_length_exceeded' || OVERFLOW_LIMIT.test(message))) {
    const failure: Failure = { kind: 'overflow', message };
    const limit = OVERFLOW_LIMIT.exec(message)?.[1];
    const input = OVERFLOW_INPUT.exec(message)?.[1];
    if (input !== undefined) failure.inputTokens = Number(input);
    if (limit !== undefined) failure.limit = Number(limit);
    return failure;
  }
  if (status === 400 && REFUSED_MESSAGES.test(message)) return { kind: 'invalid-request', message, status };
  return { kind: 'bad-request', message, status };
}

/** `insufficient_quota` and per-day limits mean stop; other 429s mean wait for the reset hint. */
function classifyTooMany(error: APIError, message: string): Failure {
  const type = (error.error as { type?: unknown } | undefined)?.type;
  if (error.code === 'insufficient_quota' || type === 'insufficient_quota' || PER_DAY.test(message)) {
    return { kind: 'quota', message };
  }
  const failure: Failure = { kind: 'rate-limit', message };
  const retryAfterMs = retryAfterOf(error.headers);
  if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  return failure;
}

function readMessage(error: APIError): string {
  const inner = (error.error as { message?: unknown } | undefined)?.message;
  return typeof inner === 'string' && inner !== '' ? inner : error.message;
}
