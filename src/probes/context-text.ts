import { type TextMemo, createOwnedTextMemo, runWeakMap } from '../memo.js';
import type { MessageEvent } from '../transcript/types.js';
import { carryValues, diffFrom, wholeContext, type ContextDiff } from '../transcript/context-diff.js';
import { normaliseAnswer } from './grade.js';
import { renderMessageText } from './message-text.js';
import type { PreparedContext, PreparedProbe } from './retention.js';
import { SEPARATOR, containsEvidence } from './retention.js';
import { containsNormalised } from './grade.js';

interface MessageTexts {
  raw: string;
  normalised?: string;
}

// Strategies send the same message objects step after step; each is rendered (and normalised)
// once. A weak map keeps the texts without holding messages alive.
const textCache = runWeakMap<MessageEvent, MessageTexts>();

function textsOf(message: MessageEvent): MessageTexts {
  let entry = textCache.get(message);
  if (entry === undefined) {
    entry = { raw: renderMessageText(message) };
    textCache.set(message, entry);
  }
  return entry;
}

/** The searchable text of a message (message-text.ts `renderMessageText`, no thinking), cached. */
export function messageText(message: MessageEvent): string {
  return textsOf(message).raw;
}

function normalisedOf(message: MessageEvent): string {
  const entry = textsOf(message);
  entry.normalised ??= normaliseAnswer(entry.raw);
  return entry.normalised;
}

/**
 * The prepared context of one step (retention.ts `PreparedContext`), built from messages with
 * every message's text cached across steps. The normalised join is built only when a probe asks
 * for it: evidence found verbatim never needs it.
 */
export function prepareMessages(messages: readonly MessageEvent[]): PreparedContext {
  let raw: string | undefined;
  let normalised: string | undefined;
  return {
    get raw(): string {
      raw ??= messages.map(messageText).join(SEPARATOR);
      return raw;
    },
    get normalised(): string {
      normalised ??= messages.map(normalisedOf).join(SEPARATOR);
      return normalised;
    },
  };
}

/**
 * Whether the normalised join of `messages` (`prepared.normalised`, `prepared` made from them)
 * holds `needle` (normalised): a needle without the separator lies within one message, so each
 * message's normalised text is searched and the join is built only for one that holds it.
 */
export function holdsNormalised(messages: readonly MessageEvent[], prepared: PreparedContext, needle: string): boolean {
  if (needle.includes(SEPARATOR)) return containsNormalised(prepared.normalised, needle);
  return messages.some((message) => containsNormalised(normalisedOf(message), needle));
}

/** What one message holds of the probes of a list (indexes in the list), found once per text. */
interface MessageFindings {
  /** The probes one of whose evidence texts the message holds. */
  readonly evidence: readonly number[];
  /** Its ground truth, found the first time a probe needs it. */
  truth?: MessageTruth;
}

interface MessageTruth {
  /** The probes one of whose `anyOf` the message holds. */
  readonly anyOf: readonly number[];
  /** The `allOf` texts it holds, as slots of the list (`ProbeList.allOfStart`). */
  readonly allOf: readonly number[];
}

// Per probe list, per message object and per text: a message kept step after step (by any
// strategy of the scenario: they share the probe list and the transcript's messages), or copied
// into a new object with the same text, is searched once for every probe, and a step costs a
// lookup per message, not one per message and probe. The findings are a function of the text;
// the text memo is emptied when large.
interface ProbeList {
  readonly probes: readonly PreparedProbe[];
  readonly byMessage: WeakMap<MessageEvent, MessageFindings>;
  readonly byText: TextMemo<MessageFindings>;
  /** Every probe's `allOf` texts numbered in one row: probe i's j-th is slot `allOfStart[i] + j`. */
  readonly allOfStart: readonly number[];
  readonly allOfSlots: number;
  /** Probes whose truth holds the separator: it may span two messages, so it is searched joined. */
  readonly truthSpansMessages: readonly boolean[];
}
const probeLists = runWeakMap<readonly PreparedProbe[], ProbeList>();

function probeListOf(probes: readonly PreparedProbe[]): ProbeList {
  let list = probeLists.get(probes);
  if (list === undefined) {
    const allOfStart: number[] = [];
    let allOfSlots = 0;
    for (const probe of probes) {
      allOfStart.push(allOfSlots);
      allOfSlots += probe.allOf.length;
    }
    list = {
      probes,
      byMessage: new WeakMap(),
      byText: createOwnedTextMemo<MessageFindings>('probe-findings'),
      allOfStart,
      allOfSlots,
      truthSpansMessages: probes.map((probe) => [...probe.anyOf, ...probe.allOf].some((s) => s.includes(SEPARATOR))),
    };
    probeLists.set(probes, list);
  }
  return list;
}

function findingsOf(list: ProbeList, message: MessageEvent): MessageFindings {
  let findings = list.byMessage.get(message);
  if (findings !== undefined) return findings;
  const raw = messageText(message);
  findings = list.byText.get(raw, () => {
    const evidence: number[] = [];
    list.probes.forEach((probe, i) => {
      if (probe.evidence.some((e) => containsEvidence(raw, e))) evidence.push(i);
    });
    return { evidence };
  });
  list.byMessage.set(message, findings);
  return findings;
}

function truthOf(list: ProbeList, message: MessageEvent, findings: MessageFindings): MessageTruth {
  if (findings.truth === undefined) {
    const normalised = normalisedOf(message);
    const anyOf: number[] = [];
    const allOf: number[] = [];
    list.probes.forEach((probe, i) => {
      if (probe.anyOf.some((s) => containsNormalised(normalised, s))) anyOf.push(i);
      probe.allOf.forEach((s, j) => {
        if (containsNormalised(normalised, s)) allOf.push((list.allOfStart[i] as number) + j);
      });
    });
    findings.truth = { anyOf, allOf };
  }
  return findings.truth;
}

/**
 * retention.ts `isPreparedRetained` of each probe of a list, on contexts given as their messages,
 * one step after another. The same answer as the joined search: evidence and ground truth never
 * span two messages (the joined texts are separated by a character neither contains; a probe
 * whose truth does falls back to the joined context), so a probe is retained when some message
 * holds it, whatever their order, and only the regex is run on the joined context.
 *
 * What each message holds is found once per probe list and text (see `findingsOf`); what the
 * context holds is kept as counts of messages per probe, carried along the step's `ContextDiff`:
 * the messages it removes are counted out and those it adds in, so a step costs what changed,
 * not the whole context.
 */
export class MessageRetention {
  private readonly list: ProbeList;
  /** The messages counted (the `after` of the last diff), and their findings, in order. */
  private held: readonly MessageEvent[] = [];
  private heldFindings: MessageFindings[] = [];
  /** Per probe: the messages holding one of its evidence texts. */
  private readonly evidence: Int32Array;
  /** Per probe, the messages holding one of its `anyOf`; per `allOf` slot, those holding it. Kept once a probe needed them. */
  private truth?: { anyOf: Int32Array; allOf: Int32Array };

  constructor(probes: readonly PreparedProbe[]) {
    this.list = probeListOf(probes);
    this.evidence = new Int32Array(probes.length);
  }

  /**
   * The verdict of each probe for which `isAsked(index)` holds (null for the others) on the
   * context `diff.after` (`context` is it prepared); `diff.before` should be the context of the
   * last call, else the diff is taken again from that one.
   */
  retained(diff: ContextDiff, context: PreparedContext, isAsked: (index: number) => boolean): (boolean | null)[] {
    this.update(diff);
    return this.list.probes.map((probe, i) => {
      if (!isAsked(i) || !probe.measurable) return null;
      const hasTruth = probe.anyOf.length > 0 || probe.allOf.length > 0 || probe.regex !== undefined;
      if (probe.evidence.length === 0 && !hasTruth) return null;
      if ((this.evidence[i] as number) > 0) return true;
      if (this.list.truthSpansMessages[i] === true) return isJoinedTruthRetained(probe, context);
      if (probe.anyOf.length > 0 && (this.truthCounts().anyOf[i] as number) > 0) return true;
      if (probe.allOf.length > 0) {
        const { allOf } = this.truthCounts();
        const start = this.list.allOfStart[i] as number;
        if (probe.allOf.every((_, j) => (allOf[start + j] as number) > 0)) return true;
      }
      return probe.regex?.test(context.raw) ?? false;
    });
  }

  /** Whether the messages last passed to `retained` hold an evidence text of probe `index` verbatim. */
  holdsEvidence(index: number): boolean {
    return (this.evidence[index] ?? 0) > 0;
  }

  /** Counts out the messages the diff removes and counts in those it adds. */
  private update(diff: ContextDiff): void {
    const from = diffFrom(this.held, diff);
    this.heldFindings = carryValues(
      this.heldFindings,
      from,
      (message) => {
        const findings = findingsOf(this.list, message);
        this.count(message, findings, 1);
        return findings;
      },
      (findings, message) => this.count(message as MessageEvent, findings, -1),
    );
    this.held = from.after;
  }

  private count(message: MessageEvent, findings: MessageFindings, delta: 1 | -1): void {
    for (const i of findings.evidence) (this.evidence[i] as number) += delta;
    if (this.truth !== undefined) addTruth(this.truth, truthOf(this.list, message, findings), delta);
  }

  /** The truth counts, from the messages held the first time a probe needs them. */
  private truthCounts(): { anyOf: Int32Array; allOf: Int32Array } {
    if (this.truth === undefined) {
      const truth = { anyOf: new Int32Array(this.list.probes.length), allOf: new Int32Array(this.list.allOfSlots) };
      this.held.forEach((message, k) => addTruth(truth, truthOf(this.list, message, this.heldFindings[k] as MessageFindings), 1));
      this.truth = truth;
    }
    return this.truth;
  }
}

function addTruth(counts: { anyOf: Int32Array; allOf: Int32Array }, truth: MessageTruth, delta: 1 | -1): void {
  for (const i of truth.anyOf) (counts.anyOf[i] as number) += delta;
  for (const slot of truth.allOf) (counts.allOf[slot] as number) += delta;
}

/**
 * `MessageRetention` of one context on its own: each probe of `probes` for which `isAsked(index)`
 * holds (null for the others).
 */
export function retainedInMessages(
  probes: readonly PreparedProbe[],
  messages: readonly MessageEvent[],
  context: PreparedContext,
  isAsked: (index: number) => boolean,
): (boolean | null)[] {
  return new MessageRetention(probes).retained(wholeContext(messages), context, isAsked);
}

/** `retainedInMessages` of one probe. */
export function isRetainedInMessages(probe: PreparedProbe, messages: readonly MessageEvent[], context: PreparedContext): boolean | null {
  return retainedInMessages([probe], messages, context, () => true)[0] ?? null;
}

function isJoinedTruthRetained(probe: PreparedProbe, context: PreparedContext): boolean {
  if (probe.anyOf.some((s) => containsNormalised(context.normalised, s))) return true;
  if (probe.allOf.length > 0 && probe.allOf.every((s) => containsNormalised(context.normalised, s))) return true;
  return probe.regex?.test(context.raw) ?? false;
}
