import type { Calibration } from './types.js';

/**
 * Model families whose tokenizer is not public, with how o200k_base counts are turned into
 * theirs: `tokens ≈ factor × o200k tokens + perToolCall × tool calls`. Fitted per family on the
 * recorded usage of real logs (`ctxbench fidelity --fit`), never per file, so the same rule holds
 * on logs nobody has seen. The derivation of each default is in the README (Fidelity).
 *
 * claude — fitted on fixtures/real/claude-code and claude-code-long (6 sessions, 373 calls), with
 * the content Claude Code sent but did not log charged (replay/unlogged.ts): Claude's tokenizer
 * cuts code, paths and LaTeX finer than o200k_base (≈ 1.19 ×), and Anthropic renders each
 * tool_use / tool_result pair in a framing of its own that costs ≈ 55 tokens more than the
 * chat-completions framing ctxbench counts.
 *
 * gemini — fitted on the 23 mini-swe-agent trajectories (Gemini 3 Pro, whole prompt in the log,
 * no native tool calls): a factor alone. It holds on the Gemini CLI recording, which it never saw.
 */
export const DEFAULT_CALIBRATION: Readonly<Record<string, Calibration>> = {
  claude: { factor: 1.185, perToolCall: 55, perEscape: 3.5 },
  gemini: { factor: 1.165, perToolCall: 0 },
};

/** The calibration family of a model, or undefined when its tokenizer is public (OpenAI) or unknown. */
export function calibrationFamily(model: string): string | undefined {
  const m = model.toLowerCase().replace(/^[a-z0-9-]+\//, '');
  if (m.startsWith('claude') || m.includes('anthropic')) return 'claude';
  if (m.startsWith('gemini') || m.startsWith('gemma')) return 'gemini';
  return undefined;
}

/** The calibration ctxbench applies to a model's counts (undefined: o200k_base counts as they are). */
export function calibrationFor(model: string, table: Readonly<Record<string, Calibration>> = DEFAULT_CALIBRATION): Calibration | undefined {
  const family = calibrationFamily(model);
  return family === undefined ? undefined : table[family];
}

/** What the escape sequences of a message's text cost in raw tokens, and how many there are. */
export interface EscapeCost {
  tokens: number;
  count: number;
}

/**
 * What `calibration` charges for content of `raw` raw tokens, of which `escapes` are terminal
 * escape sequences, before its tool calls' framing and unrounded: the raw count scaled, and with
 * an escape weight each sequence at that weight in place of its scaled raw cost. The one rule the
 * tokenizer charges a message by (tokenizer.ts `countMessage`, rounded per message) and the
 * calibration fit charges a step's messages by (fidelity/fit.ts), so the two never differ.
 */
export function scaledContent(raw: number, escapes: EscapeCost, calibration: Calibration): number {
  const { factor, perEscape } = calibration;
  return perEscape === undefined ? factor * raw : factor * (raw - escapes.tokens) + perEscape * escapes.count;
}
