import { createTextMemo, type TextMemo } from '../memo.js';
import type { MessageEvent } from '../transcript/types.js';
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
const textCache = new WeakMap<MessageEvent, MessageTexts>();

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

/** What one message holds of every probe of a list: evidence, and ground truth once asked for. */
interface MessageFindings {
  /** 1 where the message holds one of the probe's evidence texts. */
  readonly evidence: Uint8Array;
  /** 1 where the message holds one of the probe's `anyOf`; built the first time a probe needs it. */
  anyOf?: Uint8Array;
  /** Per probe, which of its `allOf` the message holds. */
  allOf?: readonly (readonly boolean[])[];
}

// Per probe list, per message object and per text: a message kept step after step (by any
// strategy of the scenario: they share the probe list and the transcript's messages), or copied
// into a new object with the same text, is searched once for every probe, and a step costs a
// lookup per message, not one per message and probe. The findings are a function of the text;
// the text memo is emptied when large.
interface FindingsMemo {
  byMessage: WeakMap<MessageEvent, MessageFindings>;
  byText: TextMemo<MessageFindings>;
}
const findingsMemo = new WeakMap<readonly PreparedProbe[], FindingsMemo>();
const TEXT_FINDINGS_CHARS = 8_000_000;

function findingsOf(probes: readonly PreparedProbe[], memo: FindingsMemo, message: MessageEvent): MessageFindings {
  let findings = memo.byMessage.get(message);
  if (findings !== undefined) return findings;
  const raw = messageText(message);
  findings = memo.byText.get(raw, () => {
    const evidence = new Uint8Array(probes.length);
    probes.forEach((probe, i) => {
      if (probe.evidence.some((e) => containsEvidence(raw, e))) evidence[i] = 1;
    });
    return { evidence };
  });
  memo.byMessage.set(message, findings);
  return findings;
}

function truthOf(probes: readonly PreparedProbe[], message: MessageEvent, findings: MessageFindings): Required<MessageFindings> {
  if (findings.anyOf === undefined || findings.allOf === undefined) {
    const normalised = normalisedOf(message);
    const anyOf = new Uint8Array(probes.length);
    probes.forEach((probe, i) => {
      if (probe.anyOf.some((s) => containsNormalised(normalised, s))) anyOf[i] = 1;
    });
    findings.anyOf = anyOf;
    findings.allOf = probes.map((probe) => probe.allOf.map((s) => containsNormalised(normalised, s)));
  }
  return findings as Required<MessageFindings>;
}

/**
 * retention.ts `isPreparedRetained` of each probe of `probes` for which `isAsked(index)` holds
 * (null for the others), on a context given as its messages. What each message holds is found
 * once per probe list and text (see `findingsOf`). The same answer as the joined search: evidence and
 * ground truth never span two messages (the joined texts are separated by a character neither
 * contains; a probe whose truth does falls back to the joined context), and only the regex is
 * run on the joined `context`.
 */
export function retainedInMessages(
  probes: readonly PreparedProbe[],
  messages: readonly MessageEvent[],
  context: PreparedContext,
  isAsked: (index: number) => boolean,
): (boolean | null)[] {
  let memo = findingsMemo.get(probes);
  if (memo === undefined) {
    memo = { byMessage: new WeakMap(), byText: createTextMemo<MessageFindings>(TEXT_FINDINGS_CHARS) };
    findingsMemo.set(probes, memo);
  }
  const all = messages.map((message) => findingsOf(probes, memo, message));
  const withEvidence = new Uint8Array(probes.length);
  for (const findings of all) for (let i = 0; i < probes.length; i++) if (findings.evidence[i] === 1) withEvidence[i] = 1;
  let truths: Required<MessageFindings>[] | undefined;
  const truthsOf = (): Required<MessageFindings>[] => (truths ??= all.map((f, m) => truthOf(probes, messages[m] as MessageEvent, f)));
  return probes.map((probe, i) => {
    if (!isAsked(i) || !probe.measurable) return null;
    const hasTruth = probe.anyOf.length > 0 || probe.allOf.length > 0 || probe.regex !== undefined;
    if (probe.evidence.length === 0 && !hasTruth) return null;
    if (withEvidence[i] === 1) return true;
    if ([...probe.anyOf, ...probe.allOf].some((s) => s.includes(SEPARATOR))) return isJoinedTruthRetained(probe, context);
    if (probe.anyOf.length > 0 && truthsOf().some((f) => f.anyOf[i] === 1)) return true;
    if (probe.allOf.length > 0 && probe.allOf.every((_, j) => truthsOf().some((f) => f.allOf[i]?.[j] === true))) return true;
    return probe.regex?.test(context.raw) ?? false;
  });
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
