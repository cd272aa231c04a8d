import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { createHistory, leadingSystem } from './helpers/history.js';
import { keepWholeRounds } from './helpers/message-units.js';
import { createBook } from './helpers/eviction-book.js';
import { closeTask, evictTask, sendable, surgicalEviction, surgicalOptions, type FinishedTask, type State as SurgicalState } from './surgical-eviction.js';
import { settleTriggers, newestTurn, RECAP_PROMPT } from './tri-modal.js';
import { passes, resolveTriggers, triggerLines, type Triggers } from './helpers/tri-modal-thresholds.js';
import { requestSummary } from './helpers/summary-call.js';

const options = z.strictObject({
  ...surgicalOptions.shape,
  semanticTokens: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('semantic trigger: finished tasks are evicted once the context is above this many tokens (default 50k, scaled to the window as tri-modal does)'),
  standardTokens: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('standard trigger: above this many tokens after the evictions, the history is flushed to a recap (default 200k, scaled to the window)'),
  semanticShare: z.number().positive().max(1).optional().describe('semantic trigger as a share of the window'),
  standardShare: z.number().positive().max(1).optional().describe('standard trigger as a share of the window'),
  survivalFactor: z
    .number()
    .positive()
    .default(1.2)
    .describe('survival trigger: the estimated next turn times this factor exceeds the quota left this minute: finished tasks are evicted whatever the size'),
  recentTokens: z.number().int().positive().default(3000).describe('budget of the newest turn kept after a recap flush, in tokens'),
  recapTokens: z.number().int().positive().default(2048).describe('output budget of the recap, in tokens'),
});

export type Options = z.infer<typeof options>;

export interface State {
  options: Options;
  surgical: SurgicalState;
  triggers: Triggers;
  noted: boolean;
  /** Tasks finished since the last flush, not yet evicted. */
  finished: FinishedTask[];
  turns: number;
  tokensSoFar: number;
  lastContextTokens: number;
  /**
   * The latest recap and every id the recaps so far replaced (a recap summarizes the one before
   * it, so the set only grows: a replaced message never comes back).
   */
  recap: { replaced: Set<string>; message: ContextMessage } | undefined;
  recaps: number;
  /** The size the last recap flush left (or kept): the standard trigger's hysteresis counts from it. */
  flushedAt: number | undefined;
}

/**
 * Seed 001's composition: surgical eviction inside tri-modal's semantic mode. Tasks are tagged
 * and archived as surgical-eviction does, but a finished task is evicted only when tri-modal's
 * triggers say so: the semantic trigger (finished tasks and a context above the semantic size)
 * or the survival trigger (the next turn would not fit the minute's quota). Above the standard
 * size after the evictions, the history is flushed to a recap plus the newest turn.
 */
export const sigma: Strategy<Options, State> = {
  name: 'sigma',
  description:
    'Surgical eviction inside tri-modal: finished tasks become tombstones when the semantic (context > 50k, scaled to the window) or survival trigger fires; above the standard size (200k, scaled) the rest is flushed to a recap plus the newest turn.',
  options,
  init: (opts, context) => ({
    options: opts,
    flushedAt: undefined,
    surgical: { ...createHistory(), options: opts, sessionId: context.sessionId, open: [], tags: new Map(), book: createBook(), notes: [] },
    triggers: resolveTriggers(opts, context.window),
    noted: false,
    finished: [],
    turns: 0,
    tokensSoFar: 0,
    lastContextTokens: 0,
    recap: undefined,
    recaps: 0,
  }),
  observe(event, state, env) {
    if (event.type === 'task') {
      const task = closeTask(event, state.surgical, env);
      if (task !== undefined) state.finished.push({ event, task });
      return;
    }
    if (event.type === 'message' && event.role === 'assistant') {
      state.turns += 1;
      state.tokensSoFar += state.lastContextTokens;
    }
    void surgicalEviction.observe?.(event, state.surgical, env);
  },
  async prepare(state, env) {
    let context = current(state);
    const tokens = env.countMessages(context);
    settleTriggers(state, env, tokens);
    const mode = evictionTrigger(state, env, tokens);
    if (mode !== undefined) {
      env.emit({ action: 'trigger', reason: `${mode}: ${state.finished.length} finished task(s) evicted`, mode, tokensBefore: tokens, tokensAfter: tokens });
      for (const { event, task } of state.finished) evictTask(event, task, state.surgical, env);
      state.finished = [];
      context = current(state);
    }
    const size = env.countMessages(context);
    if (passes(size, state.triggers.standard, state.triggers.floor, state.flushedAt)) context = await flush(state, env, context, size);
    state.lastContextTokens = env.countMessages(context);
    return context;
  },
  thresholds: triggerLines,
};

/** The trigger that evicts the finished tasks now, or undefined. */
function evictionTrigger(state: State, env: StrategyEnv, tokens: number): 'survival' | 'semantic' | undefined {
  if (state.finished.length === 0) return undefined;
  if (state.turns > 0 && (state.tokensSoFar / state.turns) * state.options.survivalFactor > env.quota.remainingTpm()) return 'survival';
  return tokens > state.triggers.semantic ? 'semantic' : undefined;
}

/** The surgical context, with the messages an earlier recap replaced folded into it. */
function current(state: State): ContextMessage[] {
  const context = sendable(state.surgical.messages, state.surgical);
  const recap = state.recap;
  if (recap === undefined) return context;
  const system = leadingSystem(context).length;
  // A task evicted after the recap (its tombstones are new messages) may stand partly for messages
  // the recap replaced: its calls and results stay or go together.
  const kept = keepWholeRounds(context, (m, i) => i < system || !recap.replaced.has(m.id));
  return [...kept.slice(0, system), recap.message, ...kept.slice(system)];
}

async function flush(state: State, env: StrategyEnv, context: ContextMessage[], before: number): Promise<ContextMessage[]> {
  const o = state.options;
  const kept = [...leadingSystem(context), ...newestTurn(context, o.recentTokens, env)];
  if (env.countMessages(kept) + o.recapTokens >= before) return context;
  env.emit({
    action: 'trigger',
    reason: `context of ${before} tokens > ${state.triggers.standard}`,
    mode: 'standard',
    tokensBefore: before,
    tokensAfter: before,
  });
  const recap = await requestSummary(env, {
    instruction: RECAP_PROMPT,
    messages: context,
    maxOutputTokens: o.recapTokens,
    purpose: 'recap',
    reason: 'recap',
    mode: 'standard',
    shrinkOnOverflow: true,
  });
  if (!recap.ok) {
    state.flushedAt = before;
    return context;
  }
  const keptIds = new Set(kept.map((m) => m.id));
  const previous = state.recap;
  const message: ContextMessage = {
    type: 'message',
    id: `sigma-recap-${state.recaps + 1}`,
    role: 'user',
    text: `Recap of the session so far:\n${recap.text}`,
    synthetic: 'sigma recap',
  };
  const replaced = new Set(previous?.replaced);
  for (const m of context) if (!keptIds.has(m.id)) replaced.add(m.id);
  state.recap = { replaced, message };
  const flushed = current(state);
  const after = env.countMessages(flushed);
  state.flushedAt = Math.min(after, before);
  if (after >= before) {
    state.recap = previous;
    env.emit({
      action: 'note',
      reason: 'flush would not shrink the history; kept it',
      mode: 'standard',
      tokensBefore: before,
      tokensAfter: before,
      detail: `flushed: ${after} tokens`,
    });
    return context;
  }
  state.recaps += 1;
  env.emit({
    action: 'compact',
    reason: 'history flushed to the recap and the newest turn',
    mode: 'standard',
    tokensBefore: before,
    tokensAfter: env.countMessages(flushed),
  });
  return flushed;
}
