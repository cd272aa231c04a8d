import type { ContextMessage, TranscriptEvent } from '../../src/transcript/types.js';
import type { Strategy } from '../../src/strategies/types.js';
import type { CompletionResult, Failure } from '../../src/providers/types.js';
import type { QuotaView } from '../../src/sim/types.js';
import { createHarness, type Harness } from '../helpers/strategy-harness.js';

/** Shared pieces of the compacting strategies' tables (codex-rebuild, tri-modal, reactive-compress, gatekeeper). */

/** Text of about `n` tokens (o200k: " alpha" is one token). */
export const words = (n: number, word = 'alpha'): string => `${word} `.repeat(n).trim();

/** A model answer the harness returns. */
export const answer = (text: string): CompletionResult => ({ ok: true, text, toolCalls: [], usage: { input: 0, cachedInput: 0, output: 0, reasoning: 0 } });
export const failure = (failure: Failure): CompletionResult => ({ ok: false, failure });

/** A quota view with a fixed amount left this minute. */
export const quotaLeft = (left: number): QuotaView => ({ limits: { tpm: 1_000_000 }, remainingTpm: () => left, usedLastMinute: () => 1_000_000 - left });

export interface Run<S> {
  state: S;
  harness: Harness;
  /** The context prepared before each assistant message, then the final one. */
  contexts: ContextMessage[][];
}

/**
 * Replays events as the engine does: before each assistant message the strategy prepares the
 * step's context, then observes it; a final prepare closes the run.
 */
export async function runSteps<O, S>(strategy: Strategy<O, S>, options: Partial<O>, events: TranscriptEvent[], harness = createHarness()): Promise<Run<S>> {
  const state = strategy.init(strategy.options.parse(options), { sessionId: harness.env.sessionId, window: harness.env.window });
  const run: Run<S> = { state, harness, contexts: [] };
  await continueSteps(strategy, run, events);
  return run;
}

/** Feeds more events to a run, then prepares again. */
export async function continueSteps<O, S>(strategy: Strategy<O, S>, run: Run<S>, events: TranscriptEvent[]): Promise<ContextMessage[]> {
  const { env } = run.harness;
  for (const event of events) {
    if (event.type === 'message' && event.role === 'assistant') {
      run.contexts.push(await strategy.prepare(run.state, env));
      env.step += 1;
    }
    if (event.type === 'message') (env.archive as unknown as { add(m: typeof event): void }).add(event);
    await strategy.observe?.(event, run.state, env);
  }
  const last = await strategy.prepare(run.state, env);
  run.contexts.push(last);
  return last;
}

/** Every tool result's call is in the context, and every call's result that exists in `history` is too. */
export function isPaired(context: readonly ContextMessage[], history: readonly TranscriptEvent[]): boolean {
  const ids = new Set(context.map((m) => m.id));
  const calls = new Map<string, string>();
  for (const m of context) for (const call of m.toolCalls ?? []) calls.set(call.id, m.id);
  for (const m of context) if (m.role === 'tool' && (m.toolCallId === undefined || !calls.has(m.toolCallId))) return false;
  for (const e of history) {
    if (e.type !== 'message' || e.role !== 'tool' || e.toolCallId === undefined) continue;
    if (calls.has(e.toolCallId) && !ids.has(e.id)) return false;
  }
  return true;
}

export const actionsOf = (harness: Harness, action: string) => harness.actions.filter((a) => a.action === action);

/** The ids of the message events, in order. */
export const messageIds = (events: readonly TranscriptEvent[]): string[] => events.flatMap((e) => (e.type === 'message' ? [e.id] : []));
