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

/** What one message holds of one probe's evidence and ground truth (see `isRetainedInMessages`). */
interface Findings {
  evidence: boolean;
  anyOf?: boolean;
  allOf?: readonly boolean[];
}

// Per probe, per message object: a message kept step after step is searched once per probe.
const findingsCache = new WeakMap<PreparedProbe, WeakMap<MessageEvent, Findings>>();

function findingsOf(probe: PreparedProbe, message: MessageEvent): Findings {
  let perMessage = findingsCache.get(probe);
  if (perMessage === undefined) {
    perMessage = new WeakMap();
    findingsCache.set(probe, perMessage);
  }
  let findings = perMessage.get(message);
  if (findings === undefined) {
    const raw = messageText(message);
    findings = { evidence: probe.evidence.some((e) => containsEvidence(raw, e)) };
    perMessage.set(message, findings);
  }
  return findings;
}

function truthFindings(probe: PreparedProbe, message: MessageEvent, findings: Findings): Required<Findings> {
  if (findings.anyOf === undefined || findings.allOf === undefined) {
    const normalised = normalisedOf(message);
    findings.anyOf = probe.anyOf.some((s) => containsNormalised(normalised, s));
    findings.allOf = probe.allOf.map((s) => containsNormalised(normalised, s));
  }
  return findings as Required<Findings>;
}

/**
 * retention.ts `isPreparedRetained` of a context given as its messages, with what each message
 * holds found once per message object and probe: a step costs a lookup per message, not a search
 * of the whole context. The same answer: evidence and ground truth never span two messages (the
 * joined texts are separated by a character neither contains; a probe whose truth does falls back
 * to the joined context), and only the regex is run on the joined `context`.
 */
export function isRetainedInMessages(probe: PreparedProbe, messages: readonly MessageEvent[], context: PreparedContext): boolean | null {
  if (!probe.measurable) return null;
  const hasTruth = probe.anyOf.length > 0 || probe.allOf.length > 0 || probe.regex !== undefined;
  if (probe.evidence.length === 0 && !hasTruth) return null;
  const all = messages.map((message) => findingsOf(probe, message));
  if (all.some((f) => f.evidence)) return true;
  if ([...probe.anyOf, ...probe.allOf].some((s) => s.includes(SEPARATOR))) return isJoinedTruthRetained(probe, context);
  const truths = all.map((f, i) => truthFindings(probe, messages[i] as MessageEvent, f));
  if (truths.some((f) => f.anyOf)) return true;
  if (probe.allOf.length > 0 && probe.allOf.every((_, j) => truths.some((f) => f.allOf[j] === true))) return true;
  return probe.regex?.test(context.raw) ?? false;
}

function isJoinedTruthRetained(probe: PreparedProbe, context: PreparedContext): boolean {
  if (probe.anyOf.some((s) => containsNormalised(context.normalised, s))) return true;
  if (probe.allOf.length > 0 && probe.allOf.every((s) => containsNormalised(context.normalised, s))) return true;
  return probe.regex?.test(context.raw) ?? false;
}
