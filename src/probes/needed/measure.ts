import type { ContextMessage, MessageEvent, Probe, Role, Transcript } from '../../transcript/types.js';
import { runWeakMap } from '../../memo.js';
import type { Archive } from '../../strategies/types.js';
import type { NeededRecord } from '../../metrics/types.js';
import type { ContextDiff } from '../../transcript/context-diff.js';
import { findRetrievalHints } from '../../strategies/helpers/hints.js';
import { findSecrets, redactionMarker } from '../../redact/index.js';
import { listMessages } from '../message-text.js';
import { messageText } from '../context-text.js';
import { containsNormalised, normaliseAnswer } from '../grade.js';
import { FactIndex } from './fact-index.js';
import { unescapeForTokens } from './specifics.js';
import { NeededContext, type FactHeld } from './held.js';
import type { NeededOutcome, NeededUse } from './types.js';

/**
 * The needed uses of one transcript, with what measuring them needs, made once per scenario and
 * shared by its units (docs/probes.md, "Needed recall"). Plain data: a run sends it to its worker
 * threads; the fact index is built in each thread from `facts` (`factIndexOf`).
 */
export interface NeededSet {
  readonly uses: readonly PreparedUse[];
  /** The distinct facts; `PreparedUse.fact` numbers them. */
  readonly facts: readonly string[];
  /** Positions in `uses` of the uses at each step. */
  readonly byStep: ReadonlyMap<number, readonly number[]>;
}

/** A use, its fact's number, and the message it was last seen in. */
interface PreparedUse {
  readonly use: NeededUse;
  readonly fact: number;
  /** The fact as reports show it: masked when it is (a piece of) a secret of its messages (`maskSecret`). */
  readonly shown: string;
  /** The message that held the fact last before the use (absent: `sourceIndex` names none). */
  readonly source?: SourceMessage;
}

/** What recoverability reads of a use's source message. */
interface SourceMessage {
  readonly id: string;
  readonly role: Role;
  readonly toolCallId?: string;
}

/** Resolves the uses against their transcript (`sourceIndex` counts its messages). */
export function prepareNeededSet(transcript: Transcript, uses: readonly NeededUse[]): NeededSet {
  const messages = listMessages(transcript.events);
  const facts = [...new Set(uses.map((u) => u.fact))].filter((fact) => fact !== '');
  const numbers = new Map(facts.map((fact, i) => [fact, i]));
  const prepared: PreparedUse[] = [];
  const byStep = new Map<number, number[]>();
  for (const use of uses) {
    const fact = numbers.get(use.fact);
    if (fact === undefined) continue;
    const message = messages[use.sourceIndex];
    byStep.set(use.useStep, [...(byStep.get(use.useStep) ?? []), prepared.length]);
    const shown = maskSecret(use.fact, [message, messages[use.useIndex]]);
    prepared.push({ use, fact, shown, ...(message !== undefined ? { source: sourceOf(message) } : {}) });
  }
  return { uses: prepared, facts, byStep };
}

/**
 * The fact, or the redaction marker of the secret it is part of: a secret is told by its context
 * (`Authorization: Basic …`, `password=…`), which the fact alone lacks, so the messages that held
 * and used it are searched (as generated probes never take a piece of a secret, generate.ts).
 */
function maskSecret(fact: string, messages: readonly (MessageEvent | undefined)[]): string {
  const own = findSecrets(fact)[0];
  if (own !== undefined) return redactionMarker(own.kind);
  for (const message of messages) {
    if (message === undefined) continue;
    const text = messageText(message);
    for (const span of findSecrets(text)) {
      const secret = text.slice(span.start, span.end);
      if (secret.includes(fact) || fact.includes(secret)) return redactionMarker(span.kind);
    }
  }
  return fact;
}

function sourceOf(message: MessageEvent): SourceMessage {
  return { id: message.id, role: message.role, ...(message.toolCallId !== undefined ? { toolCallId: message.toolCallId } : {}) };
}

// One index per set and thread, shared by every unit of the scenario that runs there.
const indexes = runWeakMap<NeededSet, FactIndex>();

/** The fact index of a set (fact-index.ts), built once per thread. */
function factIndexOf(set: NeededSet): FactIndex {
  let index = indexes.get(set);
  if (index === undefined) {
    index = new FactIndex(set.facts);
    indexes.set(set, index);
  }
  return index;
}

/**
 * The outcome of a use reached, from what the context held of its fact: verbatim in a transcript
 * message or a copy of one (`kept`), else only in messages the strategy wrote (`summarized`), else
 * `recoverable` when the context points to where it can be read again, else `lost`.
 */
export function classifyNeeded(held: FactHeld, isRecoverable: () => boolean): Exclude<NeededOutcome, 'unanswered'> {
  if (held.copies > 0) return 'kept';
  if (held.written > 0) return 'summarized';
  return isRecoverable() ? 'recoverable' : 'lost';
}

/**
 * Where a use's fact can be read again, for a context that does not hold it: its source, a tool's
 * output, when the context still holds the call that produced it (the file to read again, the
 * command to run again) or a message standing for that output (a cleared result, a preview, a
 * tombstone: `replaces` names it); else a retrieval hint in the context (an archive key, a
 * scratchpad ref, an archived message id) behind which a message holds the fact.
 */
export type Recovery =
  { readonly via: 'output'; readonly id: string } | { readonly via: 'ref'; readonly key: string; readonly messages: readonly MessageEvent[] };

/**
 * How the agent reads a fact the context lacks back (`Recovery`), as follow-up reads fetch cut
 * output (replay/follow-up.ts, ref-reads.ts); undefined when nothing in the context leads to it.
 */
function recoveryOf(prepared: PreparedUse, context: readonly ContextMessage[], archive: Pick<Archive, 'get' | 'lookup'>): Recovery | undefined {
  const { source } = prepared;
  const fact = prepared.use.fact;
  if (source?.role === 'tool') {
    const callId = source.toolCallId;
    const standsFor = (m: ContextMessage): boolean =>
      m.replaces?.includes(source.id) === true || (callId !== undefined && m.toolCalls?.some((call) => call.id === callId) === true);
    if (context.some(standsFor)) return { via: 'output', id: source.id };
  }
  for (const message of context) {
    for (const key of findRetrievalHints(message.text)) {
      const stored = archive.lookup(key);
      const single = archive.get(key);
      const behind = stored !== undefined && stored.length > 0 ? stored : single !== undefined ? [single] : [];
      if (behind.some((m) => holdsFact(messageText(m), fact))) return { via: 'ref', key, messages: behind };
    }
  }
  return undefined;
}

/** Whether a text holds a fact verbatim, or with its written-out escapes read as spaces (as fact-index.ts searches). */
function holdsFact(text: string, fact: string): boolean {
  return text.includes(fact) || unescapeForTokens(text).includes(fact);
}

/**
 * The needed uses of one unit, measured step after step: at each step sent, the uses at that step
 * get their outcome on the context sent (`NeededContext` carried along the step's diff; steps
 * without uses are skipped); a step that crashed leaves its uses `unanswered`, and so does the end
 * for every use the replay never reached.
 */
export class NeededMeter {
  private readonly context: NeededContext;
  private readonly outcomes: (NeededOutcome | undefined)[];

  constructor(private readonly set: NeededSet) {
    this.context = new NeededContext(factIndexOf(set));
    this.outcomes = set.uses.map(() => undefined);
  }

  /**
   * The reads the uses at `step` make on the context sent (`sent.after`): each use whose fact the
   * context holds nowhere, not even in a summary, and that it leads back to (`recoveryOf`).
   */
  reads(step: number, sent: ContextDiff, archive: Pick<Archive, 'get' | 'lookup'>): { fact: string; recovery: Recovery }[] {
    const at = this.set.byStep.get(step);
    if (at === undefined) return [];
    this.context.update(sent);
    const reads: { fact: string; recovery: Recovery }[] = [];
    for (const i of at) {
      const prepared = this.set.uses[i] as PreparedUse;
      const held = this.context.holds(prepared.fact);
      if (held.copies > 0 || held.written > 0) continue;
      const recovery = recoveryOf(prepared, sent.after, archive);
      if (recovery !== undefined) reads.push({ fact: prepared.use.fact, recovery });
    }
    return reads;
  }

  /** Measures the uses at `step` on the context it sent (`sent.after`). */
  sent(step: number, sent: ContextDiff, archive: Pick<Archive, 'get' | 'lookup'>): void {
    const at = this.set.byStep.get(step);
    if (at === undefined) return;
    this.context.update(sent);
    for (const i of at) {
      const prepared = this.set.uses[i] as PreparedUse;
      this.outcomes[i] = classifyNeeded(this.context.holds(prepared.fact), () => recoveryOf(prepared, sent.after, archive) !== undefined);
    }
  }

  /** The uses at `step`, which crashed: never answered. */
  crashed(step: number): void {
    for (const i of this.set.byStep.get(step) ?? []) this.outcomes[i] = 'unanswered';
  }

  /** Every use with its outcome, in the set's order; those never reached are `unanswered`. */
  records(): NeededRecord[] {
    return this.set.uses.map(({ use, shown }, i) => ({
      fact: shown,
      kind: use.kind,
      sourceStep: use.sourceStep,
      useStep: use.useStep,
      outcome: this.outcomes[i] ?? 'unanswered',
    }));
  }
}

/**
 * Per probe of a list, the last step at which the session uses its fact (a needed fact equal to,
 * holding or held in one of its expected values, compared normalised); undefined when never.
 * A probe asked at step s is needed later when that step is after s.
 */
export function lastNeededSteps(probes: readonly Probe[], set: NeededSet): (number | undefined)[] {
  const lastUse = new Map<number, number>();
  for (const { fact, use } of set.uses) lastUse.set(fact, Math.max(lastUse.get(fact) ?? -1, use.useStep));
  const facts = [...lastUse].map(([fact, step]) => ({ text: normaliseAnswer(set.facts[fact] as string), step }));
  return probes.map((probe) => {
    const values = [...(probe.expected.anyOf ?? []), ...(probe.expected.allOf ?? [])].map(normaliseAnswer).filter((v) => v !== '');
    let last: number | undefined;
    for (const fact of facts) {
      if (fact.text === '' || !values.some((v) => containsNormalised(fact.text, v) || containsNormalised(v, fact.text))) continue;
      last = Math.max(last ?? -1, fact.step);
    }
    return last;
  });
}
