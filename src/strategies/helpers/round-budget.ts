import type { ContextMessage } from '../../transcript/types.js';
import type { StrategyEnv } from '../types.js';

/**
 * A token budget for a windowed history, relative to the run's window so that it means the same
 * in every window: what the history holds beyond the hidden prefix may use `share` of the room the
 * window leaves after that prefix. Over it, the oldest whole units go first (see `units`).
 */
export function budgetTokens(share: number, env: StrategyEnv): number {
  const hidden = env.hiddenPrefix ?? 0;
  return Math.floor(share * Math.max(0, env.window - hidden));
}

/**
 * The history cut into units that can be dropped whole: a message that is not a tool result
 * opens a unit and the tool results after it join it, so an assistant message and the results
 * answering its calls (a tool-use round) are never separated.
 */
function units(messages: readonly ContextMessage[]): ContextMessage[][] {
  const out: ContextMessage[][] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (m.role === 'tool' && last !== undefined) last.push(m);
    else out.push([m]);
  }
  return out;
}

/** What `fitBudget` kept and how much it left out. */
export interface BudgetCut {
  context: ContextMessage[];
  /** Messages left out (0: the history fits). */
  dropped: number;
  /** Tells one cut from another (count and newest id left out); '' when nothing is left out. */
  key: string;
}

/**
 * Drops the oldest units of `body` (the history after the system prompts) until `system` plus
 * what is left fits `limit` tokens, hidden prefix aside. Never dropped: the newest user message
 * and the latest unit that opens with an assistant message (the latest round), nor the last unit,
 * so the model always sees what it is answering. When even that floor is over the limit it is sent.
 */
export function fitBudget(system: readonly ContextMessage[], body: readonly ContextMessage[], limit: number, env: StrategyEnv): BudgetCut {
  const hidden = env.hiddenPrefix ?? 0;
  const size = (messages: readonly ContextMessage[]) => env.countMessages(messages) - hidden;
  const all = [...system, ...body];
  if (size(all) <= limit) return { context: all, dropped: 0, key: '' };
  const parts = units(body);
  const lastUser = parts.findLastIndex((u) => u[0]?.role === 'user' && u[0].synthetic === undefined);
  const lastRound = parts.findLastIndex((u) => u[0]?.role === 'assistant');
  const kept = new Set([lastUser, lastRound, parts.length - 1]);
  const droppable = parts.map((_, i) => i).filter((i) => !kept.has(i));
  const build = (k: number): ContextMessage[] => {
    const gone = new Set(droppable.slice(0, k));
    // The oldest round kept stays behind the user turn it answers: a history may not open on a
    // call (Gemini refuses a function-call turn that follows no user turn).
    const first = parts.findIndex((_, i) => !gone.has(i));
    if (parts[first]?.[0]?.role === 'assistant') {
      const asked = parts.findLastIndex((u, i) => i < first && u[0]?.role === 'user');
      if (asked >= 0) gone.delete(asked);
    }
    return [...system, ...parts.filter((_, i) => !gone.has(i)).flat()];
  };
  // Fewer messages never count more tokens, so the smallest cut that fits is found by bisection
  // (a few counts per step instead of one per unit on a long session).
  if (droppable.length === 0) return { context: all, dropped: 0, key: '' };
  let lo = 1;
  let hi = droppable.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (size(build(mid)) <= limit) hi = mid;
    else lo = mid + 1;
  }
  const k = lo;
  const gone = droppable.slice(0, k).flatMap((i) => parts[i] ?? []);
  // droppable is in history order, so the newest message left out closes the last unit dropped.
  return { context: build(k), dropped: gone.length, key: `${gone.length}:${gone[gone.length - 1]?.id ?? ''}` };
}
