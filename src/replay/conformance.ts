import type { ContextMessage, MessageEvent, Transcript } from '../transcript/types.js';
import { freezeEvents, freezeMessages } from '../transcript/freeze.js';
import type { Strategy, StrategyAction, StrategyEnv } from '../strategies/types.js';
import type { CompletionResult } from '../contracts/provider.js';
import { createTokenizer } from '../tokens/tokenizer.js';
import { createArchive } from './archive.js';
import { createClock } from '../quota/clock.js';
import { QuotaGate } from '../quota/quota.js';
import { generateSession } from '../transcript/synthetic/generate.js';
import { MessageEditedError, StrategyFailedError } from '../strategies/external/failure.js';
import { refuseRequest } from '../simulator/request-rules.js';
import type { ProviderName } from '../contracts/provider.js';

/**
 * The invariants every strategy keeps (issue 3), checked by the registry test over every built-in
 * and by `ctxbench verify` over a user's strategy — one copy of the rules for both: a tool call is
 * never sent without its recorded result (nor a result without its call), every context is a
 * request OpenAI and Gemini accept (the simulated provider's rules, request-rules.ts), the system
 * prompt and the newest user message are always sent, a reducing action never grows the context,
 * the same input gives the same contexts and actions, and no message is edited in place once sent
 * (each context's messages are frozen as the step loop freezes them, the strategy's own included).
 */

/** The session the invariants are checked on: its history outgrows the window, so compacting strategies act. */
export const CONFORMANCE_WINDOW = 20_000;
export function conformanceSession(): Transcript {
  return generateSession({ steps: 60, seed: 3, toolOutputTokens: 600 });
}

/** Actions that take tokens out of the context: none may report more tokens after than before. */
const REDUCING_ACTIONS = new Set<StrategyAction['action']>(['compact', 'evict', 'truncate', 'drop', 'isolate', 'offload', 'cap-thinking']);

export type InvariantName =
  'call-result-pairs' | 'invalid-request' | 'system-prompt' | 'newest-user' | 'no-growth' | 'deterministic' | 'in-place-edit' | 'failed';

/** One broken invariant, at a step, naming the messages concerned. */
export interface Violation {
  invariant: InvariantName;
  step: number;
  /** The policy refused its options (a `failed` violation that is bad input, not a broken strategy). */
  isOptionsError?: boolean;
  message: string;
  ids: string[];
}

/** What one pass of a strategy over a transcript prepared and did. */
export interface StrategyDrive {
  contexts: ContextMessage[][];
  actions: (StrategyAction & { step: number })[];
  violations: Violation[];
}

/** Checks one prepared context against the history observed so far. */
function checkContext(step: number, context: readonly ContextMessage[], history: readonly MessageEvent[]): Violation[] {
  const problems: Violation[] = [];
  const calledBefore = new Set<string>();
  const results = new Set(context.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
  const recorded = new Map(history.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.id]));
  for (const m of context) {
    if (m.role === 'tool' && (m.toolCallId === undefined || !calledBefore.has(m.toolCallId))) {
      problems.push({ invariant: 'call-result-pairs', step, message: `step ${step}: result ${m.id} sent without its call`, ids: [m.id] });
    }
    for (const call of m.role === 'assistant' ? (m.toolCalls ?? []) : []) {
      calledBefore.add(call.id);
      const result = recorded.get(call.id);
      if (result !== undefined && !results.has(call.id)) {
        problems.push({
          invariant: 'call-result-pairs',
          step,
          message: `step ${step}: call ${call.id} (message ${m.id}) sent without its recorded result ${result}`,
          ids: [m.id, result],
        });
      }
    }
  }
  for (const refusal of refusals(step, context)) problems.push(refusal);
  const system = history.find((m) => m.role === 'system');
  if (system !== undefined && !context.some((m) => m.role === 'system' && m.text === system.text)) {
    problems.push({ invariant: 'system-prompt', step, message: `step ${step}: system prompt ${system.id} not sent`, ids: [system.id] });
  }
  const newestUser = [...history].reverse().find((m) => m.role === 'user');
  if (newestUser !== undefined && !context.some((m) => m.role === 'user' && (m.id === newestUser.id || m.text === newestUser.text))) {
    problems.push({ invariant: 'newest-user', step, message: `step ${step}: newest user message ${newestUser.id} not sent`, ids: [newestUser.id] });
  }
  return problems;
}

const PROVIDERS: Record<ProviderName, string> = { openai: 'OpenAI', gemini: 'Gemini' };

/** How each provider's API would refuse the context as a step request (a 400 with its own message). */
function refusals(step: number, context: readonly ContextMessage[]): Violation[] {
  return (['openai', 'gemini'] as const).flatMap((format) => {
    const refusal = refuseRequest(format, context);
    if (refusal === undefined) return [];
    const message = `step ${step}: ${PROVIDERS[format]} refuses the request (400): ${refusal.message.trim()}`;
    return [{ invariant: 'invalid-request' as const, step, message, ids: refusal.ids }];
  });
}

/**
 * A strategy env over the real tokenizer, archive, clock and quota, whose model answers every
 * strategy call with a fixed short summary (deterministic, no provider).
 */
function createConformanceEnv(window: number, actions: StrategyAction[]): StrategyEnv & { archive: ReturnType<typeof createArchive> } {
  const tokenizer = createTokenizer('o200k_base');
  const clock = createClock();
  const answer = (messages: readonly ContextMessage[]): CompletionResult => ({
    ok: true,
    text: `summary of ${messages.length} messages`,
    toolCalls: [],
    usage: { input: tokenizer.countMessages(messages, 'gemini'), cachedInput: 0, output: 10, reasoning: 0 },
  });
  return {
    model: { complete: async (call) => answer(call.messages) },
    quota: new QuotaGate({}, 'gemini', clock),
    window,
    clock,
    format: 'gemini',
    step: 0,
    sessionId: 'conformance-session',
    count: (text) => tokenizer.count(text),
    countMessages: (messages) => tokenizer.countMessages(messages, 'gemini'),
    archive: createArchive(),
    emit: (action) => actions.push(action),
  };
}

/** Feeds a transcript as the engine does (prepare at each assistant message, then observe) and checks every context. */
export async function driveStrategy(strategy: Strategy, options: unknown, transcript: Transcript, window = CONFORMANCE_WINDOW): Promise<StrategyDrive> {
  freezeEvents(transcript.events);
  const actions: StrategyAction[] = [];
  const env = createConformanceEnv(window, actions);
  const run: StrategyDrive = { contexts: [], actions: [], violations: [] };
  const state: unknown = strategy.init(options, { sessionId: transcript.header.id, window });
  const history: MessageEvent[] = [];
  const stepOf = new Map<StrategyAction, number>();
  env.emit = (action) => {
    actions.push(action);
    stepOf.set(action, env.step);
  };
  try {
    for (const event of transcript.events) {
      if (event.type === 'message' && event.role === 'assistant') {
        const context = await strategy.prepare(state, env);
        freezeMessages(context);
        run.contexts.push(context);
        for (const violation of checkContext(env.step, context, history)) run.violations.push(violation);
        env.step += 1;
      }
      if (event.type === 'message') {
        env.archive.add(event);
        history.push(event);
      }
      await strategy.observe?.(event, state, env);
    }
  } catch (error) {
    if (!(error instanceof StrategyFailedError)) throw error;
    const edited = error instanceof MessageEditedError;
    run.violations.push({
      invariant: edited ? 'in-place-edit' : 'failed',
      step: env.step,
      message: `step ${env.step}: ${edited ? '' : 'the strategy failed: '}${error.message}`,
      ids: [],
      ...(error.isOptionsError ? { isOptionsError: true } : {}),
    });
  } finally {
    await strategy.dispose?.(state);
  }
  run.actions = actions.map((action) => ({ ...action, step: stepOf.get(action) ?? 0 }));
  return run;
}

/** Every invariant over two passes of the strategy on the same transcript; empty when it conforms. */
export async function checkConformance(
  strategy: Strategy,
  options: unknown,
  transcript: Transcript = conformanceSession(),
  window = CONFORMANCE_WINDOW,
): Promise<Violation[]> {
  const first = await driveStrategy(strategy, options, transcript, window);
  const violations = [...first.violations];
  for (const action of first.actions) {
    if (REDUCING_ACTIONS.has(action.action) && action.tokensAfter > action.tokensBefore) {
      violations.push({
        invariant: 'no-growth',
        step: action.step,
        message: `step ${action.step}: ${action.action} "${action.reason}" grew the context from ${action.tokensBefore} to ${action.tokensAfter} tokens`,
        ids: [],
      });
    }
  }
  if (violations.some((v) => v.invariant === 'failed' || v.invariant === 'in-place-edit')) return violations;
  const second = await driveStrategy(strategy, options, transcript, window);
  const step = firstDifference(first.contexts, second.contexts);
  if (step !== undefined)
    violations.push({ invariant: 'deterministic', step, message: `step ${step}: a second pass over the same input prepared a different context`, ids: [] });
  else if (JSON.stringify(first.actions) !== JSON.stringify(second.actions)) {
    const at = first.actions[firstDifference(first.actions, second.actions) ?? 0]?.step ?? 0;
    violations.push({ invariant: 'deterministic', step: at, message: `step ${at}: a second pass over the same input took different actions`, ids: [] });
  }
  return violations;
}

function firstDifference(a: readonly unknown[], b: readonly unknown[]): number | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return i;
  return undefined;
}
