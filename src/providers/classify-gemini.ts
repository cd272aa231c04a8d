import type { ApiError } from '@google/genai';
import type { Failure } from '../contracts/provider.js';
import { parseDuration, retryAfterOf } from '../wire/durations.js';

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const QUOTA_FAILURE = 'type.googleapis.com/google.rpc.QuotaFailure';
/** The 400s Gemini gives contents it refuses for their shape (function calls and responses that do not pair up, empty turns). */
const REFUSED_CONTENTS =
  /function call turn comes immediately after|function response turn comes immediately after|number of function response parts is equal|empty text parameter|contents is not specified|contents\.parts must not be empty/i;
const OVERFLOW = /input token count(?:\s*\((\d+)\))?\s*exceeds the maximum number of tokens allowed(?:\s*\((\d+)\))?/i;

interface GeminiErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: Record<string, unknown>[];
}

/**
 * Turns anything `models.generateContent` threw into a typed failure (`apiError`: the SDK's
 * class, passed in by the provider that loaded the SDK lazily). An `ApiError` carries the
 * HTTP status and, as its message, the JSON error body; anything else never got a response that
 * the SDK could read (connection refused, timeout, a body that was not JSON) and is `network`.
 */
export function classifyGeminiError(error: unknown, apiError: typeof ApiError, headers?: Pick<Headers, 'get'>): Failure {
  if (!(error instanceof apiError)) {
    return { kind: 'network', message: describeThrown(error) };
  }
  const body = readErrorBody(error.message);
  const message = body?.message ?? error.message;
  const status = error.status;
  if (status === 429) return classifyExhausted(body, message, retryAfterOf(headers));
  if (status >= 500) return { kind: 'server', message, status };
  const overflow = OVERFLOW.exec(message);
  if (status === 400 && overflow !== null) {
    const failure: Failure = { kind: 'overflow', message };
    if (overflow[1] !== undefined) failure.inputTokens = Number(overflow[1]);
    if (overflow[2] !== undefined) failure.limit = Number(overflow[2]);
    return failure;
  }
  if (status === 400 && REFUSED_CONTENTS.test(message)) return { kind: 'invalid-request', message, status };
  return { kind: 'bad-request', message, status };
}

/**
 * A per-day quota means stop; any other RESOURCE_EXHAUSTED means wait: the longer of the body's
 * RetryInfo delay and the answer's `retry-after` header (each is a minimum).
 */
function classifyExhausted(body: GeminiErrorBody | undefined, message: string, headerDelay: number | undefined): Failure {
  const details = body?.details ?? [];
  const daily = details.some((detail) => detail['@type'] === QUOTA_FAILURE && violatesDailyQuota(detail));
  if (daily) return { kind: 'quota', message };
  const failure: Failure = { kind: 'rate-limit', message };
  const retry = details.find((detail) => detail['@type'] === RETRY_INFO);
  const bodyDelay = typeof retry?.retryDelay === 'string' ? parseDuration(retry.retryDelay) : undefined;
  const delays = [bodyDelay, headerDelay].filter((delay) => delay !== undefined);
  if (delays.length > 0) failure.retryAfterMs = Math.max(...delays);
  return failure;
}

function violatesDailyQuota(detail: Record<string, unknown>): boolean {
  const violations = detail.violations;
  if (!Array.isArray(violations)) return false;
  return violations.some((violation: unknown) => {
    const quotaId = (violation as { quotaId?: unknown } | null)?.quotaId;
    return typeof quotaId === 'string' && quotaId.includes('PerDay');
  });
}

/** The SDK puts `JSON.stringify(body)` in the message; a non-JSON body becomes `{error:{message}}`. */
function readErrorBody(message: string): GeminiErrorBody | undefined {
  try {
    const parsed = JSON.parse(message) as unknown;
    const inner: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
    const error = (inner as { error?: unknown } | null)?.error;
    return typeof error === 'object' && error !== null ? (error as GeminiErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

/** A readable message for a thrown non-API error, with the cause a fetch failure hides. */
export function describeThrown(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const code = (error as { code?: unknown }).code;
  const codeText = typeof code === 'string' ? ` (${code})` : '';
  return `${error.name}: ${error.message}${codeText}${cause}`;
}
