/**
 * A per-call limit on the model's thinking (its reasoning output), as the two APIs take it:
 * Gemini `generationConfig.thinkingConfig.thinkingBudget` (tokens) and OpenAI `reasoning_effort`
 * (a level). A level stands for a budget by Gemini's own mapping of `reasoning_effort` in its
 * OpenAI-compatible API (ai.google.dev/gemini-api/docs/openai, "thinking"): low 1,024,
 * medium 8,192, high 24,576 tokens. The simulated model caps the replayed step's reasoning tokens
 * at the budget the request carries (src/simulator/model.ts).
 */
export interface ThinkingLimit {
  /** At most this many reasoning tokens in the answer. */
  budgetTokens: number;
}

export type ReasoningEffort = 'low' | 'medium' | 'high';

export const EFFORT_BUDGETS: Record<ReasoningEffort, number> = { low: 1024, medium: 8192, high: 24_576 };

/** The highest level whose budget stays within `budgetTokens` (low when even low's is larger). */
export function effortFor(budgetTokens: number): ReasoningEffort {
  if (budgetTokens >= EFFORT_BUDGETS.high) return 'high';
  if (budgetTokens >= EFFORT_BUDGETS.medium) return 'medium';
  return 'low';
}

export function isEffort(value: unknown): value is ReasoningEffort {
  return value === 'low' || value === 'medium' || value === 'high';
}
