import type { Transcript } from '../transcript/types.js';
import type { Calibration, Encoding } from '../tokens/types.js';
import type { MeasuredTranscript } from './measure.js';
import { calibrationFamily, DEFAULT_CALIBRATION, scaledContent } from '../tokens/calibration.js';
import { escapesOfMessage } from '../tokens/tokenizer.js';
import { asSent } from '../transcript/sent-as-text.js';
import { applyRecorded } from '../strategies/recorded.js';
import { createHistory } from '../strategies/helpers/history.js';
import { displayPath } from '../paths.js';
import { median, quantile } from '../stats.js';
import { OFFSET_STEPS, withoutRestored } from '../replay/hidden-prefix.js';
import { resetSteps, unloggedBySteps, unloggedInContext, withResets } from '../replay/unlogged.js';

/** The bounds ctxbench holds its replay to, per format: median |error| and p95 |error|. */
const TARGET = { medianAbs: 0.03, p95Abs: 0.08 } as const;

const FACTORS = { from: 1, to: 1.4, step: 0.005, count: 81 } as const;
const PER_CALL = { from: 0, to: 300, step: 5, count: 61 } as const;
/**
 * The grid is searched coarse to fine: every COARSE-th candidate of each axis, then every
 * candidate within COARSE of the best of those. Each candidate re-estimates every step's
 * unlogged content as the replay does (a robust line fitted at every call): all 4,941 are too slow.
 */
const COARSE = 4;
/**
 * Calls a fit needs beyond the first OFFSET_STEPS of each compaction segment, which set the hidden
 * prefix and so read ~0 under every candidate: a 4-call session "fits" 1.04 × + 55 exactly.
 */
const MIN_INFORMATIVE_STEPS = 30;

/** One family's fitted calibration, with how and on what it was fitted. */
interface FittedFamily extends Calibration {
  method: string;
  files: string[];
  steps: number;
  /** The pooled errors the fit reaches (hidden prefix re-estimated in the fitted units). */
  medianAbs: number;
  p95Abs: number;
  /**
   * Why the fit does not determine the calibration, when it does not: the best candidate misses
   * the target (max(median / 3 %, p95 / 8 %) over 1) or lies on the edge of the grid.
   */
  undetermined?: string;
}

/** What `ctxbench fidelity --fit` writes: family → fitted calibration. */
export type CalibrationFit = Record<string, FittedFamily>;

/** One compared step, in raw o200k_base units, with what the fit needs. */
interface RawStep {
  messageId: string;
  raw: number;
  calls: number;
  /** Of `raw`, what the terminal escape sequences of the context's messages cost, and how many there are (tokens/escapes.ts). */
  escapeTokens: number;
  escapes: number;
  recorded: number;
  segment: number;
}

/**
 * Fits `factor` and `perToolCall` per model family on every step with recorded usage: a grid
 * search (factor 1.00–1.40 by 0.005, perToolCall 0–300 by 5, coarse to fine: COARSE) that counts
 * each candidate as the replay counts it (the family's escape weight, whole tokens) and
 * re-estimates each file's hidden prefix, post-compaction re-attachments and unlogged content
 * (the jumps, and the persistent per-call excess) in the candidate's units as the replay does,
 * and keeps the candidate with the smallest max(median |error| / 3 %, p95 |error| / 8 %) pooled
 * over the family's files. One rule per family, never per file.
 */
export function fitCalibration(measured: readonly MeasuredTranscript[]): CalibrationFit {
  const byFamily = new Map<string, { files: string[]; steps: FitLog[] }>();
  for (const m of measured) {
    const family = calibrationFamily(m.uncalibrated.scenario.model);
    if (family === undefined) continue;
    const entry = byFamily.get(family) ?? { files: [], steps: [] };
    entry.files.push(displayPath(m.transcript.file));
    entry.steps.push(fitLogOf(m));
    byFamily.set(family, entry);
  }
  const fit: CalibrationFit = {};
  for (const [family, { files, steps }] of byFamily) {
    // The escape weight is the family's own (calibration.ts), measured apart; the fit counts it as the replay does.
    const perEscape = DEFAULT_CALIBRATION[family]?.perEscape;
    const candidate = (i: number, j: number): Calibration => ({
      factor: Math.round((FACTORS.from + i * FACTORS.step) * 1000) / 1000,
      perToolCall: PER_CALL.from + j * PER_CALL.step,
      ...(perEscape !== undefined ? { perEscape } : {}),
    });
    const scored = searchGrid((i, j) => scoreOf(steps, candidate(i, j)));
    const best: FittedFamily = {
      ...candidate(scored.i, scored.j),
      method: 'grid search minimising max(median |error| / 3 %, p95 |error| / 8 %), hidden prefix and unlogged content re-estimated per candidate',
      files,
      steps: scored.steps,
      medianAbs: scored.medianAbs,
      p95Abs: scored.p95Abs,
    };
    const bestScore = scored.score;
    const reason = undeterminedReason(
      best,
      bestScore,
      steps.reduce((n, log) => n + informativeSteps(log.steps), 0),
    );
    fit[family] = reason === undefined ? best : { ...best, undetermined: reason };
  }
  return fit;
}

/** A candidate's pooled errors and its score, max(median |error| / 3 %, p95 |error| / 8 %). */
interface Scored {
  score: number;
  medianAbs: number;
  p95Abs: number;
  steps: number;
}

function scoreOf(logs: readonly FitLog[], calibration: Calibration): Scored {
  const abs = logs.flatMap((log) => errorsOf(log, calibration)).map(Math.abs);
  const medianAbs = median(abs);
  const p95Abs = quantile(abs, 0.95);
  return { score: Math.max(medianAbs / TARGET.medianAbs, p95Abs / TARGET.p95Abs), medianAbs, p95Abs, steps: abs.length };
}

/** The best candidate (factor index i, per-call index j) of the grid, searched coarse to fine (COARSE); ties go to the smaller factor, then framing. */
function searchGrid(score: (i: number, j: number) => Scored): Scored & { i: number; j: number } {
  const seen = new Set<number>();
  let best: (Scored & { i: number; j: number }) | undefined;
  const visit = (i: number, j: number): void => {
    if (i < 0 || j < 0 || i >= FACTORS.count || j >= PER_CALL.count || seen.has(i * PER_CALL.count + j)) return;
    seen.add(i * PER_CALL.count + j);
    const s = score(i, j);
    if (best === undefined || s.score < best.score || (s.score === best.score && (i < best.i || (i === best.i && j < best.j)))) best = { ...s, i, j };
  };
  for (let i = 0; i < FACTORS.count; i += COARSE) for (let j = 0; j < PER_CALL.count; j += COARSE) visit(i, j);
  const coarse = best as Scored & { i: number; j: number };
  for (let i = coarse.i - COARSE; i <= coarse.i + COARSE; i++) for (let j = coarse.j - COARSE; j <= coarse.j + COARSE; j++) visit(i, j);
  return best as Scored & { i: number; j: number };
}

/** A log's steps as the fit reads them, and its errors per candidate scored so far (by `candidateKey`). */
interface FitLog {
  steps: RawStep[];
  errors: Map<string, number[]>;
}

/**
 * Kept per measured log, as long as the caller keeps it: a leave-one-log-out check fits the same
 * logs again and again, in subsets (scripts/fit-leave-one-out.mjs), outside any run (whose memos
 * are off there, memo.ts).
 */
const fitLogs = new WeakMap<MeasuredTranscript, FitLog>();

function fitLogOf(m: MeasuredTranscript): FitLog {
  let log = fitLogs.get(m);
  if (log === undefined) fitLogs.set(m, (log = { steps: rawSteps(m), errors: new Map() }));
  return log;
}

function errorsOf(log: FitLog, calibration: Calibration): number[] {
  const key = `${calibration.factor}:${calibration.perToolCall}:${calibration.perEscape ?? '-'}`;
  let errors = log.errors.get(key);
  if (errors === undefined) log.errors.set(key, (errors = errorsWith(log.steps, calibration)));
  return errors;
}

/** Why a best candidate does not determine the calibration (see FittedFamily.undetermined), or undefined. */
function undeterminedReason(best: FittedFamily, score: number, informative: number): string | undefined {
  const pct = (x: number): string => `${(x * 100).toFixed(2)} %`;
  if (informative < MIN_INFORMATIVE_STEPS) {
    return `${informative} calls past each segment's first ${OFFSET_STEPS} (which set the hidden prefix); at least ${MIN_INFORMATIVE_STEPS} needed`;
  }
  if (score > 1) return `the best candidate misses the target (median |error| ${pct(best.medianAbs)}, p95 ${pct(best.p95Abs)}; target 3 % / 8 %)`;
  const edges: string[] = [];
  if (Math.abs(best.factor - FACTORS.from) < 1e-9 || Math.abs(best.factor - FACTORS.to) < 1e-9) edges.push(`factor ${best.factor}`);
  if (best.perToolCall === PER_CALL.from || best.perToolCall === PER_CALL.to) edges.push(`per tool call ${best.perToolCall}`);
  return edges.length > 0 ? `the best candidate lies on the edge of the grid (${edges.join(', ')})` : undefined;
}

/**
 * Relative errors of one file's steps under a candidate, its prefix, unlogged content and
 * rebuilds from the log estimated as the replay does (a rebuild's prefix measured anew, a
 * compaction's re-attached content over the prefix then sent).
 */
function errorsWith(steps: readonly RawStep[], candidate: Calibration): number[] {
  const computed = wholeTokens(steps, candidate);
  const usage = steps.map((s, i) => ({ recorded: s.recorded, computed: computed[i] as number, segment: s.segment }));
  const resets = new Set(resetSteps(usage));
  const split = withResets(usage, [...resets]);
  const inContext = unloggedInContext(split, unloggedBySteps(split));
  const residualsBySegment = new Map<number, number[]>();
  split.forEach((s, i) => {
    const list = residualsBySegment.get(s.segment) ?? [];
    if (list.length < OFFSET_STEPS) list.push(s.recorded - s.computed - (inContext[i] as number));
    residualsBySegment.set(s.segment, list);
  });
  const residual = (segment: number): number => median(residualsBySegment.get(segment) ?? [0]);
  const prefix = Math.max(0, residual(split[0]?.segment ?? 0));
  let base = prefix;
  let extra = 0;
  return split.map((s, i) => {
    if (i > 0 && split[i - 1]?.segment !== s.segment) {
      const measured = residual(s.segment);
      if (resets.has(i)) [base, extra] = [Math.max(0, measured), 0];
      // A compaction re-attaches over the prefix then sent; one that shows less than a rebuild's
      // prefix sends the log's own prefix again, as the replay does (swordintel-0c45b0a6 step 211:
      // 20.7k charged, where keeping the rebuild's 77.7k read +135 %).
      else [base, extra] = measured >= base ? [base, measured - base] : [prefix, Math.max(0, measured - prefix)];
    }
    return (s.computed + (inContext[i] as number) + base + extra - s.recorded) / s.recorded;
  });
}

/**
 * What the replay charges for a step's messages under a candidate, unrounded: their content by the
 * tokenizer's own rule (calibration.ts `scaledContent`), and each tool call's framing.
 */
function computedWith(step: RawStep, candidate: Calibration): number {
  return scaledContent(step.raw, { tokens: step.escapeTokens, count: step.escapes }, candidate) + candidate.perToolCall * step.calls;
}

/**
 * Each step's charge in whole tokens, as the replay counts (rounded per message): the first call
 * of a segment rounded, every later one the call before plus its growth rounded. So calls that
 * add the same messages grow by the same whole count, as in the replay; rounding each total
 * instead makes them differ by a token now and then, and the persistent excess's robust line
 * (unlogged.ts) reads that noise as a slope (mclaude-97b0ffde's identical polls: +159 a call).
 */
function wholeTokens(steps: readonly RawStep[], candidate: Calibration): number[] {
  const out: number[] = [];
  steps.forEach((step, i) => {
    const exact = computedWith(step, candidate);
    const previous = steps[i - 1];
    const before = out[i - 1];
    out.push(
      previous === undefined || before === undefined || previous.segment !== step.segment
        ? Math.round(exact)
        : before + Math.round(exact - computedWith(previous, candidate)),
    );
  });
  return out;
}

/**
 * What the fit charges for the messages of each step of a log with recorded usage under
 * `calibration`, by the step's message id (hidden prefix and unlogged content left out): what the
 * replay charges for them with the same calibration (`replayRecorded`, its prompt tokens less its
 * hidden tokens), so that what is fitted is what is replayed.
 */
export function chargedForMessages(m: MeasuredTranscript, calibration: Calibration): Map<string, number> {
  return new Map(rawSteps(m).map((step) => [step.messageId, computedWith(step, calibration)]));
}

/** Steps past the first OFFSET_STEPS of their compaction segment: the ones a candidate can get wrong. */
function informativeSteps(steps: readonly RawStep[]): number {
  const seen = new Map<number, number>();
  let n = 0;
  for (const step of steps) {
    const k = seen.get(step.segment) ?? 0;
    if (k >= OFFSET_STEPS) n++;
    seen.set(step.segment, k + 1);
  }
  return n;
}

/** The uncalibrated replay's steps with recorded usage: messages alone, tool calls and escape sequences in the context, compaction segment. */
function rawSteps(m: MeasuredTranscript): RawStep[] {
  const shape = contextShape(m.transcript, m.uncalibrated.encoding);
  const out: RawStep[] = [];
  for (const step of m.uncalibrated.steps) {
    const at = shape.get(step.messageId);
    if (step.status !== 'ok' || at === undefined) continue;
    out.push({ messageId: step.messageId, raw: step.promptTokens - (step.hiddenTokens ?? 0), ...at });
  }
  return out;
}

/**
 * Per assistant message with recorded usage: what the context `recorded` sends before it holds
 * (its tool calls and the escape sequences of its texts, walked as the strategy walks the log;
 * the texts an importer rebuilt as re-attached after a compaction left out, as the raw replay
 * leaves them out, measure.ts), its compaction segment and its recorded input.
 */
function contextShape(transcript: Transcript, encoding: Encoding): Map<string, Omit<RawStep, 'raw' | 'messageId'>> {
  const history = createHistory();
  const out = new Map<string, Omit<RawStep, 'raw' | 'messageId'>>();
  let segment = 0;
  for (const event of transcript.events) {
    if (event.type === 'compaction' && event.summary !== undefined) segment += 1;
    const recorded = event.type === 'message' && event.role === 'assistant' ? event.usage?.input : undefined;
    if (event.type === 'message' && recorded !== undefined && recorded > 0) {
      let calls = 0;
      let escapeTokens = 0;
      let escapes = 0;
      for (const message of history.messages) {
        calls += asSent(message).toolCalls?.length ?? 0;
        const cost = escapesOfMessage(encoding, message);
        escapeTokens += cost.tokens;
        escapes += cost.count;
      }
      out.set(event.id, { calls, escapeTokens, escapes, recorded, segment });
    }
    applyRecorded(history, event.type === 'compaction' ? withoutRestored(event) : event);
  }
  return out;
}
