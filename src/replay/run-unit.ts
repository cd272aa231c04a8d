import type { Scenario, StrategySpec } from '../scenario/types.js';
import { freezeEvents } from '../transcript/freeze.js';
import type { Provider } from '../contracts/provider.js';
import type { Tokenizer } from '../tokens/types.js';
import type { ContextMessage, MessageEvent, Transcript } from '../transcript/types.js';
import type { UnitResult } from '../metrics/types.js';
import type { RunEvent, StepRecord } from '../metrics/run-events.js';
import type { Strategy, StrategyEnv } from '../strategies/types.js';
import type { RetrySleep } from '../quota/types.js';
import { createClock } from '../quota/clock.js';
import { QuotaGate } from '../quota/quota.js';
import { createStepTimer, parseAtTimes } from '../quota/pacing.js';
import { deriveSeed } from '../random.js';
import { withRunMemos } from '../memo.js';
import { summarizeUnit } from '../metrics/summarize.js';
import { createArchive } from './archive.js';
import { withRetention } from '../cache/retention.js';
import { createHiddenCount, eventOrder, hiddenTokensOf } from '../tokens/hidden-tokens.js';
import { fitRestored, resolveHiddenPrefix } from './hidden-prefix.js';
import { createGateway } from '../quota/gateway.js';
import { resolveStrategy } from './resolve-strategy.js';
import { createStrategyModel } from './strategy-model.js';
import { runStep, type StepContext } from './step.js';
import { createFollowUpTracker } from './follow-up.js';
import { createCacheState } from '../cache/model.js';
import { createStepParts } from '../cache/request-parts.js';
import { createContextCount } from '../tokens/context-count.js';
import { wholeContext } from '../transcript/context-diff.js';
import { cacheRulesForModel } from '../cache/families.js';
import { resolvePrice } from '../pricing/resolve.js';
import type { UnitObserver } from './observer.js';
import type { NeededSet } from '../probes/needed/measure.js';
import { loadStrategyModules } from '../strategies/external/module-loader.js';
import { StrategyFailedError } from '../strategies/external/failure.js';
import { recordStrategyCrash } from './strategy-crash.js';

export interface UnitInput {
  scenario: Scenario;
  transcript: Transcript;
  spec: StrategySpec;
  provider: Provider;
  tokenizer: Tokenizer;
  /** A strategy object to use instead of the registry's (library users' own strategies). */
  strategyOverride?: Strategy;
  /** Measurement hooks (probes, retention); optional. */
  observer?: UnitObserver;
  /** Live providers: how a provider's refusal is waited out in real time (measured); ignored when mocked. */
  retrySleep?: RetrySleep;
  /** Live providers: a retry wait asked for beyond this ends the call at once (`--max-retry-wait`). */
  maxRetryWaitMs?: number;
  /** The transcript's needed uses (probes/needed/measure.ts): a fact the context lacks but leads back to is read back, and charged (follow-up.ts). */
  needed?: NeededSet;
}

/**
 * Replays one transcript through one strategy (DESIGN.md §3): for every recorded assistant
 * message, the strategy prepares the context, the gateway sends it, failures go to the
 * strategy's `recover` and then the retry policy. Everything happens on a virtual clock.
 */
export async function runUnit(input: UnitInput): Promise<UnitResult> {
  // A unit run on its own (fidelity, a library caller) owns its memos; within a run it joins the run's.
  return withRunMemos({}, () => replayUnit(input));
}

async function replayUnit(input: UnitInput): Promise<UnitResult> {
  const { scenario, transcript, spec, provider, tokenizer } = input;
  freezeEvents(transcript.events);
  if (input.strategyOverride === undefined) await loadStrategyModules([spec], scenario.file);
  const { strategy, options } = resolveStrategy(spec, scenario.file, input.strategyOverride);
  const clock = createClock();
  const quota = new QuotaGate(scenario.quota, scenario.provider, clock);
  const events: RunEvent[] = [];
  const steps: StepRecord[] = [];
  const archive = createArchive();
  const assistants = transcript.events.filter((e): e is MessageEvent => e.type === 'message' && e.role === 'assistant');
  const timer = createStepTimer({
    pacing: scenario.pacing,
    seed: deriveSeed(scenario.seed, 'pacing'),
    stepTimes: parseAtTimes(assistants.map((m) => m.at)),
  });
  const gateway = createGateway({
    provider,
    quota,
    tokenizer,
    window: scenario.window,
    requireThoughtSignatures: provider.name === 'gemini' && assistants.some((m) => m.thoughtSignature !== undefined),
    ...(input.retrySleep !== undefined ? { sleep: input.retrySleep, maxSleepMs: scenario.retry.maxDelayMs } : {}),
    ...(input.maxRetryWaitMs !== undefined ? { maxWaitMs: input.maxRetryWaitMs } : {}),
  });
  const format = provider.name;
  const hiddenPrefix = resolveHiddenPrefix(scenario.hiddenPrefix ?? 'auto', transcript, tokenizer, format);
  // Where a log was rebuilt from itself, what a message carries depends on whether it came before (hidden-tokens.ts).
  const order = hiddenPrefix.rebuilt !== undefined ? eventOrder(transcript.events) : undefined;
  const hiddenOf = (messages: readonly ContextMessage[]) => hiddenTokensOf(messages, hiddenPrefix, tokenizer, format, transcript.header.dialect, order);
  // Request-level: what a request sending these messages costs, hidden tokens included, so every
  // strategy's trigger compares to the window what the agent's request really held.
  const countMessages: StrategyEnv['countMessages'] = (messages) => {
    const hidden = hiddenOf(messages);
    return tokenizer.countMessages(messages, format) + hidden.prefix + hidden.reasoning;
  };
  const cache = createCacheState(withRetention(cacheRulesForModel(scenario.model, scenario.promptCache), scenario.model, transcript.events));
  // The model the session is on: a recorded switch (Claude Code's Opus → Sonnet fallback) moves it.
  let servedModel = scenario.model;
  const outputThinking: NonNullable<StepContext['outputThinking']> = {};
  const env: StrategyEnv = {
    model: createStrategyModel({ gateway, scenario, events, clock, stepOf: () => env.step, cache, tokenizer, format, servedModel: () => servedModel }),
    quota,
    window: scenario.window,
    clock,
    format,
    step: 0,
    sessionId: transcript.header.id,
    count: (text) => tokenizer.count(text),
    countMessages,
    hiddenPrefix: hiddenPrefix.tokens,
    archive,
    emit: (action) => events.push({ type: 'action', step: env.step, atMs: clock.now(), ...action }),
    limitOutputThinking: (limit) => (outputThinking.limit = limit),
  };
  const state: unknown = strategy.init(options, { sessionId: transcript.header.id, window: scenario.window });
  const followUps = createFollowUpTracker(archive, input.needed);
  const price = resolvePrice(scenario.model, scenario.prices);
  const ctx: StepContext = {
    scenario,
    strategy,
    state,
    env,
    gateway,
    clock,
    events,
    tokenizer,
    sent: wholeContext([]),
    contextCount: createContextCount(tokenizer, format),
    stepParts: createStepParts(tokenizer, format),
    followUps,
    hiddenCount: createHiddenCount(hiddenPrefix, tokenizer, format, transcript.header.dialect, order),
    outputThinking,
    countOnlyHidden: provider.mode !== 'mock',
    cache,
    ...(price !== undefined ? { price } : {}),
  };
  let lastOutput = 0;
  input.observer?.onStart?.(ctx);

  // The assistant message whose step is being run: a strategy failing then crashes that step.
  let preparing: MessageEvent | undefined;
  // A unit whose strategy failed has no probe figures: there is no strategy left to prepare the end context.
  let probes: Awaited<ReturnType<NonNullable<UnitObserver['onEnd']>>> | undefined;
  let crashed = false;
  try {
    for (const event of fitRestored(transcript.events, hiddenPrefix)) {
      if (event.type === 'message' && event.role === 'assistant') {
        clock.advanceTo(timer.timeOfStep(env.step, lastOutput, clock.now()));
        preparing = event;
        servedModel = event.model ?? scenario.model;
        const record = await runStep(ctx, event);
        preparing = undefined;
        steps.push(record);
        await input.observer?.onStep?.(record, ctx.sent, env);
        lastOutput = record.completionTokens;
        env.step += 1;
        // After an unrecovered crash the session ends, as it would for a real agent.
        if (record.status === 'crashed' && scenario.onCrash === 'stop') break;
      }
      if (event.type === 'message') {
        archive.add(event);
        followUps.observe(event);
      }
      if (event.type === 'compaction') {
        events.push({
          type: 'recorded-compaction',
          step: env.step,
          atMs: clock.now(),
          id: event.id,
          tokensBefore: event.tokensBefore,
          tokensAfter: event.tokensAfter,
        });
      }
      await strategy.observe?.(event, state, env);
      input.observer?.onEvent?.(event, env);
    }
    probes = (await input.observer?.onEnd?.(ctx, env)) ?? undefined;
  } catch (error) {
    if (!(error instanceof StrategyFailedError)) {
      await disposeStrategy(strategy, state).catch(() => undefined);
      throw error;
    }
    recordStrategyCrash(ctx, steps, error, preparing);
    crashed = true;
  }
  // A dispose that throws or hangs ends a unit that had not crashed yet; the first failure is the one reported.
  const disposed = await disposeStrategy(strategy, state);
  if (disposed !== undefined && !crashed) recordStrategyCrash(ctx, steps, disposed, undefined);
  const summary = summarizeUnit({
    scenario: scenario.name,
    strategy: spec.label,
    totalSteps: assistants.length,
    steps,
    events,
    ...(probes !== undefined ? { probes } : {}),
  });
  const thresholds = strategy.thresholds?.(options, scenario.window) ?? [];
  return {
    scenario: scenario.name,
    strategy: spec.label,
    options,
    ...(hiddenPrefix.source !== 'none' ? { hiddenPrefix } : {}),
    summary,
    steps,
    events,
    ...(thresholds.length > 0 ? { thresholds } : {}),
    ...(probes?.detail !== undefined ? { probes: probes.detail } : {}),
  };
}

/** Disposes the strategy once the unit ends: its failure when the strategy failed there, else undefined. */
async function disposeStrategy(strategy: Strategy, state: unknown): Promise<StrategyFailedError | undefined> {
  try {
    await strategy.dispose?.(state);
    return undefined;
  } catch (error) {
    if (error instanceof StrategyFailedError) return error;
    throw error;
  }
}
