import { runWeakMap } from '../memo.js';
import type { Tokenizer } from '../tokens/types.js';
import { toolCallText } from '../tokens/tokenizer.js';
import type { ProviderName, SimDirective } from '../contracts/provider.js';
import type { RenderShape } from '../wire/render-shape.js';
import { decideFault } from './faults.js';
import { geminiReplies, missingSignatureReply } from './gemini-replies.js';
import { openaiReplies } from './openai-replies.js';
import type { ReplyFormat } from './reply-format.js';
import { readProbe } from './reader.js';
import { summarizeMessages } from './summarizer.js';
import { tokenFloor } from './token-floor.js';
import type { CanonicalCall, FaultRates, ParsedRequest, SimAnswer, SimReply, SimUsage } from './types.js';
import { parsedFromCanonical } from './parse-openai.js';
import { refuseRequest } from './request-rules.js';

export const FORMATS: Record<ProviderName, ReplyFormat> = { gemini: geminiReplies, openai: openaiReplies };

/** A summary's budget when neither the directive nor the request gives one. */
const DEFAULT_SUMMARY_BUDGET = 512;
/** The reader answers in about this many tokens. */
export const READER_ANSWER_TOKENS = 120;

export interface SimulateInput {
  format: ProviderName;
  /** The parsed JSON body of the provider request. */
  body: unknown;
  model: string;
  directive: SimDirective;
  shape?: RenderShape;
  tokenizer: Tokenizer;
  seed: number;
  /** The deterministic key of the call that faults are drawn from. */
  key: string;
  faults?: FaultRates;
  /** What the body was rendered from: counted instead of the parsed body; OpenAI's is read instead of `body` too (see SimCall.canonical). */
  canonical?: CanonicalCall;
}

/**
 * The deterministic simulated model: a pure function of the request and the directive. In order:
 * the quota gate's refusal (429), a seeded fault, a body that is not a request (400), a message
 * list the real API refuses (its own 400: request-rules.ts), the window (the provider's overflow
 * 400), Gemini's thought-signature check, then the answer for the purpose (a `judge` call is
 * refused: the judge is live-only).
 */
export function simulateCall(input: SimulateInput): SimReply {
  const format = FORMATS[input.format];
  const { directive } = input;
  if (directive.rateLimit !== undefined) return format.rateLimit(directive.rateLimit);
  const fault = decideFault(input.seed, input.key, input.faults);
  if (fault === 'timeout') return { kind: 'timeout' };
  if (fault !== undefined) return format.fault(fault);
  const { canonical } = input;
  // A step is answered with its recording: only summaries and probes read the messages.
  const request =
    canonical !== undefined && input.format === 'openai'
      ? parsedFromCanonical(canonical, { messages: directive.purpose !== 'step' })
      : format.parse(input.body, input.shape);
  if (request === undefined) return format.badRequest(`Invalid JSON payload received: not a ${input.format} request.`);
  const refusal =
    canonical !== undefined
      ? refuseRequest(input.format, canonical.messages, canonical.instruction)
      : refuseRequest(input.format, request.messages, request.instruction);
  if (refusal !== undefined) return format.refused(refusal);
  // The canonical messages count the same as their parsed copies (render tests hold it), from the
  // per-message memo: counting the copies parsed from a Gemini body re-read the whole context at every step.
  const counted =
    canonical !== undefined
      ? input.tokenizer.countMessages(canonical.messages, input.format, canonical.instruction)
      : input.tokenizer.countMessages(request.messages, input.format, request.instruction);
  const inputTokens = counted + (directive.hiddenTokens ?? 0);
  if (inputTokens > directive.window) return format.overflow(inputTokens, directive.window);
  if (input.format === 'gemini' && directive.requireThoughtSignatures === true) {
    const rejected = missingSignatureReply(input.body);
    if (rejected !== undefined) return rejected;
  }
  if (directive.purpose === 'judge') {
    // Grading needs judgement a lexical model cannot fake; a made-up score would pass for one.
    return format.badRequest('ctxbench simulator: the LLM judge is not simulated; use it in live mode.');
  }
  const answer = composeAnswer(request, directive, input.tokenizer);
  return format.success(answer, capReasoning(measureUsage(answer, inputTokens, input.tokenizer), request.thinkingBudget), input.model);
}

/** What the model says: the recorded completion, a summary, or a reader's answer. */
function composeAnswer(request: ParsedRequest, directive: SimDirective, tokenizer: Tokenizer): SimAnswer {
  const counters = countersOf(tokenizer);
  const { count } = counters;
  const outputCap = request.maxOutputTokens ?? Number.POSITIVE_INFINITY;
  switch (directive.purpose) {
    case 'step':
      return replayAnswer(directive);
    case 'summary':
    case 'recap': {
      const budget = Math.min(directive.budgetTokens ?? request.maxOutputTokens ?? DEFAULT_SUMMARY_BUDGET, outputCap);
      // The prompt decides the summary's style; without a separate instruction it is a system message.
      const prompt = request.instruction === undefined ? {} : { prompt: request.instruction };
      return { text: summarizeMessages(request.messages, { budgetTokens: budget, ...counters, ...prompt }), toolCalls: [] };
    }
    case 'probe':
    case 'retrieval':
    case 'judge': {
      const maxTokens = Math.min(READER_ANSWER_TOKENS, outputCap);
      return { text: readProbe(request.messages, { maxTokens, count }).answer, toolCalls: [] };
    }
  }
}

/**
 * One count function and one token floor (token-floor.ts) per tokenizer, so that what the
 * summarizer keeps per function (line counts, line floors) carries over between requests.
 */
const counters = runWeakMap<Tokenizer, { count: (text: string) => number; atLeast?: (text: string) => number }>();

function countersOf(tokenizer: Tokenizer): { count: (text: string) => number; atLeast?: (text: string) => number } {
  let known = counters.get(tokenizer);
  if (known === undefined) {
    const floor = tokenFloor(tokenizer);
    known = { count: (text: string): number => tokenizer.count(text), ...(floor === undefined ? {} : { atLeast: floor }) };
    counters.set(tokenizer, known);
  }
  return known;
}

function replayAnswer(directive: SimDirective): SimAnswer {
  const replay = directive.replay;
  if (replay === undefined) return { text: '', toolCalls: [] };
  const answer: SimAnswer = { text: replay.text, toolCalls: [...(replay.toolCalls ?? [])] };
  if (replay.thinking !== undefined) answer.thinking = replay.thinking;
  if (replay.thoughtSignature !== undefined) answer.thoughtSignature = replay.thoughtSignature;
  return answer;
}

/**
 * A thinking budget in the request caps the reasoning the answer is billed for: the recorded
 * step thought as long as it did, and under a lower budget it thinks at most the budget (the
 * text it answers with is the recorded one; only the reasoning count is cut).
 */
function capReasoning(usage: SimUsage, thinkingBudget: number | undefined): SimUsage {
  return thinkingBudget === undefined || usage.reasoning <= thinkingBudget ? usage : { ...usage, reasoning: thinkingBudget };
}

/** Usage counted with the model's tokenizer: text and tool calls as output, thinking as reasoning. */
function measureUsage(answer: SimAnswer, inputTokens: number, tokenizer: Tokenizer): SimUsage {
  let output = tokenizer.count(answer.text);
  for (const call of answer.toolCalls) output += tokenizer.count(toolCallText(call));
  return { input: inputTokens, output, reasoning: tokenizer.count(answer.thinking ?? '') };
}
