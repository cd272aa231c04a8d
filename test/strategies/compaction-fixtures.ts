import type { ContextMessage, TranscriptEvent } from '../../src/transcript/types.js';
import type { Strategy } from '../../src/strategies/types.js';
import type { CompletionResult, Failure } from '../../src/contracts/provider.js';
import type { QuotaView } from '../../src/quota/types.js';
import { createHarness, type Harness } from '../helpers/strategy-harness.js';
import { summarizeMessages } from '../../src/simulator/summarizer.js';
import { generateSession } from '../../src/transcript/synthetic/generate.js';

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

/** What driving a whole session through a strategy produced. */
export interface Drive {
  contexts: ContextMessage[][];
  actions: Harness['actions'];
  /** Invariant violations (pairing, system prompt, newest user message, growing compactions). */
  violations: string[];
  overflows: number;
}

/**
 * Drives a session as the engine does, window check included: a context over the window is an
 * overflow handed to `recover` (at most 3 times per step). Checks the invariants of issue 3 at
 * every step.
 */
export async function driveSession(strategy: Strategy, options: Record<string, unknown>, events: readonly TranscriptEvent[], harness: Harness): Promise<Drive> {
  const { env } = harness;
  const state: unknown = strategy.init(strategy.options.parse(options), { sessionId: env.sessionId, window: env.window });
  const history: ContextMessage[] = [];
  const drive: Drive = { contexts: [], actions: harness.actions, violations: [], overflows: 0 };
  for (const event of events) {
    if (event.type === 'message' && event.role === 'assistant') {
      let context = await strategy.prepare(state, env);
      for (let attempt = 0; attempt < 3 && env.countMessages(context) > env.window; attempt++) {
        const overflow: Failure = { kind: 'overflow', message: 'over the window' };
        if ((await strategy.recover?.(overflow, state, env)) !== 'retry') break;
        context = await strategy.prepare(state, env);
      }
      if (env.countMessages(context) > env.window) drive.overflows += 1;
      drive.contexts.push(context);
      drive.violations.push(...violationsOf(env.step, context, history));
      env.step += 1;
    }
    if (event.type === 'message') {
      (env.archive as unknown as { add(m: typeof event): void }).add(event);
      history.push(event);
    }
    await strategy.observe?.(event, state, env);
  }
  const reducing = new Set(['compact', 'truncate', 'offload', 'cap-thinking']);
  for (const a of harness.actions) if (reducing.has(a.action) && a.tokensAfter > a.tokensBefore) drive.violations.push(`${a.action} grew: ${a.reason}`);
  return drive;
}

function violationsOf(step: number, context: readonly ContextMessage[], history: readonly ContextMessage[]): string[] {
  const out: string[] = [];
  if (!isPaired(context, history)) out.push(`step ${step}: a call and its result separated`);
  const system = history.find((m) => m.role === 'system');
  if (system !== undefined && !context.some((m) => m.id === system.id)) out.push(`step ${step}: system prompt not sent`);
  const user = [...history].reverse().find((m) => m.role === 'user');
  if (user !== undefined && !context.some((m) => m.id === user.id)) out.push(`step ${step}: newest user message not sent`);
  return out;
}

/** A 60-step synthetic Gemini session (tasks, thinking, signatures) that outgrows a 20k window. */
export const longSession = (): TranscriptEvent[] => generateSession({ steps: 60, seed: 3, toolOutputTokens: 600 }).events;

/** A harness whose model summarizes as the simulated provider does (extractive, within the budget). */
export function simulatedHarness(window: number): Harness {
  const h: Harness = createHarness({
    window,
    answer: (call) =>
      answer(summarizeMessages(call.messages, { budgetTokens: call.maxOutputTokens, count: (text) => h.env.count(text), prompt: call.instruction ?? '' })),
  });
  return h;
}
