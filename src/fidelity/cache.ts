import type { CacheFidelity, FidelityFile, FidelityStep } from './types.js';
import { median } from '../stats.js';

/**
 * Prompt-cache fidelity (issue 14): over the steps whose recorded call says how much of its
 * prompt was served from cache (Claude Code `cache_read_input_tokens`, Codex
 * `cached_input_tokens`, OpenAI `prompt_tokens_details.cached_tokens`), how far the cached share
 * ctxbench's cache model predicts (src/cache/) is from the recorded one.
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
export function compareCache(steps: readonly FidelityStep[]): CacheFidelity | undefined {
  const withCache = steps.filter(
    (s): s is FidelityStep & { cachedInput: number; predictedCached: number } => s.cachedInput !== undefined && s.predictedCached !== undefined,
  );
  if (withCache.length === 0 || withCache.every((s) => s.cachedInput === 0)) return undefined;
  const sum = (of: (s: (typeof withCache)[number]) => number): number => withCache.reduce((n, s) => n + of(s), 0);
  const predictedShareOf = (s: (typeof withCache)[number]): number => (s.computed > 0 ? Math.min(s.predictedCached, s.computed) / s.computed : 0);
  const recorded = sum((s) => s.recorded);
  const computed = sum((s) => s.computed);
  return {
    steps: withCache.length,
    recordedShare: sum((s) => s.cachedInput) / recorded,
    predictedShare: computed > 0 ? sum((s) => Math.min(s.predictedCached, s.computed)) / computed : 0,
    medianAbsError: median(withCache.map((s) => Math.abs(predictedShareOf(s) - s.cachedInput / s.recorded))),
    predictedOfRecorded: sum((s) => Math.min(s.predictedCached, s.recorded)) / recorded,
  };
}

/** The terminal section: one line per file that records cache reads. */
export function renderCacheSection(files: readonly FidelityFile[]): string[] {
  const mine = files.filter((f) => f.cache !== undefined);
  if (mine.length === 0) return [];
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  return [
    '',
    'Prompt cache (cached share of the prompt: predicted by the cache model, of the prompt ctxbench sends, vs recorded; error per step as a share of its prompt;',
    '  in brackets, predicted cached tokens over the recorded prompt: the token error above included)',
    ...mine.map((f) => {
      const c = f.cache as CacheFidelity;
      return `  ${f.file}: ${c.steps} steps · recorded ${pct(c.recordedShare)} · predicted ${pct(c.predictedShare)} (${pct(c.predictedOfRecorded)}) · |median| step error ${pct(c.medianAbsError)}`;
    }),
  ];
}
