import type { MessageEvent, Probe, ProbeAsk, ProbeKind, ToolCall, Transcript } from '../transcript/types.js';
import { findSecrets, hasSecret } from '../redact/index.js';
import { readDecisionFacts } from './decision-facts.js';
import type { Fact } from './fact.js';
import { containsNormalised, indexOfNormalised, normaliseAnswer } from './grade.js';
import { listMessages, renderMessageText } from './message-text.js';
import { readToolFacts } from './tool-facts.js';
import { readStructureFacts } from './structure-facts.js';
import { indexLines, type LineIndex } from './findable.js';
import { phraseQuestion } from './question-hints.js';
import { readSimulated } from './reference.js';
import type { ToolLinks } from './tool-facts.js';
import { withRunMemos } from '../memo.js';
import { outputShareOf, selectSpread, type Candidate, type EvidenceSource } from './select-probes.js';

export interface GenerateOptions {
  /** At most this many probes (default 20). */
  max?: number;
  /** Seeds the choice among candidates when there are more than `max`. */
  seed?: number;
  /**
   * A probe is first asked once its evidence is this many steps old (default 10), when the session
   * is still running then; it is asked again after each compaction or rewrite that touched it
   * (`after-compaction`), and at the end.
   */
  askAfter?: number;
}

const DEFAULT_MAX = 20;
/** Tokens as the simulated reader counts them when no tokenizer is given: 4 characters a token. */
const APPROXIMATE_TOKENS = { count: (text: string): number => Math.ceil(text.length / 4) };
const DEFAULT_ASK_AFTER = 10;
/** The last messages of a session, which any strategy keeps; a fact repeated there measures nothing. */
const RECENT_MESSAGES = 4;

/** Every message's normalised text (thinking included), joined, to find where an answer occurs. */
interface Corpus {
  joined: string;
  /** Offset in `joined` where each message starts. */
  starts: number[];
}

const SEPARATOR = '\u0000';

function buildCorpus(messages: readonly MessageEvent[]): Corpus {
  const starts: number[] = [];
  let offset = 0;
  const texts = messages.map((m) => {
    const normalised = normaliseAnswer(renderMessageText(m, { thinking: true }));
    starts.push(offset);
    offset += normalised.length + SEPARATOR.length;
    return normalised;
  });
  return { joined: texts.join(SEPARATOR), starts };
}

/** Index of the message whose text holds `offset` of the joined corpus. */
function messageAt(corpus: Corpus, offset: number): number {
  let low = 0;
  let high = corpus.starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((corpus.starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Where a probe's evidence lies, and when to ask it. */
interface Evidence {
  /** The messages that hold the answer (every mention: a strategy that keeps any keeps the fact). */
  messages: number[];
  /** Set when the end of the session repeats the answer: the one step to ask at, before the repeat is sent. */
  beforeRepeat?: number;
}

/**
 * The messages that hold `answer`, when a later step would need it from them: undefined when
 * message `index` (where the fact was read) does not hold it. Mentions are fine when they all
 * belong to the moment the answer appeared (from its first mention up to the next assistant
 * message: a call's arguments and its results), or all lie before the session's final quarter
 * (and its last four messages). A mention there is in the recent messages any strategy keeps, so
 * an ask from then on measures nothing: such a fact is asked once, when its earlier mentions are
 * `askAfter` steps old, if that comes before the repeat is sent (a file the agent wrote and names
 * again in its closing summary), and is no probe otherwise.
 */
function findEvidence(session: Session, answer: string, index: number): Evidence | undefined {
  const { corpus, messages } = session;
  const found: number[] = [];
  // Each message that holds the answer once: the search goes on from the next message.
  for (let at = indexOfNormalised(corpus.joined, answer); at >= 0;) {
    const message = messageAt(corpus, at);
    found.push(message);
    const next = corpus.starts[message + 1];
    if (next === undefined) break;
    at = indexOfNormalised(corpus.joined, answer, next);
  }
  const first = found[0];
  if (first === undefined || !found.includes(index)) return undefined;
  let momentEnd = first + 1;
  while (momentEnd < messages.length && messages[momentEnd]?.role !== 'assistant') momentEnd++;
  const recent = messages.length - Math.max(RECENT_MESSAGES, Math.ceil(messages.length / 4));
  const last = found[found.length - 1] ?? first;
  if (last < momentEnd || last < recent) return { messages: found };
  const repeat = found.find((m) => m >= momentEnd && m >= recent) as number;
  const earlier = found.filter((m) => m < repeat);
  if (index >= repeat) return undefined;
  const step = (session.visibleAt[earlier[earlier.length - 1] ?? first] ?? 0) + session.askAfter;
  return step < (session.visibleAt[repeat] ?? 0) && step < session.steps ? { messages: earlier, beforeRepeat: step } : undefined;
}

/**
 * Whether `text` (a probe's answer or question) holds a secret, or a piece of one found in the
 * messages `indices` point to: an answer cut at 80 characters, or a question quoting the line
 * around its answer, may hold a piece of a key that no rule recognises on its own.
 */
function touchesSecret(text: string, indices: readonly number[], session: Session): boolean {
  if (hasSecret(text)) return true;
  const pieces = text.split(/[\s"'`()]+/).filter((piece) => piece.length >= 6);
  if (pieces.length === 0) return false;
  return indices.some((index) => {
    let secrets = session.secrets.get(index);
    if (secrets === undefined) {
      // A secret is a span of its message: a message that holds none of the pieces holds no secret
      // that does, and its secrets are looked for only when a text holds a piece of it.
      const held = textOf(index, session);
      if (!pieces.some((piece) => held.includes(piece))) return false;
      secrets = secretsOf(index, held, session);
    }
    return secrets.some((secret) => pieces.some((piece) => secret.includes(piece)));
  });
}

/** One message's text as its secrets are read from (thinking included), rendered once. */
function textOf(index: number, session: Session): string {
  let text = session.texts.get(index);
  if (text === undefined) {
    const message = session.messages[index];
    text = message === undefined ? '' : renderMessageText(message, { thinking: true });
    session.texts.set(index, text);
  }
  return text;
}

/** The secret strings of message `index`, whose text is `text` (cached: every candidate of a message asks). */
function secretsOf(index: number, text: string, session: Session): string[] {
  const secrets = findSecrets(text).map((span) => text.slice(span.start, span.end));
  session.secrets.set(index, secrets);
  return secrets;
}

/**
 * When to ask a probe whose evidence is the messages `evidence` (DESIGN.md §6): once its last
 * evidence message is `askAfter` steps old, if the session lasts that long; after each compaction
 * or rewrite that touched it; and at the end.
 */
function askPoints(session: Session, evidence: readonly number[]): ProbeAsk[] {
  const last = evidence[evidence.length - 1] ?? 0;
  const step = (session.visibleAt[last] ?? 0) + session.askAfter;
  return step < session.steps ? [{ step }, 'after-compaction', 'end'] : ['after-compaction', 'end'];
}

/** What judging a candidate needs of the whole session. */
interface Session {
  messages: readonly MessageEvent[];
  /**
   * The messages as a replay sends them, which is what a reader reads: without thinking unless the
   * log's dialect carries it (Gemini; the OpenAI wire the simulator speaks for OpenAI and Claude
   * logs has no thinking, scenario/log-settings.ts), so no question leans on words it never sees.
   */
  sent: readonly MessageEvent[];
  /** The first step whose context can hold each message (structure.ts `firstVisibleStep`). */
  visibleAt: readonly number[];
  /** Steps of the session (assistant messages). */
  steps: number;
  askAfter: number;
  corpus: Corpus;
  passages: LineIndex;
  /** Secrets found per message index, filled as candidates ask (`secretsOf`). */
  secrets: Map<number, string[]>;
  /** Each message's text as `secretsOf` reads it, per message index, filled as candidates ask (`textOf`). */
  texts: Map<number, string>;
}

/**
 * A fair probe of a fact, or undefined: answer repeated later, absent, given away by the
 * question, or not picking out its evidence (findable.ts: no unique span holds its anchors and the answer).
 */
function buildCandidate(fact: Fact, session: Session): Omit<Probe, 'id'> | undefined {
  const answer = normaliseAnswer(fact.answer);
  if (answer.length < 2) return undefined;
  // Evidence first: a fact without any is dropped before its secrets are looked for.
  const found = findEvidence(session, answer, fact.index);
  if (found === undefined || touchesSecret(fact.answer, [fact.index], session)) return undefined;
  const evidence = found.messages;
  const question = phraseQuestion(fact, evidence, session.passages);
  // A probe is copied into every report: a secret is never its question or its answer.
  if (question === undefined || touchesSecret(question, [fact.index, ...evidence], session)) return undefined;
  // The validity filter's reader must answer it from the whole log (`full`'s last context), or the
  // probe would measure the reader rather than any strategy (reference.ts).
  const read = readSimulated(APPROXIMATE_TOKENS, { id: 'candidate', question }, session.sent);
  if (!containsNormalised(normaliseAnswer(read), answer)) return undefined;
  return {
    kind: fact.kind,
    question,
    expected: { anyOf: [fact.answer] },
    evidence: evidence.map((i) => (session.messages[i] as MessageEvent).id),
    ask: found.beforeRepeat !== undefined ? [{ step: found.beforeRepeat }] : askPoints(session, evidence),
    origin: 'generated',
  };
}

function extractFacts(messages: readonly MessageEvent[]): Fact[] {
  const results = new Map<string, MessageEvent>();
  for (const m of messages) if (m.role === 'tool' && m.toolCallId !== undefined && !results.has(m.toolCallId)) results.set(m.toolCallId, m);
  const calls = new Map<string, ToolCall>();
  const links: ToolLinks = { calls, results };
  return messages.flatMap((message, index) => {
    for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    return [...readToolFacts(message, index, links), ...readDecisionFacts(message, index)];
  });
}

function withoutThinking(message: MessageEvent): MessageEvent {
  if (message.thinking === undefined) return message;
  const { thinking: _thinking, ...rest } = message;
  return rest;
}

/** The step each message becomes visible at, in `listMessages` order, and the number of steps. */
function stepsOf(transcript: Transcript): { visibleAt: number[]; steps: number } {
  const visibleAt: number[] = [];
  let steps = 0;
  for (const event of transcript.events) {
    if (event.type !== 'message') continue;
    if (event.role === 'assistant') steps++;
    // A message is visible from the step after the last assistant message at or before it.
    visibleAt.push(steps);
  }
  return { visibleAt, steps };
}

/** What the facts made into candidates so far: answers and questions taken, earlier answers per question. */
interface Chosen {
  /** Answers taken, each with the candidate that took it. */
  seen: Map<string, Candidate>;
  asked: Set<string>;
  /** Earlier answers to the same question stem (the errors of one command, one count over runs). */
  earlier: Map<string, string[]>;
  candidates: Candidate[];
}

/**
 * Makes each fair fact a candidate probe (generateFrom), skipping answers and questions already
 * taken — except that a fact may take over an answer a candidate of a kind in `takeOver` holds (a
 * command asked as recall becomes the command chosen after a failure).
 */
function addCandidates(facts: readonly Fact[], session: Session, chosen: Chosen, takeOver: readonly ProbeKind[] = []): void {
  const { seen, asked, earlier, candidates } = chosen;
  // A latest-state question is asked of its last fact only: the earlier answers are stale.
  const lastOf = new Map<string, Fact>();
  for (const fact of facts) if (fact.latest) lastOf.set(fact.question, fact);
  for (const fact of facts) {
    const key = normaliseAnswer(fact.answer);
    const before = earlier.get(fact.question) ?? [];
    earlier.set(fact.question, [...before, fact.answer]);
    const holder = seen.get(key);
    if ((holder !== undefined && !takeOver.includes(holder.kind)) || (fact.latest && lastOf.get(fact.question) !== fact)) continue;
    const built = buildCandidate(fact, session);
    // Two facts of one line can get one question (`Let me A. Let me B.`): a reader could not tell which is asked.
    if (built === undefined || asked.has(built.question)) continue;
    asked.add(built.question);
    const superseded = [...new Set(before.filter((a) => !containsNormalised(key, normaliseAnswer(a)) && !containsNormalised(normaliseAnswer(a), key)))];
    const probe = superseded.length > 0 && ((fact.kind !== 'artifact' && fact.kind !== 'decision') || fact.latest) ? { ...built, superseded } : built;
    const source: EvidenceSource = session.messages[fact.index]?.role === 'tool' ? 'output' : 'agent';
    const candidate: Candidate = { kind: fact.kind, source, order: holder?.order ?? candidates.length, probe };
    if (holder === undefined) candidates.push(candidate);
    else candidates.splice(candidates.indexOf(holder), 1, candidate);
    seen.set(key, candidate);
  }
}

/**
 * Generates probes from a canonical transcript (DESIGN.md §6): files read or edited, commands and
 * their exit status, error lines, numbers and identifiers from tool output, decisions and next
 * steps. Only facts whose answer the end of the session does not repeat, or asked before it does (`findEvidence`), and
 * whose question leads a reader to their own line (question-hints.ts), each asked at the end.
 * A fact whose answer or question holds a secret (src/redact/) is never chosen.
 * Deterministic for a transcript and options; ids are `gen-<kind>-<n>` in transcript order.
 */
export function generateProbes(transcript: Transcript, options: GenerateOptions = {}): Probe[] {
  // Within a run this joins the run's memos; on its own (`ctxbench probes generate`) it owns them.
  return withRunMemos({}, () => generateFrom(transcript, options));
}

function generateFrom(transcript: Transcript, options: GenerateOptions): Probe[] {
  const max = options.max ?? DEFAULT_MAX;
  if (max <= 0) return [];
  const messages = listMessages(transcript.events);
  const sent = transcript.header.dialect === 'gemini' ? messages : messages.map(withoutThinking);
  const session: Session = {
    messages,
    ...stepsOf(transcript),
    askAfter: options.askAfter ?? DEFAULT_ASK_AFTER,
    corpus: buildCorpus(messages),
    sent,
    passages: indexLines(sent),
    secrets: new Map(),
    texts: new Map(),
  };
  const chosen: Chosen = { seen: new Map(), asked: new Set(), earlier: new Map(), candidates: [] };
  addCandidates(extractFacts(messages), session, chosen);
  // Decisions and next steps are read from English and Chinese sentences; a session in another
  // language gets the kinds they found none of from its structure (structure-facts.ts).
  const missing = new Set<ProbeKind>(['continuation', 'decision'].filter((kind) => !chosen.candidates.some((c) => c.kind === kind)) as ProbeKind[]);
  if (missing.size > 0)
    addCandidates(
      readStructureFacts(messages).filter((fact) => missing.has(fact.kind)),
      session,
      chosen,
      ['recall'],
    );
  const { candidates } = chosen;
  const counters = new Map<ProbeKind, number>();
  return selectSpread(candidates, max, options.seed ?? 0, outputShareOf(messages)).map(({ kind, probe }) => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return { id: `gen-${kind}-${n}`, ...probe };
  });
}
