import type { SimDirective } from '../contracts/provider.js';
import { jsonReply, truncatedReply, type ReplyFormat } from './reply-format.js';
import { findUnsignedCall, parseGeminiRequest } from './parse-gemini.js';
import type { SimAnswer, SimReply, SimUsage } from './types.js';

const RATE_LIMITS_URL = 'https://ai.google.dev/gemini-api/docs/rate-limits';

/** Gemini's error envelope: `{error: {code, message, status, details?}}`. */
function geminiError(code: number, status: string, message: string, details?: unknown[]): SimReply {
  return jsonReply(code, { error: { code, message, status, ...(details !== undefined ? { details } : {}) } });
}

/** Gemini API bodies, as the Developer API (v1beta) words them. */
export const geminiReplies: ReplyFormat = {
  parse: parseGeminiRequest,
  badRequest: (message) => geminiError(400, 'INVALID_ARGUMENT', message),
  overflow: (inputTokens, window) =>
    geminiError(400, 'INVALID_ARGUMENT', `The input token count (${inputTokens}) exceeds the maximum number of tokens allowed (${window}).`),
  refused: (refusal) => geminiError(400, 'INVALID_ARGUMENT', refusal.message),
  rateLimit: rateLimitReply,
  fault: (kind) => {
    if (kind === 'server500') {
      return geminiError(
        500,
        'INTERNAL',
        'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      );
    }
    if (kind === 'unavailable503') return geminiError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
    return truncatedReply('{\n  "candidates": [\n    {\n      "content": {\n        "parts": [\n          {\n            "text": "The ans');
  },
  success: successReply,
};

/** RESOURCE_EXHAUSTED with QuotaFailure (which quota) and RetryInfo (whole seconds, rounded up). */
function rateLimitReply(limit: NonNullable<SimDirective['rateLimit']>): SimReply {
  const daily = limit.daily === true;
  const seconds = Math.max(1, Math.ceil(limit.retryAfterMs / 1000));
  const metric = daily ? 'generate_content_free_tier_requests' : 'generate_content_free_tier_input_token_count';
  const quotaId = daily ? 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' : 'GenerateContentInputTokensPerModelPerMinute-FreeTier';
  const message =
    `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: ${RATE_LIMITS_URL}.\n` +
    `* Quota exceeded for metric: generativelanguage.googleapis.com/${metric}, limit: ${limit.limitTokens}\n` +
    `Please retry in ${(limit.retryAfterMs / 1000).toFixed(3)}s.`;
  return geminiError(429, 'RESOURCE_EXHAUSTED', message, [
    {
      '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
      violations: [{ quotaMetric: `generativelanguage.googleapis.com/${metric}`, quotaId, quotaValue: String(limit.limitTokens) }],
    },
    { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Learn more about Gemini API quotas', url: RATE_LIMITS_URL }] },
    { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` },
  ]);
}

/** The 400 a thinking model gives when the current turn's function calls lost their signatures. */
export function missingSignatureReply(body: unknown): SimReply | undefined {
  const unsigned = findUnsignedCall(body);
  if (unsigned === undefined) return undefined;
  return geminiError(
    400,
    'INVALID_ARGUMENT',
    'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, ' +
      'and missing thought_signature may lead to degraded model performance. Additional data, function call ' +
      `\`default_api:${unsigned.name}\` , position ${unsigned.position}. ` +
      'Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
  );
}

function successReply(answer: SimAnswer, usage: SimUsage, model: string): SimReply {
  const parts: Record<string, unknown>[] = [];
  if (answer.thinking !== undefined && answer.thinking !== '') parts.push({ text: answer.thinking, thought: true });
  if (answer.text !== '' || answer.toolCalls.length === 0) parts.push({ text: answer.text });
  const calls: Record<string, unknown>[] = answer.toolCalls.map((call) => ({
    functionCall: { id: call.id, name: call.name, args: call.args },
  }));
  parts.push(...calls);
  const signed = calls[0] ?? parts[0];
  if (answer.thoughtSignature !== undefined && signed !== undefined) signed.thoughtSignature = answer.thoughtSignature;
  const usageMetadata: Record<string, unknown> = {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output,
    totalTokenCount: usage.input + usage.output + usage.reasoning,
  };
  if (usage.reasoning > 0) usageMetadata.thoughtsTokenCount = usage.reasoning;
  return jsonReply(200, {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata,
    modelVersion: model,
  });
}
