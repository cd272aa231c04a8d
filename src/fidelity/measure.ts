import type { MessageEvent, Transcript } from '../transcript/types.js';
import type { StepRecord } from '../engine/types.js';
import type { FidelityFile, FidelityReport, FidelityStep, FormatFidelity, WorstStep } from './types.js';
import { loadTranscript } from '../transcript/load.js';
import { displayPath } from '../paths.js';
import { fitTheilSen, median, summarizeErrors } from './stats.js';
import { replayWithFull, type FullReplay } from './replay.js';
import { compareCache } from './cache.js';

/**
 * How many first compared steps estimate a file's hidden prefix. Early contexts are small, so
 * `recorded − computed` there is mostly what the log does not hold (the agent's system prompt and
 * tool schemas) and little tokenizer mismatch; the median of three shrugs off one odd step.
 */
export const OFFSET_STEPS = 3;

export interface FidelityOptions {
  /** Skip broken transcript lines instead of failing (as `--lenient` elsewhere). */
  lenient?: boolean;
}

/**
 * Loads each transcript (canonical or any importable agent log), replays it with `full` and
 * compares the computed prompt tokens with the recorded input tokens, per file and per format.
 * @throws InputError naming file and line for a transcript that does not load.
 */
export async function measureFidelity(paths: readonly string[], options: FidelityOptions = {}): Promise<FidelityReport> {
  const files: FidelityFile[] = [];
  for (const path of paths) {
    // Seed only matters for synthetic transcripts, which fidelity never reads.
    const transcript = await loadTranscript({ kind: 'file', path, lenient: options.lenient === true }, 0);
    files.push(compareReplay(transcript, await replayWithFull(transcript)));
  }
  return { strategy: 'full', files, formats: poolByFormat(files) };
}

/**
 * Pairs every replayed step with the usage recorded on its assistant message. The canonical
 * `usage.input` is the whole prompt in every format, as the importers normalise it: Codex's and
 * Gemini's input counts already include the cached tokens, and the Claude Code importer adds
 * Anthropic's disjoint `input_tokens`, `cache_creation_input_tokens` and `cache_read_input_tokens`.
 * So `input` is compared as it is, never `input − cachedInput`, with the whole prompt ctxbench sends.
 */
export function compareReplay(transcript: Transcript, replay: FullReplay): FidelityFile {
  const byId = new Map<string, MessageEvent>();
  for (const event of transcript.events) if (event.type === 'message' && event.role === 'assistant') byId.set(event.id, event);
  const pairs: { record: StepRecord; message: MessageEvent; recorded: number }[] = [];
  let withoutUsage = 0;
  for (const record of replay.steps) {
    const message = byId.get(record.messageId);
    const recorded = message?.usage?.input;
    if (record.status !== 'ok') continue;
    if (message === undefined || recorded === undefined || recorded <= 0) withoutUsage += 1;
    else pairs.push({ record, message, recorded });
  }
  const first = pairs.slice(0, OFFSET_STEPS);
  const offset = first.length === 0 ? 0 : median(first.map((p) => p.recorded - p.record.promptTokens));
  const compared = pairs.map(({ record, message, recorded }): FidelityStep => ({
    step: record.step,
    messageId: record.messageId,
    ...(message.model !== undefined ? { model: message.model } : {}),
    computed: record.promptTokens,
    recorded,
    ...(message.usage?.cachedInput !== undefined ? { cachedInput: message.usage.cachedInput, predictedCached: record.cachedPrefixTokens } : {}),
    rawError: (record.promptTokens - recorded) / recorded,
    offsetError: (record.promptTokens + offset - recorded) / recorded,
  }));
  const fit = fitTheilSen(compared.map((s) => s.computed), compared.map((s) => s.recorded));
  const cache = compareCache(compared);
  return {
    file: displayPath(transcript.file),
    format: transcript.header.source?.format ?? 'ctx',
    provider: replay.scenario.provider,
    model: replay.scenario.model,
    encoding: replay.encoding,
    steps: replay.steps.length,
    withoutUsage,
    crashed: replay.steps.filter((s) => s.status !== 'ok').length,
    offset,
    offsetSteps: first.length,
    ...(fit !== undefined ? { fit } : {}),
    compared,
    ...(cache !== undefined ? { cache } : {}),
  };
}

/** Pools the steps of the files of each format (in the order formats first appear). */
export function poolByFormat(files: readonly FidelityFile[]): FormatFidelity[] {
  const formats = [...new Set(files.map((f) => f.format))];
  return formats.map((format) => {
    const mine = files.filter((f) => f.format === format);
    const steps = mine.flatMap((f) => f.compared.map((step) => ({ file: f, step })));
    const pooled: FormatFidelity = { format, files: mine.length, steps: steps.length };
    if (steps.length === 0) return pooled;
    pooled.raw = summarizeErrors(steps.map(({ step }) => step.rawError));
    pooled.offset = summarizeErrors(steps.map(({ step }) => step.offsetError));
    const worst = steps.reduce((a, b) => (Math.abs(b.step.offsetError) > Math.abs(a.step.offsetError) ? b : a));
    pooled.worst = worstStep(worst.file, worst.step);
    return pooled;
  });
}

function worstStep(file: FidelityFile, step: FidelityStep): WorstStep {
  return {
    file: file.file,
    step: step.step,
    messageId: step.messageId,
    ...(step.model !== undefined ? { model: step.model } : {}),
    computed: step.computed,
    recorded: step.recorded,
    offset: file.offset,
    rawError: step.rawError,
    offsetError: step.offsetError,
  };
}
