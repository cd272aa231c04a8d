/**
 * Published long-context scores the reader's context-rot curves are calibrated on
 * (`reader.contextRot`, docs/probes.md "Context rot"). Every figure below is copied from the
 * authors' own tables and was checked against them; nothing is fitted or invented. A score is a
 * percentage at a context length in tokens (1K = 1,024).
 */

/** One model's row of a published table: its short-context reference and its scores by length. */
export interface PublishedRow {
  /** The model as the table names it. */
  model: string;
  /** The score the others are normalised to (NoLiMa: the base score; RULER: the 4K score). */
  reference: number;
  /** Tokens at which `reference` was measured (the curve is 1 up to there). */
  referenceTokens: number;
  /** `[tokens, score %]`, by increasing length. */
  scores: readonly (readonly [number, number])[];
}

const K = 1024;

function nolimaRow(model: string, base: number, s1k: number, s2k: number, s4k: number, s8k: number, s16k: number, s32k: number): PublishedRow {
  // The base score is the mean accuracy at 250, 500 and 1K tokens: it is placed at 500, their middle.
  const scores = [
    [K, s1k],
    [2 * K, s2k],
    [4 * K, s4k],
    [8 * K, s8k],
    [16 * K, s16k],
    [32 * K, s32k],
  ] as const;
  return { model, reference: base, referenceTokens: 500, scores };
}

/**
 * NoLiMa (Modarressi et al., "NoLiMa: Long-Context Evaluation Beyond Literal Matching", ICML 2025,
 * arXiv 2502.05167): the main results table (base score, then 1K, 2K, 4K, 8K, 16K, 32K), as the
 * authors publish it in github.com/adobe-research/NoLiMa README.md ("Results"; checked at commit
 * 55966a38). A needle whose question shares no words with it, in an unrelated haystack: the
 * closest published setting to a probe whose question says what a value was for, not the value.
 */
export const NOLIMA: Readonly<Record<string, PublishedRow>> = {
  'gpt-4o': nolimaRow('GPT-4o', 99.3, 98.1, 98.0, 95.7, 89.2, 81.6, 69.7),
  'llama-3.3-70b': nolimaRow('Llama 3.3 70B', 97.3, 94.2, 87.4, 81.5, 72.1, 59.5, 42.7),
  'llama-3.1-405b': nolimaRow('Llama 3.1 405B', 94.7, 89.0, 85.0, 74.5, 60.1, 48.4, 38.0),
  'llama-3.1-70b': nolimaRow('Llama 3.1 70B', 94.5, 91.0, 81.8, 71.2, 62.7, 51.8, 43.2),
  'gemini-1.5-pro': nolimaRow('Gemini 1.5 Pro', 92.6, 86.4, 82.7, 75.4, 63.9, 55.5, 48.2),
  'jamba-1.5-mini': nolimaRow('Jamba 1.5 Mini', 92.4, 76.3, 74.1, 70.8, 62.2, 52.7, 43.6),
  'command-r-plus': nolimaRow('Command R+', 90.9, 77.0, 73.5, 66.3, 39.5, 21.3, 7.4),
  'mistral-large-2': nolimaRow('Mistral Large 2', 87.9, 86.1, 85.5, 73.3, 51.5, 32.6, 18.7),
  'claude-3.5-sonnet': nolimaRow('Claude 3.5 Sonnet', 87.6, 85.4, 84.0, 77.6, 61.7, 45.7, 29.8),
  'gemini-1.5-flash': nolimaRow('Gemini 1.5 Flash', 84.7, 68.6, 61.6, 51.0, 44.4, 35.5, 28.6),
  'gpt-4o-mini': nolimaRow('GPT-4o mini', 84.9, 67.7, 58.2, 44.1, 32.6, 20.6, 13.7),
  'llama-3.1-8b': nolimaRow('Llama 3.1 8B', 76.7, 65.7, 54.4, 44.1, 31.9, 22.6, 14.2),
};

function rulerRow(model: string, s4k: number, s8k: number, s16k: number, s32k: number, s64k: number, s128k: number): PublishedRow {
  const scores = [
    [4 * K, s4k],
    [8 * K, s8k],
    [16 * K, s16k],
    [32 * K, s32k],
    [64 * K, s64k],
    [128 * K, s128k],
  ] as const;
  return { model, reference: s4k, referenceTokens: 4 * K, scores };
}

/**
 * RULER (Hsieh et al., "RULER: What's the Real Context Size of Your Long-Context Language
 * Models?", COLM 2024, arXiv 2404.06654): the per-model average over its 13 tasks at 4K … 128K,
 * from the main results table as the authors publish it in github.com/NVIDIA/RULER README.md
 * (checked at commit ebe802cd). Only rows the RULER authors measured themselves (the README marks
 * rows taken from other reports with `*`; none of these is). RULER has no shorter length: the
 * curve is normalised to the 4K score.
 */
export const RULER: Readonly<Record<string, PublishedRow>> = {
  'gpt-4-1106-preview': rulerRow('GPT-4-1106-preview', 96.6, 96.3, 95.2, 93.2, 87.0, 81.2),
  'gemini-1.5-pro': rulerRow('Gemini-1.5-pro', 96.7, 95.8, 96.0, 95.9, 95.9, 94.4),
  'llama-3.1-70b': rulerRow('Llama3.1 (70B)', 96.5, 95.8, 95.4, 94.8, 88.4, 66.6),
  'llama-3.1-8b': rulerRow('Llama3.1 (8B)', 95.5, 93.8, 91.6, 87.4, 84.7, 77.0),
  'qwen2-72b': rulerRow('Qwen2 (72B)', 96.9, 96.1, 94.9, 94.1, 79.8, 53.7),
  'command-r-plus': rulerRow('Command-R-plus (104B)', 95.6, 95.2, 94.2, 92.0, 84.3, 63.1),
  'mixtral-8x22b': rulerRow('Mixtral-8x22B (39B/141B)', 95.6, 94.9, 93.4, 90.9, 84.7, 31.7),
  'yi-34b': rulerRow('Yi (34B)', 93.3, 92.2, 91.3, 87.5, 83.2, 77.3),
};

/** The model each benchmark's curve uses when none is named (`nolima`, `ruler`). */
export const DEFAULT_MODELS = { nolima: 'gpt-4o', ruler: 'gpt-4-1106-preview' } as const;
