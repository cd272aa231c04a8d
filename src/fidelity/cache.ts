import type { CacheFidelity, FidelityFile, FidelityStep, FormatCacheFidelity } from './types.js';
import { median } from '../stats.js';

type CachedStep = FidelityStep & { cachedInput: number; predictedCached: number };

/**
 * Prompt-cache fidelity (issues 14, 29): over the steps whose recorded call says how much of its
 * prompt was served from cache (Claude Code `cache_read_input_tokens`, Codex
 * `cached_input_tokens`, OpenAI `prompt_tokens_details.cached_tokens`), how far the cached share
 * ctxbench's cache model predicts (src/cache/) is from the recorded one: the expected hit rate for
 * implicit caches, beside their upper bound; explicit caches are exact.
 *
 * Shares, not token counts: the model predicts which part of the prompt ctxbench sends is a
 * prefix hit. Where ctxbench's prompt is smaller than the real one (content the log never held,
 * such as the file-change reminders Claude Code attaches, which then ride in the cached history),
 * comparing predicted tokens with the recorded prompt would charge that token error — already
 * reported as the token error — a second time, to the cache. The mixed figure is kept as
 * `predictedOfRecorded`. Per step, the error is |predicted − recorded share| of that step's
 * prompt, so a step missing 5 % of its prompt in cache reads is 5 %.
 * Undefined when no compared step records cache reads.
 */
export function compareCache(steps: readonly FidelityStep[], model: string): CacheFidelity | undefined {
  const withCache = cachedSteps(steps);
  if (withCache === undefined) return undefined;
  const sum = (of: (s: CachedStep) => number): number => withCache.reduce((n, s) => n + of(s), 0);
  const predictedShareOf = (s: CachedStep): number => (s.computed > 0 ? Math.min(s.predictedCached, s.computed) / s.computed : 0);
  const recorded = sum((s) => s.recorded);
  const shares = pooledShares(withCache);
  return {
    steps: withCache.length,
    recordedShare: shares.recorded,
    predictedShare: shares.predicted,
    medianAbsError: median(withCache.map((s) => Math.abs(predictedShareOf(s) - s.cachedInput / s.recorded))),
    predictedOfRecorded: sum((s) => Math.min(s.predictedCached, s.recorded)) / recorded,
    upperBoundShare: shares.upperBound,
    model,
  };
}

/** The cached shares of every format whose logs record cache reads, pooled over their steps. */
export function poolCacheByFormat(files: readonly FidelityFile[]): FormatCacheFidelity[] {
  const formats = [...new Set(files.filter((f) => f.cache !== undefined).map((f) => f.format))];
  return formats.map((format) => {
    const mine = files.filter((f) => f.format === format && f.cache !== undefined);
    const steps = cachedSteps(mine.flatMap((f) => f.compared)) ?? [];
    const shares = pooledShares(steps);
    const models = [...new Set(mine.map((f) => (f.cache as CacheFidelity).model))];
    return {
      format,
      files: mine.length,
      steps: steps.length,
      recordedShare: shares.recorded,
      predictedShare: shares.predicted,
      upperBoundShare: shares.upperBound,
      models,
    };
  });
}

function cachedSteps(steps: readonly FidelityStep[]): CachedStep[] | undefined {
  const withCache = steps.filter((s): s is CachedStep => s.cachedInput !== undefined && s.predictedCached !== undefined);
  if (withCache.length === 0 || withCache.every((s) => s.cachedInput === 0)) return undefined;
  return withCache;
}

/** Recorded cached / recorded prompt; predicted and upper-bound cached / the prompt ctxbench computed. */
function pooledShares(steps: readonly CachedStep[]): { recorded: number; predicted: number; upperBound: number } {
  const sum = (of: (s: CachedStep) => number): number => steps.reduce((n, s) => n + of(s), 0);
  const recorded = sum((s) => s.recorded);
  const computed = sum((s) => s.computed);
  const share = (of: (s: CachedStep) => number): number => (computed > 0 ? sum((s) => Math.min(of(s), s.computed)) / computed : 0);
  return {
    recorded: recorded > 0 ? sum((s) => s.cachedInput) / recorded : 0,
    predicted: share((s) => s.predictedCached),
    upperBound: share((s) => s.upperBoundCached ?? s.predictedCached),
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The terminal section: predicted against recorded cached share per format, then per file. */
export function renderCacheSection(files: readonly FidelityFile[], formats: readonly FormatCacheFidelity[]): string[] {
  const mine = files.filter((f) => f.cache !== undefined);
  if (mine.length === 0) return [];
  return [
    '',
    'Prompt cache per format (cached share of the prompt: recorded, and predicted by the cache model on the prompt ctxbench sends;',
    '  implicit caches (OpenAI, Gemini) are predicted at their expected hit rate, the upper bound beside it; Anthropic is exact)',
    ...formats.map(
      (f) =>
        `  ${f.format}: ${f.files} files, ${f.steps} steps · recorded ${pct(f.recordedShare)} · predicted ${pct(f.predictedShare)} ` +
        `(${signedPoints(f.predictedShare - f.recordedShare)}) · upper bound ${pct(f.upperBoundShare)} · model ${f.models.join('; ')}`,
    ),
    '',
    'Prompt cache per file (in brackets, predicted cached tokens over the recorded prompt: the token error above included)',
    ...mine.map((f) => {
      const c = f.cache as CacheFidelity;
      return `  ${f.file}: ${c.steps} steps · recorded ${pct(c.recordedShare)} · predicted ${pct(c.predictedShare)} (${pct(c.predictedOfRecorded)}) · upper bound ${pct(c.upperBoundShare)} · |median| step error ${pct(c.medianAbsError)}`;
    }),
  ];
}

function signedPoints(x: number): string {
  const points = (x * 100).toFixed(1);
  return `${x > 0 && points !== '0.0' ? '+' : ''}${points} points`;
}
