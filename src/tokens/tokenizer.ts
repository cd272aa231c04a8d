import { type TextMemo, runOwned, runTextMemo, runWeakMap, createListMemo, type ListMemo } from '../memo.js';
import { get_encoding, type Tiktoken } from 'tiktoken';
import type { ContextMessage } from '../transcript/types.js';
import type { ProviderName } from '../contracts/provider.js';
import type { Calibration, Encoding, Tokenizer } from './types.js';
import { calibrationFor, scaledContent, type EscapeCost } from './calibration.js';
import { messageOverhead, requestOverhead } from './overhead.js';
import { asSent } from '../transcript/sent-as-text.js';
import { SEGMENT_MIN_TEXT, segmentsOf } from './segments.js';
import { LONG_SEGMENT, boundedPieces } from './bounded-pieces.js';
import { splitEscapes } from './escapes.js';

/**
 * One tiktoken encoder per encoding per process, never freed: the process's exit releases its memory,
 * and freeing an o200k encoder costs a few hundred milliseconds of every CLI run and test file.
 */
const encoders = new Map<Encoding, Tiktoken>();
/**
 * Per-encoding count cache, owned by the run (memo.ts): no text is tokenized twice in a run, within
 * its share of the memo budget (strategies make new texts all session long: summary requests hold
 * whole spans).
 */
const caches = new Map<Encoding, TextMemo<number>>();
const stats = { tokenized: 0, hits: 0 };

function encoderFor(encoding: Exclude<Encoding, 'chars4'>): Tiktoken {
  let encoder = encoders.get(encoding);
  if (encoder === undefined) {
    encoder = get_encoding(encoding);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

function countRaw(encoding: Encoding, text: string): number {
  if (text === '') return 0;
  if (encoding === 'chars4') return Math.ceil(text.length / 4);
  if (text.length < SEGMENT_MIN_TEXT) return encode(encoding, text);
  let segments = segmentCaches.get(encoding);
  // Segments are slices of the text: kept as copies, so the memo does not keep the text alive.
  if (segments === undefined) segmentCaches.set(encoding, (segments = runTextMemo<number>('token-segments', { copyKeys: true })));
  let n = 0;
  const count = (piece: string): number => (segments as TextMemo<number>).get(piece, (copy) => encode(encoding, copy));
  for (const segment of segmentsOf(text)) {
    if (segment.length <= LONG_SEGMENT) n += count(segment);
    // A long line (a minified file, a blob) goes to the WASM in bounded pieces (bounded-pieces.ts).
    else for (const piece of boundedPieces(segment)) n += count(piece);
  }
  return n;
}

/** Special tokens such as <|endoftext|> are counted as plain text, never rejected. */
function encode(encoding: Exclude<Encoding, 'chars4'>, text: string): number {
  return encoderFor(encoding).encode(text, [], []).length;
}

/** Per-encoding count of each segment of a long text (segments.ts): exact, and shared by every text that holds it. */
const segmentCaches = new Map<Encoding, TextMemo<number>>();

/** Counts `text` with `encoding`, from the run's memo when it was counted before. */
export function countTokens(encoding: Encoding, text: string): number {
  let cache = caches.get(encoding);
  if (cache === undefined) caches.set(encoding, (cache = runTextMemo<number>('token-counts')));
  let hit = true;
  const n = cache.get(text, () => {
    hit = false;
    return countRaw(encoding, text);
  });
  if (hit) stats.hits += 1;
  else stats.tokenized += 1;
  return n;
}

/** How many texts were tokenized and how many counts came from the cache (for tests and bench). */
export function tokenizerStats(): { tokenized: number; hits: number } {
  return { ...stats };
}

/** Each call's text, built once per call object (calls are never changed once built). */
const callTexts = runWeakMap<object, string>();

/** The text of a tool call as it is charged: name and JSON arguments, or a freeform tool's raw input. */
export function toolCallText(call: { name: string; args: Record<string, unknown>; freeform?: true }): string {
  let text = callTexts.get(call);
  if (text === undefined) {
    const input = call.args.input;
    text = call.freeform === true && typeof input === 'string' ? `${call.name}${input}` : `${call.name}${JSON.stringify(call.args)}`;
    callTexts.set(call, text);
  }
  return text;
}

/**
 * Raw (uncalibrated) count of each message object, per format and encoding: every strategy, step
 * and probe that sends a message again reads its count from here. Keyed by the object, so a
 * message a strategy rewrites (a new object) is counted afresh; messages are never changed once
 * built (importers and parsers finish them before anything counts them).
 */
const messageCounts = runWeakMap<ContextMessage, Map<string, number>>();

/** The encoding that best approximates a model's tokenizer. */
export function encodingForModel(model: string): Encoding {
  const m = model.toLowerCase();
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o|gpt-oss)/.test(m)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5|text-embedding)/.test(m)) return 'cl100k_base';
  // Gemini's SentencePiece vocabulary is not public; o200k_base is the closest public one.
  if (m.startsWith('gemini') || m.startsWith('gemma')) return 'o200k_base';
  return 'o200k_base';
}

/**
 * A tokenizer for `encoding`; with a `calibration` (a model whose tokenizer is not public, see
 * calibration.ts) every count is scaled by its factor, and each tool call of a message adds its
 * framing. Raw counts stay cached per text; scaling is applied on top, rounded per text.
 */
export function createTokenizer(encoding: Encoding, calibration?: Calibration): Tokenizer {
  const factor = calibration?.factor ?? 1;
  const perEscape = calibration?.perEscape;
  const scaled =
    factor === 1 ? (text: string): number => countTokens(encoding, text) : (text: string): number => Math.round(factor * countTokens(encoding, text));
  const count = perEscape === undefined ? scaled : (text: string): number => countWeighingEscapes(encoding, text, factor, perEscape);
  const countMessage = (original: ContextMessage, format: ProviderName): number => {
    const raw = countRawMessage(original, format);
    if (calibration === undefined) return raw;
    const message = asSent(original);
    const calls = calibration.perToolCall * (message.toolCalls?.length ?? 0);
    const escapes = perEscape === undefined ? NO_ESCAPES : escapesOfMessage(encoding, original);
    return Math.round(scaledContent(raw, escapes, calibration)) + calls;
  };
  const memoKeys: Record<ProviderName, string> = { openai: `openai:${encoding}`, gemini: `gemini:${encoding}` };
  /** The raw count of `message` as sent (see asSent), memoized on the message object. */
  const countRawMessage = (message: ContextMessage, format: ProviderName): number => {
    let counts = messageCounts.get(message);
    const cached = counts?.get(memoKeys[format]);
    if (cached !== undefined) return cached;
    const n = countRawMessageOnce(asSent(message), format);
    if (counts === undefined) {
      counts = new Map();
      messageCounts.set(message, counts);
    }
    counts.set(memoKeys[format], n);
    return n;
  };
  const countRawMessageOnce = (message: ContextMessage, format: ProviderName): number => {
    const count = (text: string): number => countTokens(encoding, text);
    // A Gemini tool result is a functionResponse Struct ({"output": text}). Counting it
    // JSON-escaped stood in for Gemini's finer tokenizer before the family calibration existed;
    // on top of the calibration it double-counts (the Gemini CLI recording then reads 4–13 % high),
    // so the result is counted as plain text, as the calibration was fitted (calibration.ts).
    const text = count(message.text);
    let n = text + messageOverhead(format, message);
    // Chat completions cannot carry reasoning back; Gemini resends thought parts. A recorded
    // reasoning size (`reasoningTokens`) is what was re-sent instead, charged within its turn
    // only (tokens/hidden-tokens.ts): the thought summary a log keeps is not what the model read.
    if (message.thinking !== undefined && format === 'gemini' && message.reasoningTokens === undefined) n += count(message.thinking);
    for (const call of message.toolCalls ?? []) n += count(toolCallText(call));
    return n;
  };
  // Lists no step diff describes: a strategy counting its own lists (env.countMessages), the
  // simulator counting the request it answers, strategy and probe calls through the gateway. They
  // are mostly the lists counted before: counts of the run a list shares with an earlier one are
  // reused. The step's own count is kept along its diff (context-count.ts). Owned by the run using
  // this tokenizer (a tokenizer may serve two runs).
  const counts = runOwned<Record<ProviderName, ListMemo<ContextMessage, number>>>(() => ({ openai: createListMemo(), gemini: createListMemo() }));
  return {
    encoding,
    ...(calibration !== undefined ? { calibration } : {}),
    count,
    countMessage,
    countMessages(messages, format, instruction) {
      let n = Math.round(factor * requestOverhead(format));
      if (instruction !== undefined && instruction !== '') n += count(instruction) + Math.round(factor * requestOverhead(format));
      const each = counts()?.[format].values(messages, (message) => countMessage(message, format)) ?? messages.map((message) => countMessage(message, format));
      for (let i = 0; i < messages.length; i++) n += each[i] as number;
      return n;
    },
  };
}

/** A text counted without its escape sequences, scaled, plus `perEscape` a sequence (escapes.ts). */
function countWeighingEscapes(encoding: Encoding, text: string, factor: number, perEscape: number): number {
  const split = splitEscapes(text);
  if (split === undefined) return Math.round(factor * countTokens(encoding, text));
  return Math.round(factor * countTokens(encoding, split.stripped) + perEscape * split.count);
}

const NO_ESCAPES: EscapeCost = { tokens: 0, count: 0 };
/** Per message object and encoding, as the raw counts above. */
const escapeCosts = runWeakMap<ContextMessage, Map<Encoding, EscapeCost>>();

/**
 * The raw tokens the escape sequences of `message`'s text (as sent) cost, and their number: counted
 * once per message. What a calibration with `perEscape` charges instead (`countMessage`), and what
 * `ctxbench fidelity --fit` takes off the raw counts to fit on the same terms (fidelity/fit.ts).
 */
export function escapesOfMessage(encoding: Encoding, message: ContextMessage): EscapeCost {
  let costs = escapeCosts.get(message);
  const cached = costs?.get(encoding);
  if (cached !== undefined) return cached;
  const text = asSent(message).text;
  const split = splitEscapes(text);
  const cost = split === undefined ? NO_ESCAPES : { tokens: countTokens(encoding, text) - countTokens(encoding, split.stripped), count: split.count };
  if (costs === undefined) {
    costs = new Map();
    escapeCosts.set(message, costs);
  }
  costs.set(encoding, cost);
  return cost;
}

/** The tokenizer ctxbench counts `model`'s tokens with: its encoding, calibrated when its tokenizer is not public. */
export function tokenizerForModel(model: string, options: { calibrate?: boolean } = {}): Tokenizer {
  const calibration = options.calibrate === false ? undefined : calibrationFor(model);
  return createTokenizer(encodingForModel(model), calibration);
}
