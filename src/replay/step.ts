import type { Scenario } from '../scenario/types.js';
import type { CompletionResult, Failure } from '../contracts/provider.js';
import type { Strategy, StrategyEnv } from '../strategies/types.js';
import type { Tokenizer } from '../tokens/types.js';
import type { Clock } from '../quota/types.js';
import type { ContextMessage, MessageEvent } from '../transcript/types.js';
import type { RunEvent, StepRecord } from '../metrics/run-events.js';
import type { Gateway } from '../quota/gateway.js';
import { retryDelay } from '../quota/retry.js';
import type { CacheState } from '../cache/model.js';
import type { ModelPrice } from '../pricing/prices.js';
import { applyCache } from '../cache/model.js';
import { cacheRequest } from '../cache/request-parts.js';
import { costOf, stepUsd } from '../pricing/prices.js';
import { waitToRetry } from '../quota/retry-wait.js';
import type { FollowUpTracker } from './follow-up.js';
import type { HiddenTokens } from '../tokens/hidden-tokens.js';
import type { ThinkingLimit } from '../contracts/thinking.js';

/** Everything a step needs; `previous` is the context sent at the last step. */
export interface StepContext {
  scenario: Scenario;
  strategy: Strategy;
  state: unknown;
  env: StrategyEnv;
  gateway: Gateway;
  clock: Clock;
  events: RunEvent[];
  tokenizer: Tokenizer;
  previous: readonly ContextMessage[];
  /** Charges what the completion needs that the strategy cut away (follow-up.ts); none = no charge. */
  followUps?: FollowUpTracker;
  /** The provider's prompt cache for this session (src/cache/); none = nothing cached. */
  cache?: CacheState;
  /** What the scenario's model costs; none = no `costUsd`. */
  price?: ModelPrice;
  /** What a request sending `context` carries beyond its messages (hidden prefix, re-sent reasoning). */
  hiddenOf(context: readonly ContextMessage[]): HiddenTokens;
  /** The thinking limit the strategy set while preparing the step (`env.limitOutputThinking`). */
  outputThinking?: { limit?: ThinkingLimit };
  /** Live providers are sent no padding: the hidden tokens are added to the usage they report. */
  countOnlyHidden: boolean;
}

/** How often one step may ask the strategy to recover before the retry policy alone decides. */
const MAX_RECOVERIES_PER_STEP = 3;

/**
 * Runs one step: prepare, send, and on failure recover (strategy) or wait and retry (policy).
 * Returns the step's record; a failure that is neither recovered nor retried crashes the step.
 */
export async function runStep(ctx: StepContext, completion: MessageEvent): Promise<StepRecord> {
  const { env, clock, events, scenario } = ctx;
  const overheadMark = events.length;
  let retries = 0;
  let recoveries = 0;
  let rateLimitHits = 0;
  let waitMs = 0;
  for (;;) {
    if (ctx.outputThinking !== undefined) delete ctx.outputThinking.limit;
    const context = await ctx.strategy.prepare(ctx.state, env);
    const thinking = ctx.outputThinking?.limit;
    const contextTokens = env.countMessages(context);
    // What the agent fetches back rides on this step's prompt: quota, window and bill included.
    const fetch = ctx.followUps?.check(context, completion, env.step);
    const retrievalTokens = fetch === undefined ? 0 : ctx.tokenizer.countMessage(fetch.message, env.format);
    const sent = fetch === undefined ? context : [...context, fetch.message];
    const hidden = ctx.hiddenOf(context);
    const hiddenTokens = hidden.prefix + hidden.reasoning;
    const attempt = await ctx.gateway.attempt(stepRequest(scenario, sent, completion, thinking), { useQuota: true, hiddenTokens });
    const { result, inputTokens } = attempt;
    if (result.ok) {
      if (ctx.countOnlyHidden) result.usage = { ...result.usage, input: result.usage.input + hiddenTokens };
      const record = {
        ...okRecord(ctx, completion, context, sent, hidden, result, retries, rateLimitHits, waitMs, overheadMark),
        retrievalTokens,
        hiddenTokens: hidden.prefix,
        reasoningTokens: hidden.reasoning,
      };
      ctx.previous = context;
      return record;
    }
    const failure = result.failure;
    events.push({ type: 'failure', step: env.step, atMs: clock.now(), attempt: retries + recoveries, failure });
    if (failure.kind === 'rate-limit') rateLimitHits += 1;
    if (ctx.strategy.recover !== undefined && isRecoverable(failure) && recoveries < MAX_RECOVERIES_PER_STEP) {
      recoveries += 1;
      if ((await ctx.strategy.recover(failure, ctx.state, env)) === 'retry') continue;
    }
    const delay = retryDelay(scenario.retry, retries, failure);
    if (delay === undefined) {
      events.push({ type: 'crash', step: env.step, atMs: clock.now(), kind: failure.kind, message: failure.message });
      ctx.previous = context;
      return {
        ...crashRecord(ctx, completion, context, contextTokens || inputTokens, failure, retries, rateLimitHits, waitMs, overheadMark),
        retrievalTokens,
        hiddenTokens: hidden.prefix,
        reasoningTokens: hidden.reasoning,
      };
    }
    const atMs = clock.now();
    const waited = await waitToRetry(ctx.gateway, clock, delay, attempt);
    events.push({ type: 'wait', step: env.step, atMs, ms: waited, reason: failure.kind });
    waitMs += waited;
    retries += 1;
  }
}

function isRecoverable(failure: Failure): boolean {
  return failure.kind === 'overflow' || failure.kind === 'rate-limit' || failure.kind === 'quota';
}

function stepRequest(scenario: Scenario, context: ContextMessage[], completion: MessageEvent, thinking: ThinkingLimit | undefined) {
  return {
    model: scenario.model,
    messages: context,
    maxOutputTokens: scenario.maxOutputTokens,
    ...(thinking !== undefined ? { thinking } : {}),
    purpose: 'step' as const,
    directive: {
      purpose: 'step' as const,
      window: scenario.window,
      replay: {
        text: completion.text,
        ...(completion.thinking !== undefined ? { thinking: completion.thinking } : {}),
        // A text-protocol agent's call is in its text: the model wrote no separate call.
        ...(completion.toolCalls !== undefined && completion.sentAsText !== true ? { toolCalls: completion.toolCalls } : {}),
        ...(completion.thoughtSignature !== undefined ? { thoughtSignature: completion.thoughtSignature } : {}),
      },
    },
  };
}

/** Tokens of the strategy's own calls since `mark` (they belong to this step). */
function overheadSince(events: readonly RunEvent[], mark: number): number {
  return overheadCallsSince(events, mark).reduce((n, e) => n + e.inputTokens + e.outputTokens, 0);
}

function overheadCallsSince(events: readonly RunEvent[], mark: number): Extract<RunEvent, { type: 'call' }>[] {
  const calls: Extract<RunEvent, { type: 'call' }>[] = [];
  for (let i = mark; i < events.length; i++) {
    const e = events[i];
    if (e?.type === 'call' && e.purpose !== 'step' && e.purpose !== 'probe') calls.push(e);
  }
  return calls;
}

/** USD of the strategy's own calls since `mark` (those that succeeded), net of the prompt cache. */
function overheadCostSince(events: readonly RunEvent[], mark: number, price: ModelPrice): number {
  let usd = 0;
  for (const e of overheadCallsSince(events, mark)) {
    if (!e.ok) continue;
    const cached = e.cachedTokens ?? 0;
    const write = e.cacheWriteTokens ?? 0;
    usd += costOf({ cached, write, uncached: e.inputTokens - cached - write, output: e.outputTokens }, price);
  }
  return usd;
}

function okRecord(
  ctx: StepContext,
  completion: MessageEvent,
  context: ContextMessage[],
  sent: ContextMessage[],
  hidden: HiddenTokens,
  result: Extract<CompletionResult, { ok: true }>,
  retries: number,
  rateLimitHits: number,
  waitMs: number,
  mark: number,
): StepRecord {
  const { env, clock, tokenizer } = ctx;
  // The recorded model served the call (a session may switch models); it owns the cache.
  const request = cacheRequest(sent, result.usage.input, tokenizer, env.format, hidden, completion.model ?? ctx.scenario.model);
  const billed =
    ctx.cache === undefined ? { cached: 0, write: 0, uncached: result.usage.input } : applyCache(ctx.cache, request.parts, clock.now(), request.breakpoints);
  const price = ctx.price;
  return {
    step: env.step,
    messageId: completion.id,
    atMs: clock.now(),
    promptTokens: result.usage.input,
    completionTokens: result.usage.output,
    contextTokens: env.countMessages(context),
    contextMessages: context.length,
    cachedPrefixTokens: billed.cached,
    cacheWriteTokens: billed.write,
    ...(price !== undefined
      ? { costUsd: stepUsd(costOf({ ...billed, output: result.usage.output }, price) + overheadCostSince(ctx.events, mark, price)) }
      : {}),
    overheadTokens: overheadSince(ctx.events, mark),
    retries,
    rateLimitHits,
    waitMs,
    status: 'ok',
  };
}

function crashRecord(
  ctx: StepContext,
  completion: MessageEvent,
  context: ContextMessage[],
  contextTokens: number,
  failure: Failure,
  retries: number,
  rateLimitHits: number,
  waitMs: number,
  mark: number,
): StepRecord {
  return {
    step: ctx.env.step,
    messageId: completion.id,
    atMs: ctx.clock.now(),
    promptTokens: 0,
    completionTokens: 0,
    contextTokens,
    contextMessages: context.length,
    cachedPrefixTokens: 0,
    cacheWriteTokens: 0,
    ...(ctx.price !== undefined ? { costUsd: stepUsd(overheadCostSince(ctx.events, mark, ctx.price)) } : {}),
    overheadTokens: overheadSince(ctx.events, mark),
    retries,
    rateLimitHits,
    waitMs,
    status: 'crashed',
    failure: failure.kind,
  };
}
