import type { MessageEvent, Transcript } from '../transcript/types.js';
import type { StepRecord } from '../metrics/run-events.js';
import type { Calibration } from '../tokens/types.js';
import type { FidelityFile, FidelityReport, FidelityStep, FormatFidelity, Rebuild, WorstStep } from './types.js';
import { loadTranscript } from '../scenario/load-transcript.js';
import { displayPath } from '../paths.js';
import { fitTheilSen, summarizeErrors } from '../stats.js';
import { replayRecorded, type RecordedReplay } from './replay.js';
import { OFFSET_STEPS } from '../replay/hidden-prefix.js';
import { compareCache, poolCacheByFormat } from './cache.js';
import { cacheRulesForModel, describeCacheRules } from '../cache/families.js';
import { withRetention } from '../cache/retention.js';

export { OFFSET_STEPS };

export interface FidelityOptions {
  /** Skip broken transcript lines instead of failing (as `--lenient` elsewhere). */
  lenient?: boolean;
  /** The calibration table to replay with instead of the shipped one (tokens/calibration.ts). */
  calibration?: Readonly<Record<string, Calibration>>;
}

/** A loaded log with its two replays: calibrated (the figure that counts) and o200k_base as it is. */
export interface MeasuredTranscript {
  transcript: Transcript;
  replay: RecordedReplay;
  uncalibrated: RecordedReplay;
}

/**
 * Loads each transcript (canonical or any importable agent log), replays it with `recorded` —
 * what the agent sent, hidden prefix and re-sent reasoning charged, its compactions followed — and
 * compares the prompt tokens with the recorded input tokens, per file and per format. Models
 * whose tokenizer is not public are replayed twice: calibrated, and raw (o200k_base as it is).
 * @throws InputError naming file and line for a transcript that does not load.
 */
export async function measureFidelity(paths: readonly string[], options: FidelityOptions = {}): Promise<FidelityReport> {
  const measured = await replayFiles(paths, options);
  const files = measured.map((m) => compareReplay(m.transcript, m.replay, m.uncalibrated));
  return { strategy: 'recorded', files, formats: poolByFormat(files), cache: poolCacheByFormat(files) };
}

/** Loads and replays each file (both replays); shared by the report and `--fit`. */
export async function replayFiles(paths: readonly string[], options: FidelityOptions = {}): Promise<MeasuredTranscript[]> {
  const out: MeasuredTranscript[] = [];
  for (const path of paths) {
    // Seed only matters for synthetic transcripts, which fidelity never reads.
    const transcript = await loadTranscript({ kind: 'file', path, lenient: options.lenient === true }, 0);
    const replay = await replayRecorded(transcript, options.calibration !== undefined ? { calibration: options.calibration } : {});
    const uncalibrated = replay.calibrated ? await replayRecorded(loggedOnly(transcript), { calibrate: false }) : replay;
    out.push({ transcript, replay, uncalibrated });
  }
  return out;
}

/**
 * The transcript without the texts an importer rebuilt as re-attached after a compaction
 * (`CompactionEvent.restored`): the raw replay, which calibration is fitted on (fit.ts), counts
 * what the log holds; what came back after a compaction stays in its hidden estimate there.
 */
function loggedOnly(transcript: Transcript): Transcript {
  if (!transcript.events.some((e) => e.type === 'compaction' && e.restored !== undefined)) return transcript;
  const events = transcript.events.map((e) => {
    if (e.type !== 'compaction' || e.restored === undefined) return e;
    const { restored: _rebuilt, ...rest } = e;
    return rest;
  });
  return { ...transcript, events };
}

/**
 * Pairs every replayed step with the usage recorded on its assistant message. The canonical
 * `usage.input` is the whole prompt in every format, as the importers normalise it: Codex's and
 * Gemini's input counts already include the cached tokens, and the Claude Code importer adds
 * Anthropic's disjoint `input_tokens`, `cache_creation_input_tokens` and `cache_read_input_tokens`.
 * So `input` is compared as it is, never `input − cachedInput`, with the whole prompt ctxbench sends.
 */
export function compareReplay(transcript: Transcript, replay: RecordedReplay, uncalibrated: RecordedReplay = replay): FidelityFile {
  const byId = new Map<string, MessageEvent>();
  for (const event of transcript.events) if (event.type === 'message' && event.role === 'assistant') byId.set(event.id, event);
  const rawById = new Map(uncalibrated.steps.map((s) => [s.messageId, s]));
  const pairs: { record: StepRecord; raw: StepRecord; message: MessageEvent; recorded: number }[] = [];
  let withoutUsage = 0;
  for (const record of replay.steps) {
    const message = byId.get(record.messageId);
    const recorded = message?.usage?.input;
    const raw = rawById.get(record.messageId);
    if (record.status !== 'ok' || raw?.status !== 'ok') continue;
    if (message === undefined || recorded === undefined || recorded <= 0) withoutUsage += 1;
    else pairs.push({ record, raw, message, recorded });
  }
  const compared = pairs.map(({ record, raw, message, recorded }): FidelityStep => ({
    step: record.step,
    messageId: record.messageId,
    ...(message.model !== undefined ? { model: message.model } : {}),
    computed: record.promptTokens,
    recorded,
    ...(message.usage?.cachedInput !== undefined
      ? { cachedInput: message.usage.cachedInput, ...predictCached(record.cachedPrefixTokens, message.model ?? replay.scenario.model) }
      : {}),
    hidden: record.hiddenTokens ?? 0,
    reasoning: record.reasoningTokens ?? 0,
    rawError: (raw.promptTokens - (raw.hiddenTokens ?? 0) - recorded) / recorded,
    uncalibratedError: (raw.promptTokens - recorded) / recorded,
    offsetError: (record.promptTokens - recorded) / recorded,
  }));
  const fit = fitTheilSen(
    compared.map((s) => s.computed - s.hidden),
    compared.map((s) => s.recorded),
  );
  const hidden = replay.hiddenPrefix;
  const cache = compareCache(compared, describeCacheRules(withRetention(cacheRulesForModel(replay.scenario.model), replay.scenario.model, transcript.events)));
  return {
    file: displayPath(transcript.file),
    format: transcript.header.source?.format ?? 'ctx',
    provider: replay.scenario.provider,
    model: replay.scenario.model,
    encoding: replay.encoding,
    calibrated: replay.calibrated,
    steps: replay.steps.length,
    withoutUsage,
    crashed: replay.steps.filter((s) => s.status !== 'ok').length,
    offset: hidden?.tokens ?? 0,
    offsetSteps: hidden?.estimatedOn ?? 0,
    ...(hidden?.restored !== undefined ? { restored: hidden.restored } : {}),
    ...(hidden?.unlogged !== undefined
      ? { unlogged: { tokens: Object.values(hidden.unlogged).reduce((a, b) => a + b, 0), messages: Object.keys(hidden.unlogged).length } }
      : {}),
    ...(hidden?.rebuilt !== undefined ? { rebuilds: rebuildsOf(transcript, replay, hidden.rebuilt) } : {}),
    compactions: transcript.events.filter((e) => e.type === 'compaction' && e.summary !== undefined).length,
    ...(fit !== undefined ? { fit } : {}),
    compared,
    ...(cache !== undefined ? { cache } : {}),
  };
}

/** Each rebuild from the log (by the message added before it) placed at the first replayed step after it. */
function rebuildsOf(transcript: Transcript, replay: RecordedReplay, rebuilt: Readonly<Record<string, number>>): Rebuild[] {
  const stepOf = new Map(replay.steps.map((s) => [s.messageId, s.step]));
  const events = transcript.events;
  return Object.entries(rebuilt).flatMap(([carrier, prefix]) => {
    const from = events.findIndex((e) => e.type === 'message' && e.id === carrier);
    const call = events.findIndex((e, i) => i > from && e.type === 'message' && e.role === 'assistant' && stepOf.has(e.id));
    const callEvent = events[call];
    const step = callEvent?.type === 'message' ? stepOf.get(callEvent.id) : undefined;
    if (from < 0 || step === undefined) return [];
    const next = events.find((e, i) => i > call && e.type === 'message' && e.role === 'tool');
    const nextResult = next?.type === 'message' ? next.text.slice(0, 120) : undefined;
    return [{ step, prefix, ...(nextResult !== undefined ? { nextResult } : {}) }];
  });
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
    pooled.uncalibrated = summarizeErrors(steps.map(({ step }) => step.uncalibratedError));
    pooled.offset = summarizeErrors(steps.map(({ step }) => step.offsetError));
    const worst = steps.reduce((a, b) => (Math.abs(b.step.offsetError) > Math.abs(a.step.offsetError) ? b : a));
    pooled.worst = worstStep(worst.file, worst.step);
    return pooled;
  });
}

/**
 * The replay bills the upper bound (replay.ts); the prediction is the expected share of it the
 * model's cache family serves (src/cache/families.ts), as a run bills it by default.
 */
function predictCached(upperBound: number, model: string): Pick<FidelityStep, 'predictedCached' | 'upperBoundCached'> {
  const { hitShare } = cacheRulesForModel(model);
  return { predictedCached: hitShare === 1 ? upperBound : Math.floor(hitShare * upperBound), upperBoundCached: upperBound };
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
