import type { MessageEvent, Probe, ProbeKind, ToolCall, Transcript } from '../transcript/types.js';
import { createRandom } from '../sim/random.js';
import { readDecisionFacts } from './decision-facts.js';
import type { Fact } from './fact.js';
import { STOPWORDS } from './fact.js';
import { containsNormalised, indexOfNormalised, normaliseAnswer } from './grade.js';
import { listMessages, renderMessageText } from './message-text.js';
import { readToolFacts } from './tool-facts.js';
import type { ToolLinks } from './tool-facts.js';

export interface GenerateOptions {
  /** At most this many probes (default 20). */
  max?: number;
  /** Seeds the choice among candidates when there are more than `max`. */
  seed?: number;
}

const DEFAULT_MAX = 20;
const HINT_WORDS = 3;
const KIND_ORDER: readonly ProbeKind[] = ['artifact', 'recall', 'continuation', 'decision'];

/** Every message's normalised text (thinking included), joined, to find where an answer occurs. */
interface Corpus {
  joined: string;
  /** Offset in `joined` where each message starts. */
  starts: number[];
  /** In how many messages each word occurs (rarer words make better hints). */
  documentFrequency: Map<string, number>;
}

const SEPARATOR = '\u0000';

function tokenize(text: string): string[] {
  return text.toLowerCase().match(/\b[a-z][a-z0-9_-]*[a-z0-9]\b/g) ?? [];
}

function buildCorpus(messages: readonly MessageEvent[]): Corpus {
  const starts: number[] = [];
  const documentFrequency = new Map<string, number>();
  let offset = 0;
  const texts = messages.map((m) => {
    const text = renderMessageText(m, { thinking: true });
    for (const word of new Set(tokenize(text))) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
    const normalised = normaliseAnswer(text);
    starts.push(offset);
    offset += normalised.length + SEPARATOR.length;
    return normalised;
  });
  return { joined: texts.join(SEPARATOR), starts, documentFrequency };
}

/**
 * Whether message `index` holds `answer` and no later message repeats it (a repeated answer
 * stays in any context that keeps recent messages, so the probe would measure nothing).
 */
function isAnswerOnlyUpTo(corpus: Corpus, answer: string, index: number): boolean {
  const start = corpus.starts[index] ?? 0;
  const next = corpus.starts[index + 1];
  const at = indexOfNormalised(corpus.joined, answer, start);
  if (at < 0 || (next !== undefined && at >= next)) return false;
  return next === undefined || indexOfNormalised(corpus.joined, answer, next) < 0;
}

/** A word worth reading in a question: not a stop word, not a hash or an id. */
function isHintWord(word: string): boolean {
  return word.length >= 3 && word.length <= 24 && !STOPWORDS.has(word) && !(/\d/.test(word) && word.length > 10);
}

/** Up to three rare words from the passage around the answer, so a lexical reader finds it. */
function pickHints(fact: Fact, corpus: Corpus, exclude: ReadonlySet<string>): string[] {
  const hints: string[] = [];
  const rarity = (word: string): number => corpus.documentFrequency.get(word) ?? 0;
  for (const source of fact.hintSources) {
    const words = [...new Set(tokenize(source))].filter((w) => isHintWord(w) && !exclude.has(w) && !hints.includes(w));
    // Stable sort: among equally rare words, the first in the passage wins.
    for (const word of words.sort((a, b) => rarity(a) - rarity(b))) {
      if (hints.length >= HINT_WORDS) return hints;
      hints.push(word);
    }
  }
  return hints;
}

interface Candidate {
  kind: ProbeKind;
  /** Position among all candidates, i.e. transcript order. */
  order: number;
  probe: Omit<Probe, 'id'>;
}

/** A fair probe of a fact, or undefined: answer repeated later, absent, or given away by the question. */
function buildCandidate(fact: Fact, corpus: Corpus, messages: readonly MessageEvent[]): Omit<Probe, 'id'> | undefined {
  const answer = normaliseAnswer(fact.answer);
  if (answer.length < 2) return undefined;
  const message = messages[fact.index];
  if (message === undefined || !isAnswerOnlyUpTo(corpus, answer, fact.index)) return undefined;
  const exclude = new Set([...tokenize(fact.answer), ...tokenize(fact.question)]);
  const hints = pickHints(fact, corpus, exclude);
  const question = hints.length === 0 ? fact.question : `${fact.question} (context: ${hints.join(', ')})`;
  if (containsNormalised(normaliseAnswer(question), answer)) return undefined;
  return {
    kind: fact.kind,
    question,
    expected: { anyOf: [fact.answer] },
    evidence: [message.id],
    ask: ['end'],
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

/** `count` items spread evenly over `items`, starting at a seeded offset. */
function pickEvenly<T>(items: readonly T[], count: number, next: () => number): T[] {
  if (count >= items.length) return [...items];
  const stride = items.length / count;
  const offset = next() * stride;
  return Array.from({ length: count }, (_, i) => items[Math.floor(offset + i * stride)] as T);
}

/** At most `max` candidates: kinds share the quota in turn, each kind spread over the transcript. */
function selectSpread(candidates: readonly Candidate[], max: number, seed: number): Candidate[] {
  if (candidates.length <= max) return [...candidates];
  const byKind = KIND_ORDER.map((kind) => candidates.filter((c) => c.kind === kind));
  const quotas = byKind.map(() => 0);
  for (let left = max; left > 0; ) {
    byKind.forEach((list, k) => {
      if (left > 0 && (quotas[k] ?? 0) < list.length) {
        quotas[k] = (quotas[k] ?? 0) + 1;
        left--;
      }
    });
  }
  const random = createRandom(seed);
  return byKind.flatMap((list, k) => pickEvenly(list, quotas[k] ?? 0, random.next)).sort((a, b) => a.order - b.order);
}

/**
 * Generates probes from a canonical transcript (DESIGN.md §6): files read or edited, commands and
 * their exit status, error lines, numbers and identifiers from tool output, decisions and next
 * steps. Only facts whose answer no later message repeats, each asked at the end. Deterministic
 * for a transcript and options; ids are `gen-<kind>-<n>` in transcript order.
 */
export function generateProbes(transcript: Transcript, options: GenerateOptions = {}): Probe[] {
  const max = options.max ?? DEFAULT_MAX;
  if (max <= 0) return [];
  const messages = listMessages(transcript.events);
  const corpus = buildCorpus(messages);
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const fact of extractFacts(messages)) {
    const key = normaliseAnswer(fact.answer);
    if (seen.has(key)) continue;
    const probe = buildCandidate(fact, corpus, messages);
    if (probe === undefined) continue;
    seen.add(key);
    candidates.push({ kind: fact.kind, order: candidates.length, probe });
  }
  const counters = new Map<ProbeKind, number>();
  return selectSpread(candidates, max, options.seed ?? 0).map(({ kind, probe }) => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return { id: `gen-${kind}-${n}`, ...probe };
  });
}
