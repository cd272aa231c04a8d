import type { StrategyEnv } from '../types.js';
import { requestSummary } from './summary-call.js';
import { truncateToTokens } from './text-cuts.js';

type Count = (text: string) => number;

/** Text pieces no longer than `maxTokens`: a line, else its sentences, else hard cuts. */
function piecesOf(line: string, maxTokens: number, count: Count): string[] {
  if (count(line) <= maxTokens) return [line];
  const sentences = line.split(/(?<=[.!?;])\s+/);
  if (sentences.length > 1) return sentences.flatMap((sentence) => piecesOf(sentence, maxTokens, count));
  const out: string[] = [];
  let rest = line;
  while (rest !== '') {
    // Bound the searched window: a token is rarely more than 8 characters.
    const piece = truncateToTokens(rest.slice(0, maxTokens * 8), maxTokens, count) || rest.slice(0, 1);
    out.push(piece);
    rest = rest.slice(piece.length);
  }
  return out;
}

/**
 * Splits `text` into chunks of about `maxTokens`, at line boundaries, or at sentence boundaries
 * inside a line that is too long alone (a sentence that is still too long is cut hard). A chunk's
 * size is the sum of its pieces' counts, so it may differ from its own count by a few tokens.
 */
export function splitIntoChunks(text: string, maxTokens: number, count: Count): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const piece of text.split('\n').flatMap((line) => piecesOf(line, maxTokens, count))) {
    const cost = count(piece) + 1;
    if (current.length > 0 && size + cost > maxTokens) {
      chunks.push(current.join('\n'));
      current = [];
      size = 0;
    }
    current.push(piece);
    size += cost;
  }
  if (current.some((piece) => piece.trim() !== '')) chunks.push(current.join('\n'));
  return chunks;
}

/** One line's identity for de-duplication: case, spacing and list markers do not matter. */
function lineKey(line: string): string {
  return line
    .trim()
    .replace(/^([-*•]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** The chunk summaries merged in order, each line kept once. */
export function mergeSummaries(summaries: readonly string[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const line of summaries.flatMap((s) => s.split('\n'))) {
    const key = lineKey(line);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    lines.push(line.trim());
  }
  return lines.join('\n');
}

export interface MapReduceRequest {
  text: string;
  instruction: string;
  chunkTokens: number;
  /** Output budget of each chunk's summary. */
  mapTokens: number;
  reason: string;
  mode: string;
  /**
   * The reduce step: with several chunks, the model merges their summaries (one metered call under
   * this instruction, within `reduceTokens`). Absent: the summaries are merged by de-duplicating
   * lines. A failed reduce call falls back to that merge.
   */
  reduce?: { instruction: string; reduceTokens: number };
}

export interface MapReduceResult {
  text: string;
  chunks: number;
  /** Chunks whose summary call failed; their head stands in for the summary. */
  failed: number;
}

/**
 * Map-reduce summary of a long text: each chunk is summarized by the model (metered), then the
 * summaries are reduced (a model call when `reduce` is given, else merged and de-duplicated). A failed chunk falls back to its own head within the
 * chunk budget, so one refused call never loses the whole compaction.
 */
export async function summarizeMapReduce(env: StrategyEnv, request: MapReduceRequest): Promise<MapReduceResult> {
  const chunks = splitIntoChunks(request.text, request.chunkTokens, env.count);
  const summaries: string[] = [];
  let failed = 0;
  for (const [i, chunk] of chunks.entries()) {
    const outcome = await requestSummary(env, {
      instruction: request.instruction,
      messages: [{ type: 'message', id: `map-chunk-${i + 1}`, role: 'user', text: chunk }],
      maxOutputTokens: request.mapTokens,
      purpose: 'summary',
      reason: `${request.reason}: chunk ${i + 1} of ${chunks.length}`,
      mode: request.mode,
    });
    if (outcome.ok) {
      summaries.push(outcome.text);
    } else {
      failed += 1;
      summaries.push(truncateToTokens(chunk, request.mapTokens, env.count));
    }
  }
  return { text: await reduceSummaries(env, request, summaries), chunks: chunks.length, failed };
}

async function reduceSummaries(env: StrategyEnv, request: MapReduceRequest, summaries: readonly string[]): Promise<string> {
  const merged = mergeSummaries(summaries);
  if (request.reduce === undefined || summaries.length < 2) return merged;
  const outcome = await requestSummary(env, {
    instruction: request.reduce.instruction,
    // One message per part, so that an overflowing request drops the oldest parts first.
    messages: summaries.map((text, i) => ({
      type: 'message',
      id: `map-summary-${i + 1}`,
      role: 'user',
      text: `Part ${i + 1} of ${summaries.length}:\n${text}`,
    })),
    maxOutputTokens: Math.max(1, Math.min(request.reduce.reduceTokens, env.count(merged))),
    purpose: 'summary',
    reason: `${request.reason}: reduce of ${summaries.length} summaries`,
    mode: request.mode,
    shrinkOnOverflow: true,
  });
  return outcome.ok ? outcome.text : merged;
}
