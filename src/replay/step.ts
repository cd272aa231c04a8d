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
import { cacheRequest, messagePart, type StepParts } from '../cache/request-parts.js';
import { diffContexts, type ContextDiff } from '../transcript/context-diff.js';
import type { ContextCount } from '../tokens/context-count.js';
import { costOf, stepUsd } from '../pricing/prices.js';
import { refuseLongWait, waitToRetry } from '../quota/retry-wait.js';
import type { FollowUpTracker } from './follow-up.js';
import type { HiddenCount, HiddenTokens } from '../tokens/hidden-tokens.js';
import type { ThinkingLimit } from '../contracts/thinking.js';

/**
 * Everything a step needs. Each attempt of a step takes one `ContextDiff` from the context sent
 * before (`sent.after`) to the one the strategy prepared, and hands it to the step's incremental
 * work: the context's token count and hidden tokens, the follow-up check, the prompt cache's
 * parts, and (after the step) the observers' retention.
 */
export interface StepContext {
  scenario: Scenario;
  strategy: Strategy;
  state: unknown;
  env: StrategyEnv;
  gateway: Gateway;
  clock: Clock;
  events: RunEvent[];
  tokenizer: Tokenizer;
  /** The diff of the last request the step loop sent: its `after` is the context sent at the last step. */
  sent: ContextDiff;
  /** The token count of the contexts sent, kept along the diffs (no hidden tokens). */
  contextCount: ContextCount;
  /** The prompt cache's parts of the contexts sent, kept along the diffs. */
  stepParts: StepParts;
  /** Charges what the completion needs that the strategy cut away (follow-up.ts); none = no charge. */
  followUps?: FollowUpTracker;
  /** The provider's prompt cache for this session (src/cache/); none = nothing cached. */
  cache?: CacheState;
  /** What the scenario's model costs; none = no `costUsd`. */
  price?: ModelPrice;
  /** What the contexts sent carry beyond their messages (hidden prefix, re-sent reasoning), kept along the diffs. */
  hiddenCount: HiddenCount;
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
    const diff = diffContexts(ctx.sent.after, context);
    ctx.sent = diff;
    const thinking = ctx.outputThinking?.limit;
    const messageTokens = ctx.contextCount.update(diff);
    const hidden = ctx.hiddenCount.update(diff);
    const hiddenTokens = hidden.prefix + hidden.reasoning;
    // What the strategy's trigger compares to the window: the request's tokens, hidden ones included.
    const contextTokens = messageTokens + hiddenTokens;
    // What the agent fetches back rides on this step's prompt: quota, window and bill included.
    const fetch = ctx.followUps?.check(diff, completion, env.step);
    const retrievalTokens = fetch === undefined ? 0 : ctx.tokenizer.countMessage(fetch.message, env.format);
    const sent = fetch === undefined ? context : [...context, fetch.message];
    const attempt = await ctx.gateway.attempt(stepRequest(scenario, sent, completion, thinking), {
      useQuota: true,
      hiddenTokens,
      messageTokens: messageTokens + retrievalTokens,
    });
    const { result, inputTokens } = attempt;
    if (result.ok) {
      if (ctx.countOnlyHidden) result.usage = { ...result.usage, input: result.usage.input + hiddenTokens };
      return {
        ...okRecord(ctx, completion, { diff, contextTokens, fetch: fetch?.message }, sent, hidden, result, retries, rateLimitHits, waitMs, overheadMark),
        retrievalTokens,
        hiddenTokens: hidden.prefix,
        reasoningTokens: hidden.reasoning,
      };
    }
    const failure = result.failure;
    events.push({ type: 'failure', step: env.step, atMs: clock.now(), attempt: retries + recoveries, failure });
    if (failure.kind === 'rate-limit') rateLimitHits += 1;
    if (ctx.strategy.recover !== undefined && isRecoverable(failure) && recoveries < MAX_RECOVERIES_PER_STEP) {
      recoveries += 1;
      if ((await ctx.strategy.recover(failure, ctx.state, env)) === 'retry') continue;
    }
    const delay = retryDelay(scenario.retry, retries, failure);
    const refusal = delay === undefined ? undefined : refuseLongWait(ctx.gateway, delay, attempt);
    if (delay === undefined || refusal !== undefined) {
      const message = refusal === undefined ? failure.message : `${failure.message} (${refusal})`;
      events.push({ type: 'crash', step: env.step, atMs: clock.now(), kind: failure.kind, message });
      return {
        ...crashRecord(ctx, completion, context, contextTokens || inputTokens, failure, retries, rateLimitHits, waitMs, overheadMark),
        retrievalTokens,
        hiddenTokens: hidden.prefix,
        reasoningTokens: hidden.reasoning,
      };
    }
    const atMs = clock.now();
    const waited = await waitToRetry(ctx.gateway, clock, delay, attempt, failure.kind);
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

/** The context a step sent: its diff from the one before, its tokens (hidden ones included), and what was fetched back with it. */
interface SentContext {
  diff: ContextDiff;
  contextTokens: number;
  fetch: ContextMessage | undefined;
}

function okRecord(
  ctx: StepContext,
  completion: MessageEvent,
  context: SentContext,
  sent: ContextMessage[],
  hidden: HiddenTokens,
  result: Extract<CompletionResult, { ok: true }>,
  retries: number,
  rateLimitHits: number,
  waitMs: number,
  mark: number,
): StepRecord {
  const { env, clock } = ctx;
  const billed =
    ctx.cache === undefined ? { cached: 0, write: 0, uncached: result.usage.input } : billCache(ctx, ctx.cache, context, sent, hidden, result, completion);
  const price = ctx.price;
  return {
    step: env.step,
    messageId: completion.id,
    atMs: clock.now(),
    promptTokens: result.usage.input,
    completionTokens: result.usage.output,
    contextTokens: context.contextTokens,
    contextMessages: context.diff.after.length,
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

/** The prompt cache's bill of a step's request: its parts carried along the step's diff, the fetched message's after them. */
function billCache(
  ctx: StepContext,
  cache: CacheState,
  context: SentContext,
  sent: ContextMessage[],
  hidden: HiddenTokens,
  result: Extract<CompletionResult, { ok: true }>,
  completion: MessageEvent,
) {
  const { tokenizer, env } = ctx;
  const parts = ctx.stepParts.update(context.diff);
  const own = context.fetch === undefined ? parts : [...parts, messagePart(context.fetch, tokenizer, env.format)];
  // The recorded model served the call (a session may switch models); it owns the cache.
  const request = cacheRequest(sent, result.usage.input, tokenizer, env.format, hidden, completion.model ?? ctx.scenario.model, own);
  return applyCache(cache, request.parts, ctx.clock.now(), request.breakpoints);
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
