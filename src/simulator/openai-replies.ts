import type { SimDirective } from '../contracts/provider.js';
import { formatResetDuration } from '../wire/durations.js';
import { jsonReply, truncatedReply, type ReplyFormat } from './reply-format.js';
import { parseOpenAIRequest } from './parse-openai.js';
import type { SimAnswer, SimReply, SimUsage } from './types.js';

function openaiError(status: number, error: Record<string, unknown>, headers: Record<string, string> = {}): SimReply {
  return jsonReply(status, { error: { param: null, code: null, ...error } }, headers);
}

/** OpenAI chat-completions bodies and headers. */
export const openaiReplies: ReplyFormat = {
  parse: parseOpenAIRequest,
  badRequest: (message) => openaiError(400, { message, type: 'invalid_request_error' }),
  overflow: (inputTokens, window) =>
    openaiError(400, {
      message:
        `This model's maximum context length is ${window} tokens. However, your messages resulted in ${inputTokens} tokens. ` +
        'Please reduce the length of the messages.',
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    }),
  refused: (refusal) => openaiError(400, { message: refusal.message, type: 'invalid_request_error', param: refusal.param ?? null }),
  rateLimit: rateLimitReply,
  fault: (kind) => {
    if (kind === 'server500') {
      return openaiError(500, { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error' });
    }
    if (kind === 'unavailable503') {
      return openaiError(503, { message: 'The engine is currently overloaded, please try again later.', type: 'server_error' });
    }
    return truncatedReply('{\n  "id": "chatcmpl-sim",\n  "object": "chat.completion",\n  "choices": [\n    {\n      "message": {"content": "The ans');
  },
  success: successReply,
};

/** `rate_limit_exceeded` with the `x-ratelimit-*` and `retry-after` headers the API sends. */
function rateLimitReply(limit: NonNullable<SimDirective['rateLimit']>): SimReply {
  const daily = limit.daily === true;
  const unit = daily ? 'requests per day (RPD)' : 'tokens per min (TPM)';
  const used = Math.max(0, limit.limitTokens - limit.remainingTokens);
  const message =
    `Rate limit reached for model in organization org-ctxbench on ${unit}: Limit ${limit.limitTokens}, Used ${used}. ` +
    `Please try again in ${formatResetDuration(limit.retryAfterMs)}. Visit https://platform.openai.com/account/rate-limits to learn more.`;
  const scope = daily ? 'requests' : 'tokens';
  return openaiError(
    429,
    { message, type: scope, code: 'rate_limit_exceeded' },
    {
      [`x-ratelimit-limit-${scope}`]: String(limit.limitTokens),
      [`x-ratelimit-remaining-${scope}`]: String(limit.remainingTokens),
      [`x-ratelimit-reset-${scope}`]: formatResetDuration(limit.resetMs),
      'retry-after-ms': String(Math.ceil(limit.retryAfterMs)),
      'retry-after': String(Math.ceil(limit.retryAfterMs / 1000)),
    },
  );
}

function successReply(answer: SimAnswer, usage: SimUsage, model: string): SimReply {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: answer.text === '' && answer.toolCalls.length > 0 ? null : answer.text,
    refusal: null,
  };
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
  }
  // Reasoning is billed as completion tokens though chat completions never return its text.
  const completion = usage.output + usage.reasoning;
  return jsonReply(200, {
    id: 'chatcmpl-ctxbench-sim',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.toolCalls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: completion,
      total_tokens: usage.input + completion,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: usage.reasoning },
    },
  });
}
