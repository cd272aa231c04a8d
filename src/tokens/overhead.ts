import type { ContextMessage } from '../transcript/types.js';
import type { ProviderName } from '../contracts/provider.js';

/**
 * Framing tokens of each provider format, on top of the tokens of a message's own text, thinking
 * and tool calls (name + JSON arguments): per message, per assistant message made of tool calls
 * only, per tool call, per tool result and per request.
 *
 * Calibrated with `ctxbench fidelity` against the input tokens real agents recorded
 * (fixtures/real/). One set of constants per format, never per file; the test
 * test/fidelity/calibration.test.ts recomputes the errors below and keeps them from growing.
 * Errors are offset-corrected: each file's hidden prefix (system prompt and tool schemas the log
 * does not hold) is estimated from its first steps and added before comparing.
 *
 * openai — fitted on the Codex CLI rollout (gpt-5 through the Responses API, o200k_base). Its 18
 * step-to-step increments are exact: every step adds one assistant message with one tool call and
 * its result, and the recorded input grows by the tokens of those texts plus 18 when the assistant
 * sent the call alone (8 of 10 such steps give 18, two give 19 and 20) and plus 24 when it also
 * wrote text (7 of 8 give 24, one 25). The o200k models render every tool call as a message of
 * its own (the harmony format), so text beside calls is one more message of 6 tokens and a message
 * of calls only has no wrapper: perMessage 6, perCallOnlyMessage 0, and call + result framing
 * perToolCall + perMessage + perToolResult = 18. The 8 / 4 split between call and result cannot
 * be identified (every call in the log has its result) and keeps the earlier ratio. perRequest is
 * absorbed by the hidden prefix and keeps the chat-completions reply priming of 3.
 * Offset-corrected error on that file: median −0.21 % → −0.01 %, p95 |error| 0.26 % → 0.02 %.
 *
 * gemini — the Gemini CLI recording (gemini-3-flash / 3.1-pro, 6 steps) has too few increments
 * to identify a per-message constant, so these stay at their earlier values (4 per content, 5 per
 * function call or response). What moves it by hundreds of tokens is not framing: Gemini 3
 * re-sends the reasoning of the earlier calls of a turn (sized by the recorded `thoughts`, dropped
 * at the next user message; tokens/hidden-tokens.ts), and its vocabulary is not public (the
 * family factor of calibration.ts, fitted on 23 mini-swe-agent Gemini 3 Pro trajectories).
 * With both, and tool results counted as plain text, the file reads median |error| 2.25 %,
 * p95 3.16 % (README, Fidelity).
 *
 * Claude Code logs are replayed in the openai format with these constants plus Claude's
 * calibration (≈ 55 tokens per tool call on top of a 1.185 factor).
 */
export const OVERHEAD = {
  openai: { perMessage: 6, perCallOnlyMessage: 0, perToolCall: 8, perToolResult: 4, perRequest: 3 },
  gemini: { perMessage: 4, perCallOnlyMessage: 4, perToolCall: 5, perToolResult: 5, perRequest: 0 },
} as const satisfies Record<ProviderName, Record<string, number>>;

/** Framing tokens of one message in `format` (its text, thinking and calls are counted apart). */
export function messageOverhead(format: ProviderName, message: ContextMessage): number {
  const o = OVERHEAD[format];
  const calls = message.toolCalls?.length ?? 0;
  const callsOnly = message.role === 'assistant' && calls > 0 && message.text === '';
  let n = callsOnly ? o.perCallOnlyMessage : o.perMessage;
  n += calls * o.perToolCall;
  if (message.role === 'tool') n += o.perToolResult;
  return n;
}

/** Framing tokens of one request in `format` (counted once per request and per instruction). */
export function requestOverhead(format: ProviderName): number {
  return OVERHEAD[format].perRequest;
}
