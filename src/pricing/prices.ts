/**
 * The price table (issue 14): USD per million tokens, per model, with the date each figure was
 * read and its public source. Versioned: change `PRICE_TABLE_VERSION` when a figure changes, so a
 * result says which prices it was costed with. A scenario's `prices` field overrides an entry.
 * @public — not read yet; kept for results to name their prices (issue 14).
 */
export const PRICE_TABLE_VERSION = '2026-11-26.1';

export interface ModelPrice {
  /** Uncached input. */
  input: number;
  /** Input read from the prompt cache. */
  cachedInput: number;
  /** Input written to the prompt cache (Anthropic 5-minute write; 0 where writes are free). */
  cacheWrite: number;
  output: number;
  /** Where the figures come from, and when they were read. */
  source: string;
  asOf: string;
}

const ANTHROPIC = 'https://docs.anthropic.com/en/docs/about-claude/pricing';
const OPENAI = 'https://openai.com/api/pricing/ and https://platform.openai.com/docs/pricing';
const GEMINI = 'https://ai.google.dev/gemini-api/docs/pricing (paid tier, prompts ≤ 200k tokens)';
const AS_OF = '2025-10';

function anthropic(input: number, output: number): ModelPrice {
  // Cache reads 0.1× input, 5-minute writes 1.25× (1-hour writes, 2×, are not modelled).
  return { input, cachedInput: input / 10, cacheWrite: input * 1.25, output, source: ANTHROPIC, asOf: AS_OF };
}

function openai(input: number, cachedInput: number, output: number): ModelPrice {
  return { input, cachedInput, cacheWrite: 0, output, source: OPENAI, asOf: AS_OF };
}

/** An OpenAI model from before prompt caching (2024-10): cached input costs what input does. */
function legacy(input: number, output: number): ModelPrice {
  return { input, cachedInput: input, cacheWrite: 0, output, source: OPENAI, asOf: '2024-04' };
}

function gemini(input: number, cachedInput: number, output: number, asOf = AS_OF): ModelPrice {
  return { input, cachedInput, cacheWrite: 0, output, source: GEMINI, asOf };
}

/** Longest matching prefix of the model name wins (`gpt-4.1-mini` before `gpt-4.1`). */
const PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-4-5': anthropic(5, 25),
  'claude-opus-4': anthropic(15, 75),
  'claude-sonnet-4': anthropic(3, 15),
  'claude-3-7-sonnet': anthropic(3, 15),
  'claude-3-5-sonnet': anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-5-haiku': anthropic(0.8, 4),
  'gpt-5-nano': openai(0.05, 0.005, 0.4),
  'gpt-5-mini': openai(0.25, 0.025, 2),
  'gpt-5': openai(1.25, 0.125, 10),
  'gpt-4.1-nano': openai(0.1, 0.025, 0.4),
  'gpt-4.1-mini': openai(0.4, 0.1, 1.6),
  'gpt-4.1': openai(2, 0.5, 8),
  'gpt-4o-mini': openai(0.15, 0.075, 0.6),
  'gpt-4o': openai(2.5, 1.25, 10),
  // Models of older agent runs (SWE-agent 0.x), at the rates of their time: no prompt caching then.
  'gpt-4-turbo': legacy(10, 30),
  'gpt-4-1106-preview': legacy(10, 30),
  'gpt-4-0125-preview': legacy(10, 30),
  'gpt-4-0613': legacy(30, 60),
  'gpt-3.5-turbo': legacy(0.5, 1.5),
  'claude-3-opus': anthropic(15, 75),
  'claude-3-sonnet': anthropic(3, 15),
  'claude-3-haiku': anthropic(0.25, 1.25),
  // The model of the bundled mini-swe-agent runs (preview prices, published with the model in 2025-11).
  'gemini-3-pro': gemini(2, 0.2, 12, '2025-11'),
  'gemini-2.5-pro': gemini(1.25, 0.125, 10),
  'gemini-2.5-flash-lite': gemini(0.1, 0.01, 0.4),
  'gemini-2.5-flash': gemini(0.3, 0.03, 2.5),
  'gemini-2.0-flash': gemini(0.1, 0.025, 0.4),
};

/** The price of a model: the longest table key its name starts with; undefined when unknown. */
export function priceForModel(model: string, table: Readonly<Record<string, ModelPrice>> = PRICES): ModelPrice | undefined {
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: string | undefined;
  for (const key of Object.keys(table)) if (name.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  return best === undefined ? undefined : table[best];
}

/** A run's recorded totals: what it cost, for how many tokens in and out. */
export interface CostedTotals {
  costUsd: number;
  input: number;
  output: number;
}

/** How close a table model's cost of the totals must come to the recorded cost to name it. */
const COST_MATCH = 0.01;

/**
 * The table model whose rates give a run's recorded cost (input and output at list price, as
 * agents that record totals only, such as SWE-agent, cost their runs): the first that comes within
 * 1 % of it. Undefined when none does, or when models of different families do (the rates alone
 * cannot tell which was called).
 */
export function modelPricedAt(totals: CostedTotals): string | undefined {
  if (totals.costUsd <= 0) return undefined;
  const matches = Object.entries(PRICES).filter(([, price]) => {
    const usd = (totals.input * price.input + totals.output * price.output) / 1_000_000;
    return Math.abs(usd - totals.costUsd) <= COST_MATCH * totals.costUsd;
  });
  const families = new Set(matches.map(([, price]) => price.source));
  return families.size === 1 ? matches[0]?.[0] : undefined;
}

/** Tokens of one call as billed. */
export interface BilledTokens {
  cached: number;
  write: number;
  uncached: number;
  output: number;
}

/**
 * A step's USD as recorded: rounded to the micro-dollar that result.json keeps, so totals summed
 * from a run and from its merged shards (which read the written steps back) are the same numbers.
 */
export function stepUsd(usd: number): number {
  return Number(usd.toFixed(6));
}

/** USD of one call. */
export function costOf(tokens: BilledTokens, price: ModelPrice): number {
  return (tokens.uncached * price.input + tokens.cached * price.cachedInput + tokens.write * price.cacheWrite + tokens.output * price.output) / 1_000_000;
}
