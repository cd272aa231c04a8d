import { runWeakMap } from '../memo.js';
import type { ObservedProbeFigures, UnitObserver } from './observer.js';
import type { StepContext } from './step.js';
import type { RunEvent, StepRecord } from '../metrics/run-events.js';
import type { ProbeAnswer, RetentionCurve, UnitProbeResult } from '../metrics/types.js';
import type { StrategyEnv } from '../strategies/types.js';
import type { ContextMessage } from '../transcript/types.js';
import { diffContexts, type ContextDiff } from '../transcript/context-diff.js';
import { freezeMessages } from '../transcript/freeze.js';
import { aggregateProbes } from '../probes/aggregate.js';
import { answerProbe, unansweredProbe, type AskPoint, type JudgeProbeAnswer } from '../probes/answer.js';
import type { ProbeCallDeps } from '../probes/ask.js';
import { judgeAnswer } from '../probes/judge-call.js';
import type { MeasuredProbe, ProbeSet } from '../probes/probe-set.js';
import { MessageRetention, holdsNormalised, prepareMessages } from '../probes/context-text.js';
import type { PreparedProbe } from '../probes/retention.js';
import { specificsSurvivalInMessages } from '../probes/message-specifics.js';
import { classifyOutcome } from '../probes/outcome.js';
import { isValidAt, type ReferenceMode } from '../probes/reference.js';
import { applyToHistory, createHistory } from '../strategies/helpers/history.js';
import type { PreparedContext } from '../probes/retention.js';
import { withContextRot } from '../probes/context-rot.js';
import { NeededMeter } from '../probes/needed/measure.js';
import { answerRecallNeeded, neededFigures } from '../metrics/needed.js';

/**
 * The recall measurement of one unit (DESIGN.md §6), as engine hooks. It sees what the strategy
 * sends and never changes it.
 *
 * - Retention: at every step sent without a crash, and on the end context, every probe whose
 *   evidence is visible by then is checked against the context (retention.ts, no model call).
 * - Answers: `{step: n}` is asked on the context step n sent; `after-compaction` on the first
 *   context sent after each `compact` action (the step whose preparation compacted) that touched
 *   the probe (its fact was in the context before), and on the first context after a rewrite took
 *   its fact out (`after-rewrite`: retention fell from 1 to 0 without a compaction), once the
 *   probe's evidence is visible; `end` on the context the strategy would send for one more step:
 *   `prepare` is called once more after the last event. That call may compact; its model calls
 *   are the strategy's own and so are charged as its overhead (and its `compact` action counts).
 * - A crash that ends the session (`onCrash: stop`): ask points after it are recorded as
 *   unanswered (not answers: out of answer recall, counted apart), at the crash step; no end context is prepared, and the specifics
 *   are those of the last context sent.
 * - With `judgeRubric` (live runs with the judge on), every answer the model gave is also scored
 *   by the LLM judge against that rubric, right after its deterministic grade (judge-call.ts).
 * - Every answer gets its outcome (probes/outcome.ts) from what the context held, and is marked
 *   `invalid` when the reader does not answer it from `full`'s context at the same point
 *   (probes/reference.ts): `full`'s context is the history of every event so far, kept here.
 * - Needed facts (when the set has them, probes/needed/measure.ts): at every step sent, each use
 *   at that step gets its outcome on the context sent; a crashed step's uses and those never
 *   reached are `unanswered`. Each answer says whether its probe's fact is needed later.
 */
export function createProbeObserver(set: ProbeSet, options: ProbeObserverOptions = {}): UnitObserver {
  let run: ProbeRun | undefined;
  const started = (): ProbeRun => {
    if (run === undefined) throw new Error('probe observer: onStart was not called');
    return run;
  };
  return {
    onStart: (ctx) => {
      run = new ProbeRun(set, ctx, options);
    },
    onEvent: (event) => applyToHistory(started().fullHistory, event),
    onStep: (record, sent, env) => started().step(record, sent, env),
    onEnd: (_ctx, env) => started().end(env),
  };
}

export interface ProbeObserverOptions {
  /** The judge rubric (docs/judge-rubric.md, read once when the run is prepared); absent: no judge. */
  judgeRubric?: string;
  /** Who answers on `full`'s context for the validity filter (reference.ts); default `simulated` (mocked runs). */
  reference?: ReferenceMode;
}

/** What a context held of each probe at the last step measured (null: not measured there). */
interface Held {
  verbatim: boolean;
  retained: boolean;
}

type Specifics = UnitProbeResult['specifics'];

class ProbeRun {
  private readonly deps: ProbeCallDeps;
  private readonly judge?: JudgeProbeAnswer;
  private readonly curves = new Map<string, [number, 0 | 1][]>();
  /** The curve of each probe of the set, by index (undefined: not measured). */
  private readonly curveAt: ([number, 0 | 1][] | undefined)[];
  private readonly answers: ProbeAnswer[] = [];
  private readonly afterCompaction: NonNullable<UnitProbeResult['specificsAfterCompaction']> = [];
  private eventMark = 0;
  private crash?: StepRecord;
  private lastSent: readonly ContextMessage[] = [];
  /** Retention of the contexts sent, counted from one step to the next. */
  private readonly retention: MessageRetention;
  /** `full`'s context: every message so far (control events applied), fed by `onEvent`. */
  readonly fullHistory = createHistory();
  /** Per probe, what the context measured last held of it, and what the one before held. */
  private held: (Held | null)[];
  private heldBefore: (Held | null)[];
  /** The context measured last and its prepared texts (for `stale`: older values are looked up in it). */
  private prepared?: { messages: readonly ContextMessage[]; texts: PreparedContext };
  private readonly reference: ReferenceMode;
  /** The needed uses of the set, measured on this unit's contexts (absent: the set has none). */
  private readonly needed?: NeededMeter;

  constructor(
    private readonly set: ProbeSet,
    private readonly ctx: StepContext,
    options: ProbeObserverOptions,
  ) {
    const { judgeRubric } = options;
    this.reference = options.reference ?? 'simulated';
    this.held = set.probes.map(() => null);
    this.heldBefore = this.held;
    const deps: ProbeCallDeps = {
      gateway: ctx.gateway,
      scenario: ctx.scenario,
      clock: ctx.clock,
      events: ctx.events,
      tokenizer: ctx.tokenizer,
      format: ctx.env.format,
    };
    this.deps = deps;
    if (judgeRubric !== undefined) this.judge = (probe, answer, step) => judgeAnswer(deps, judgeRubric, probe, answer, step);
    for (const mp of set.probes) if (isMeasurable(mp)) this.curves.set(mp.probe.id, []);
    this.curveAt = set.probes.map((mp) => this.curves.get(mp.probe.id));
    this.retention = new MessageRetention(preparedProbesOf(set));
    if (set.needed !== undefined) this.needed = new NeededMeter(set.needed);
  }

  async step(record: StepRecord, sent: ContextDiff, env: StrategyEnv): Promise<void> {
    const compacted = this.takeCompactions();
    const context = sent.after;
    if (record.status === 'ok') {
      this.measure(record.step, sent);
      this.needed?.sent(record.step, sent, env.archive);
      this.lastSent = context;
      if (compacted) this.afterCompaction.push({ step: record.step, ...this.survival(context) });
    } else {
      this.needed?.crashed(record.step);
      this.crash ??= record;
    }
    const point: AskPoint = { askedAt: 'step', step: record.step, context };
    for (const [i, mp] of this.set.probes.entries()) {
      if (mp.askSteps.has(record.step)) await this.ask(mp, point, record, env);
      const touched = this.touchedBy(i, mp, record.step, compacted);
      if (touched !== undefined) await this.ask(mp, { ...point, askedAt: touched }, record, env);
    }
  }

  /**
   * Whether the step's preparation touched probe `i`'s fact, so that it is asked again: a
   * compaction while the fact was in the context before (`after-compaction`), or a rewrite that
   * took it out (`after-rewrite`). A probe is first measured when its evidence becomes visible, so
   * a fact that never reached a context is not touched.
   */
  private touchedBy(i: number, mp: MeasuredProbe, step: number, compacted: boolean): 'after-compaction' | 'after-rewrite' | undefined {
    if (!mp.askAfterCompaction || !isVisible(mp, step)) return undefined;
    const before = this.heldBefore[i];
    if (before?.retained !== true) return undefined;
    if (compacted) return 'after-compaction';
    return this.held[i]?.retained === false ? 'after-rewrite' : undefined;
  }

  async end(env: StrategyEnv): Promise<ObservedProbeFigures> {
    const steps = env.step;
    let specifics: Specifics;
    if (this.crash !== undefined && this.ctx.scenario.onCrash === 'stop') {
      const why = `the session crashed at step ${this.crash.step} (${this.crash.failure ?? 'failure'})`;
      this.recordUnreached({ after: this.crash.step, at: this.crash.step, why, withEnd: true });
      specifics = this.survival(this.lastSent);
    } else {
      const context = await this.ctx.strategy.prepare(this.ctx.state, env);
      freezeMessages(context);
      const compacted = this.takeCompactions();
      this.measure(steps, diffContexts(this.ctx.sent.after, context));
      this.recordUnreached({ after: steps - 1, at: steps, why: `the session has only ${steps} steps`, withEnd: false });
      for (const [i, mp] of this.set.probes.entries()) {
        const touched = this.touchedBy(i, mp, steps, compacted);
        if (touched !== undefined) this.answers.push(await this.answer(mp, { askedAt: touched, step: steps, context }, env));
        if (mp.askAtEnd) this.answers.push(await this.answer(mp, { askedAt: 'end', step: steps, context }, env));
      }
      specifics = this.survival(context);
      if (compacted) this.afterCompaction.push({ step: steps, ...specifics });
    }
    return this.figures(specifics);
  }

  private figures(specifics: Specifics): ObservedProbeFigures {
    const retention: RetentionCurve[] = this.set.probes
      .filter((mp) => this.curves.has(mp.probe.id))
      .map((mp) => ({ probeId: mp.probe.id, kind: mp.probe.kind, points: this.curves.get(mp.probe.id) ?? [] }));
    const { figures, ...detail } = aggregateProbes({
      probes: this.set.probes.map((mp) => ({ id: mp.probe.id, kind: mp.probe.kind, source: mp.source })),
      answers: this.answers,
      retention,
      specifics,
      ...(this.afterCompaction.length > 0 ? { specificsAfterCompaction: this.afterCompaction } : {}),
    });
    const { retention: kept, answerRecall, count, unanswered, invalid, answerRecallRot } = figures;
    const needed = this.needed?.records();
    return {
      retention: kept,
      answerRecall,
      count,
      unanswered,
      invalid: invalid ?? 0,
      ...(answerRecallRot !== undefined ? { answerRecallRot } : {}),
      ...(needed !== undefined ? { needed: neededFigures(needed), answerRecallNeeded: answerRecallNeeded(this.answers) } : {}),
      detail: needed !== undefined ? { ...detail, needed } : detail,
    };
  }

  /** Step asks after step `after` (and end asks, `withEnd`), never reached: unanswered, recorded at `at`. */
  private recordUnreached(options: { after: number; at: number; why: string; withEnd: boolean }): void {
    const { after, at, why, withEnd } = options;
    for (const mp of this.set.probes) {
      for (const n of [...mp.askSteps].sort((a, b) => a - b)) if (n > after) this.answers.push(this.withNeed(mp, unansweredProbe(mp, 'step', at, why), n));
      if (withEnd && mp.askAtEnd) this.answers.push(this.withNeed(mp, unansweredProbe(mp, 'end', at, why), at));
    }
  }

  private async ask(mp: MeasuredProbe, point: AskPoint, record: StepRecord, env: StrategyEnv): Promise<void> {
    if (record.status === 'crashed') {
      this.answers.push(
        this.withNeed(mp, unansweredProbe(mp, point.askedAt, record.step, `step ${record.step} crashed (${record.failure ?? 'failure'})`), record.step),
      );
      return;
    }
    this.answers.push(await this.answer(mp, point, env));
  }

  /** The answer at an ask point, with its outcome, marked invalid when `full`'s reader fails there. */
  private async answer(mp: MeasuredProbe, point: AskPoint, env: StrategyEnv): Promise<ProbeAnswer> {
    const answer = withContextRot(await answerProbe(this.deps, env.archive, mp, point, this.judge), this.ctx.scenario.contextRot, this.ctx.scenario.seed);
    const held = this.held[this.set.probes.indexOf(mp)];
    const { prepared } = this;
    const older = prepared !== undefined && mp.superseded.some((s) => holdsNormalised(prepared.messages, prepared.texts, s));
    const outcome = classifyOutcome({ verbatim: held?.verbatim ?? false, truth: held?.retained ?? false, older }, answer);
    const full = this.fullHistory.messages;
    // `full` itself (or any strategy sending what it sends) is its own reference.
    const isFullContext = point.context.length === full.length && point.context.every((m, k) => m === full[k]);
    const valid = isFullContext ? answer.correct : await isValidAt(this.reference, this.set, this.deps, mp.probe, full, point.step);
    return this.withNeed(mp, { ...answer, outcome, ...(valid ? {} : { invalid: true as const }) }, point.step);
  }

  /** The answer, saying whether its probe's fact is used after step `step` (when the set has needed facts). */
  private withNeed(mp: MeasuredProbe, answer: ProbeAnswer, step: number): ProbeAnswer {
    if (this.set.needed === undefined) return answer;
    return { ...answer, neededLater: (mp.lastNeededStep ?? -1) > step };
  }

  /** Retention points of every visible probe on one context (`sent.after`, prepared once), and what it held of each. */
  private measure(step: number, sent: ContextDiff): void {
    const { probes } = this.set;
    const isAsked = (i: number) => this.curveAt[i] !== undefined && isVisible(probes[i] as MeasuredProbe, step);
    const texts = prepareMessages(sent.after);
    this.prepared = { messages: sent.after, texts };
    const kept = this.retention.retained(sent, texts, isAsked);
    this.heldBefore = this.held;
    this.held = kept.map((isKept, i) => (isKept === null ? null : { retained: isKept, verbatim: this.retention.holdsEvidence(i) }));
    kept.forEach((isKept, i) => {
      if (isKept !== null && isAsked(i)) this.curveAt[i]?.push([step, isKept ? 1 : 0]);
    });
  }

  private survival(context: readonly ContextMessage[]): Specifics {
    return specificsSurvivalInMessages(this.set.specifics, context);
  }

  /** Whether a `compact` action was emitted since the last look (during the step's preparation). */
  private takeCompactions(): boolean {
    const events: readonly RunEvent[] = this.ctx.events;
    let found = false;
    for (let i = this.eventMark; i < events.length; i++) {
      const event = events[i];
      if (event?.type === 'action' && event.action === 'compact') found = true;
    }
    this.eventMark = events.length;
    return found;
  }
}

// One list per probe set, so that every unit of a scenario shares the per-message findings.
const preparedLists = runWeakMap<ProbeSet, readonly PreparedProbe[]>();

function preparedProbesOf(set: ProbeSet): readonly PreparedProbe[] {
  let list = preparedLists.get(set);
  if (list === undefined) {
    list = set.probes.map((mp) => mp.prepared);
    preparedLists.set(set, list);
  }
  return list;
}

function isVisible(mp: MeasuredProbe, step: number): boolean {
  return mp.visibleFrom !== undefined && mp.visibleFrom <= step;
}

/** A probe with a retention curve: something to look for, and a step its evidence appeared at. */
function isMeasurable(mp: MeasuredProbe): boolean {
  return mp.visibleFrom !== undefined && mp.prepared.measurable;
}
