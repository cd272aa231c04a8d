import type { CacheFidelity, FidelityFile, FidelityStep } from './types.js';
import { median } from './stats.js';

/**
 * Prompt-cache fidelity (issue 14): over the steps whose recorded call says how much of its
 * prompt was served from cache (Claude Code `cache_read_input_tokens`, Codex
 * `cached_input_tokens`, OpenAI `prompt_tokens_details.cached_tokens`), how far the cached tokens
 * ctxbench's cache model predicts (src/cache/) are from the recorded ones. The per-step error is
 * relative to the step's recorded prompt, so a 100k-token step missing 5k of cache reads is 5 %.
 * Undefined when no compared step records cache reads.
 */
export function compareCache(steps: readonly FidelityStep[]): CacheFidelity | undefined {
  const withCache = steps.filter((s): s is FidelityStep & { cachedInput: number; predictedCached: number } => s.cachedInput !== undefined && s.predictedCached !== undefined);
  if (withCache.length === 0 || withCache.every((s) => s.cachedInput === 0)) return undefined;
  const prompt = withCache.reduce((n, s) => n + s.recorded, 0);
  const recorded = withCache.reduce((n, s) => n + s.cachedInput, 0);
  const predicted = withCache.reduce((n, s) => n + Math.min(s.predictedCached, s.recorded), 0);
  return {
    steps: withCache.length,
    recordedShare: recorded / prompt,
    predictedShare: predicted / prompt,
    medianAbsError: median(withCache.map((s) => Math.abs(s.predictedCached - s.cachedInput) / s.recorded)),
  };
}

/** The terminal section: one line per file that records cache reads. */
export function renderCacheSection(files: readonly FidelityFile[]): string[] {
  const mine = files.filter((f) => f.cache !== undefined);
  if (mine.length === 0) return [];
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  return [
    '',
    'Prompt cache (cached share of recorded prompt tokens: predicted by the cache model vs recorded; error per step as a share of its prompt)',
    ...mine.map((f) => {
      const c = f.cache as CacheFidelity;
      return `  ${f.file}: ${c.steps} steps · recorded ${pct(c.recordedShare)} · predicted ${pct(c.predictedShare)} · |median| step error ${pct(c.medianAbsError)}`;
    }),
  ];
}
