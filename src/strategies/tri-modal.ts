import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, leadingSystem, type History } from './helpers/history.js';
import { alignCut, newestUserIndex } from './helpers/message-units.js';
import { requestSummary } from './helpers/summary-call.js';
import { effortFor } from '../contracts/thinking.js';
import { passes, resolveTriggers, triggerLines, type ThresholdOptions, type Triggers } from './helpers/tri-modal-thresholds.js';

const options = z.strictObject({
  semanticTokens: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('semantic trigger: a task status update and the context above this many tokens (default 50k, scaled to the window: tri-modal-thresholds.ts)'),
  standardTokens: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('standard trigger: the context above this many tokens (default 200k, scaled to the window: tri-modal-thresholds.ts)'),
  semanticShare: z.number().positive().max(1).optional().describe('semantic trigger as a share of the window (wins over semanticTokens)'),
  standardShare: z.number().positive().max(1).optional().describe('standard trigger as a share of the window (wins over standardTokens)'),
  survivalFactor: z
    .number()
    .positive()
    .default(1.2)
    .describe('survival trigger: the estimated next turn (tokens so far / turns so far) times this factor exceeds the quota left in the current minute'),
  minTurns: z.number().int().min(0).default(1).describe('no trigger fires before this many turns have been sent'),
  recentTokens: z.number().int().positive().default(3000).describe('budget of the newest turn kept after a flush, in tokens'),
  recapTokens: z
    .number()
    .int()
    .positive()
    .default(2048)
    .describe(
      'output budget of the recap, in tokens; a trigger flushes only when the system prompt, the newest turn and this budget are smaller than the history',
    ),
  thinkingQuotaTokens: z
    .number()
    .int()
    .min(0)
    .default(200_000)
    .describe("dynamic thinking budget: limit the answer's thinking while the quota left in the minute is below this many tokens"),
  thinkingCapTokens: z
    .number()
    .int()
    .positive()
    .default(8192)
    .describe("the limit on the answer's thinking (low effort), in tokens: Gemini thinkingBudget, OpenAI reasoning_effort (thinking.ts)"),
});

export type Options = z.infer<typeof options>;
type Mode = 'survival' | 'standard' | 'semantic';

export interface State extends History {
  options: Options;
  /** The semantic and standard triggers in this run's window. */
  triggers: Triggers;
  /** The scaling note was written to the action log. */
  noted: boolean;
  /** A task event arrived since the last prepare. */
  taskUpdated: boolean;
  /** Turns sent so far and the context tokens they carried (the survival estimate). */
  turns: number;
  tokensSoFar: number;
  /** Context tokens of the last prepared context (added to `tokensSoFar` when its turn completes). */
  lastContextTokens: number;
  /**
   * The size the last flush left (or kept, when it could not shrink): the triggers' hysteresis
   * counts from it (tri-modal-thresholds.ts `passes`); undefined before the first flush.
   */
  flushedAt: number | undefined;
  recaps: number;
  /** The last step was sent with the thinking limit. */
  lowEffort: boolean;
  /** Steps sent with the thinking limit so far. */
  lowEffortSteps: number;
}

export const RECAP_PROMPT = [
  'Recap this session for the agent that continues it. Cover: the task and its status, what was done,',
  'decisions and their reasons, open problems, and the exact file paths, commands, identifiers and numbers still needed.',
  'Be brief; keep exact values verbatim.',
].join(' ');

/**
 * Three compression triggers (semantic, standard, survival) that flush the history to a recap plus
 * the newest turn, and a dynamic thinking budget when the minute's quota runs low.
 */
export const triModal: Strategy<Options, State> = {
  name: 'tri-modal',
  description:
    "Flushes the history to a model recap plus the newest turn (~3,000 tokens) on a semantic (task update and > 50k), standard (> 200k; both defaults written for a 1M window and scaled to smaller ones) or survival (next turn × 1.2 > quota left this minute) trigger; limits the answer's thinking to 8,192 tokens (thinkingBudget / reasoning_effort) while under 200k TPM is left.",
  options,
  init: (opts, context) => ({
    ...createHistory(),
    options: opts,
    triggers: resolveTriggers(opts, context.window),
    noted: false,
    taskUpdated: false,
    turns: 0,
    tokensSoFar: 0,
    lastContextTokens: 0,
    flushedAt: undefined,
    recaps: 0,
    lowEffort: false,
    lowEffortSteps: 0,
  }),
  observe(event, state) {
    if (event.type === 'task') state.taskUpdated = true;
    if (event.type === 'message' && event.role === 'assistant') {
      // The assistant message is the completion of the turn that was just sent.
      state.turns += 1;
      state.tokensSoFar += state.lastContextTokens;
    }
    applyToHistory(state, event);
  },
  async prepare(state, env) {
    const tokens = env.countMessages(state.messages);
    settleTriggers(state, env, tokens);
    const mode = triggered(state, env, tokens);
    state.taskUpdated = false;
    if (mode !== undefined && canShrink(state, env, tokens)) await flush(state, env, tokens, mode);
    const context = [...state.messages];
    state.lastContextTokens = env.countMessages(context);
    limitThinking(state, env, state.lastContextTokens);
    return context;
  },
  thresholds: triggerLines,
};

/**
 * At the first step, resolves the triggers with the run's hidden prefix (known only to the env)
 * and records, if the defaults were scaled to the window, the rule and the result.
 */
export function settleTriggers(state: { options: ThresholdOptions; triggers: Triggers; noted: boolean }, env: StrategyEnv, tokens: number): void {
  if (state.noted) return;
  state.noted = true;
  state.triggers = resolveTriggers(state.options, env.window, env.hiddenPrefix ?? 0);
  if (state.triggers.scaled === undefined) return;
  env.emit({
    action: 'note',
    reason: 'triggers scaled to the window',
    mode: 'scaled',
    tokensBefore: tokens,
    tokensAfter: tokens,
    detail: state.triggers.scaled,
  });
}

/** The trigger that fires, the most urgent first, or undefined. */
function triggered(state: State, env: StrategyEnv, tokens: number): Mode | undefined {
  const o = state.options;
  const t = state.triggers;
  const after = state.flushedAt;
  if (state.turns < o.minTurns) return undefined;
  // The estimate of the next turn needs at least one turn behind it; after a flush, the context must have grown.
  const survival = state.turns > 0 && (state.tokensSoFar / state.turns) * o.survivalFactor > env.quota.remainingTpm();
  if (survival && (after === undefined || tokens > after)) return 'survival';
  if (passes(tokens, t.standard, t.floor, after)) return 'standard';
  if (state.taskUpdated && passes(tokens, t.semantic, t.floor, after)) return 'semantic';
  return undefined;
}

function reasonOf(mode: Mode, state: State, env: StrategyEnv, tokens: number): string {
  const o = state.options;
  if (mode === 'survival') {
    const estimate = Math.round(state.tokensSoFar / state.turns);
    return `next turn ≈ ${estimate} tokens × ${o.survivalFactor} > ${env.quota.remainingTpm()} left this minute`;
  }
  if (mode === 'standard') return `context of ${tokens} tokens > ${state.triggers.standard}`;
  return `task status update with a context of ${tokens} tokens > ${state.triggers.semantic}`;
}

/**
 * A flush keeps the system prompt, the newest turn and a recap that may be as long as its budget:
 * when that is not smaller than the history, a recap call could only cost tokens.
 */
function canShrink(state: State, env: StrategyEnv, tokens: number): boolean {
  const kept = [...leadingSystem(state.messages), ...newestTurn(state.messages, state.options.recentTokens, env)];
  return env.countMessages(kept) + state.options.recapTokens < tokens;
}

async function flush(state: State, env: StrategyEnv, before: number, mode: Mode): Promise<void> {
  env.emit({ action: 'trigger', reason: reasonOf(mode, state, env, before), mode, tokensBefore: before, tokensAfter: before });
  const recap = await requestSummary(env, {
    instruction: RECAP_PROMPT,
    messages: [...state.messages],
    maxOutputTokens: state.options.recapTokens,
    purpose: 'recap',
    reason: 'recap',
    mode,
    shrinkOnOverflow: true,
  });
  // No recap, no flush: the history is kept (the note says why) until it grows again.
  if (!recap.ok) {
    state.flushedAt = before;
    return;
  }
  const flushed = [
    ...leadingSystem(state.messages),
    recapMessage(recap.text, state.recaps + 1),
    ...newestTurn(state.messages, state.options.recentTokens, env),
  ];
  const after = env.countMessages(flushed);
  if (after >= before) {
    env.emit({
      action: 'note',
      reason: 'flush would not shrink the history; kept it',
      mode,
      tokensBefore: before,
      tokensAfter: before,
      detail: `flushed: ${after} tokens`,
    });
    state.flushedAt = before;
    return;
  }
  state.messages = flushed;
  state.recaps += 1;
  state.flushedAt = after;
  env.emit({ action: 'compact', reason: 'history flushed to the recap and the newest turn', mode, tokensBefore: before, tokensAfter: after });
}

/**
 * The newest turn: the newest user message and, within `budget` tokens, the latest messages after
 * it (at least the last one), never cutting a tool call from its results.
 */
export function newestTurn(messages: readonly ContextMessage[], budget: number, env: Pick<StrategyEnv, 'countMessages'>): ContextMessage[] {
  const user = newestUserIndex(messages);
  const start = user + 1;
  const systemEnd = leadingSystem(messages).length;
  let cut = alignCut(messages, messages.length - 1);
  while (cut > Math.max(start, systemEnd)) {
    const wider = alignCut(messages, cut - 1);
    if (env.countMessages(messages.slice(wider)) > budget) break;
    cut = wider;
  }
  cut = Math.max(cut, systemEnd);
  const tail = messages.slice(cut);
  return user >= 0 && user < cut ? [messages[user] as ContextMessage, ...tail] : tail;
}

function recapMessage(recap: string, n: number): ContextMessage {
  return { type: 'message', id: `tri-modal-recap-${n}`, role: 'user', text: `Recap of the session so far:\n${recap}`, synthetic: 'tri-modal recap' };
}

/**
 * Seed 001's dynamic thinking budget: while the minute's quota is low, the step is sent with a
 * thinking limit (Gemini `thinkingBudget`, OpenAI `reasoning_effort`: src/contracts/thinking.ts),
 * so the answer thinks less and costs fewer completion tokens. The context is not touched.
 */
function limitThinking(state: State, env: StrategyEnv, tokens: number): void {
  const { thinkingQuotaTokens, thinkingCapTokens } = state.options;
  const left = env.quota.remainingTpm();
  const low = left < thinkingQuotaTokens;
  if (low) {
    env.limitOutputThinking?.({ budgetTokens: thinkingCapTokens });
    state.lowEffortSteps += 1;
  }
  // The timeline marks each switch of effort, not every step spent in it.
  if (low === state.lowEffort) return;
  state.lowEffort = low;
  env.emit(
    low
      ? {
          action: 'cap-thinking',
          reason: `${left} tokens left this minute < ${thinkingQuotaTokens}`,
          mode: 'low effort',
          tokensBefore: tokens,
          tokensAfter: tokens,
          detail: `the answer's thinking limited to ${thinkingCapTokens} tokens (reasoning_effort ${effortFor(thinkingCapTokens)})`,
        }
      : {
          action: 'note',
          reason: `${left} tokens left this minute ≥ ${thinkingQuotaTokens}: thinking no longer limited`,
          mode: 'full effort',
          tokensBefore: tokens,
          tokensAfter: tokens,
        },
  );
}
