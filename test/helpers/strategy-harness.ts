import type { ContextMessage, TranscriptEvent } from '../../src/transcript/types.js';
import type { Strategy, StrategyAction, StrategyEnv, StrategyModelCall } from '../../src/strategies/types.js';
import type { CompletionResult } from '../../src/contracts/provider.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import { createArchive } from '../../src/replay/archive.js';
import { createClock } from '../../src/quota/clock.js';
import { QuotaGate } from '../../src/quota/quota.js';

/** Builds canonical messages tersely for strategy tables. */
export const msg = {
  system: (id: string, text = `system ${id}`): TranscriptEvent => ({ type: 'message', id, role: 'system', text }),
  user: (id: string, text = `user ${id}`): TranscriptEvent => ({ type: 'message', id, role: 'user', text }),
  assistant: (id: string, text = `assistant ${id}`, extra: Partial<ContextMessage> = {}): TranscriptEvent => ({
    type: 'message',
    id,
    role: 'assistant',
    text,
    ...extra,
  }),
  call: (id: string, callId: string, name = 'read_file'): TranscriptEvent => ({
    type: 'message',
    id,
    role: 'assistant',
    text: '',
    toolCalls: [{ id: callId, name, args: { path: `src/${callId}.ts` } }],
  }),
  tool: (id: string, callId: string, text = `result ${id}`): TranscriptEvent => ({
    type: 'message',
    id,
    role: 'tool',
    text,
    toolCallId: callId,
    toolName: 'read_file',
  }),
};

export interface Harness {
  env: StrategyEnv;
  actions: StrategyAction[];
  calls: StrategyModelCall[];
  /** The thinking limits the strategy set, with the step they were set at. */
  thinkingLimits: { step: number; budgetTokens: number }[];
}

/**
 * A strategy env over the real tokenizer, archive, clock and quota; its model answers with a
 * caller-given function (strategies' own calls), so strategy tables need no provider.
 */
export function createHarness(options: { window?: number; answer?: (call: StrategyModelCall) => CompletionResult } = {}): Harness {
  const tokenizer = createTokenizer('o200k_base');
  const clock = createClock();
  const actions: StrategyAction[] = [];
  const calls: StrategyModelCall[] = [];
  const thinkingLimits: Harness['thinkingLimits'] = [];
  const answer =
    options.answer ??
    ((call: StrategyModelCall): CompletionResult => ({
      ok: true,
      text: `summary of ${call.messages.length} messages`,
      toolCalls: [],
      usage: { input: tokenizer.countMessages(call.messages, 'gemini'), cachedInput: 0, output: 10, reasoning: 0 },
    }));
  const env: StrategyEnv = {
    model: {
      complete: async (call) => {
        calls.push(call);
        return answer(call);
      },
    },
    quota: new QuotaGate({}, 'gemini', clock),
    window: options.window ?? 100_000,
    clock,
    format: 'gemini',
    step: 0,
    sessionId: 'test-session',
    count: (text) => tokenizer.count(text),
    countMessages: (messages) => tokenizer.countMessages(messages, 'gemini'),
    archive: createArchive(),
    emit: (action) => actions.push(action),
    limitOutputThinking: (limit) => thinkingLimits.push({ step: env.step, budgetTokens: limit.budgetTokens }),
  };
  return { env, actions, calls, thinkingLimits };
}

/** Feeds events to a strategy (as the engine does) and returns the context it prepares. */
export async function replay<O, S>(
  strategy: Strategy<O, S>,
  options: Partial<O>,
  events: TranscriptEvent[],
  harness = createHarness(),
): Promise<{ context: ContextMessage[]; state: S; harness: Harness }> {
  const opts = strategy.options.parse(options);
  const state = strategy.init(opts, { sessionId: harness.env.sessionId, window: harness.env.window });
  for (const event of events) {
    if (event.type === 'message') (harness.env.archive as ReturnType<typeof createArchive>).add(event);
    await strategy.observe?.(event, state, harness.env);
  }
  const context = await strategy.prepare(state, harness.env);
  return { context, state, harness };
}

export const ids = (context: readonly ContextMessage[]): string[] => context.map((m) => m.id);
