import { factsOf, type LineFacts, type TextFacts } from './text-facts.js';
import { detachedCopy, runWeakMap } from '../memo.js';
import type { ContextMessage, ToolCall } from '../transcript/types.js';

/**
 * What a summarizing model reads out of a history before it writes: the user's requests and
 * constraints, what the agent did and said, its decisions, the problems it met, and what it was
 * about to do. Each item keeps its position, so sections can prefer the latest.
 */

export type MaterialKind = 'request' | 'constraint' | 'done' | 'decision' | 'problem' | 'next';

export interface MaterialItem {
  kind: MaterialKind;
  text: string;
  /** Position in the history (message index), for recency. */
  order: number;
}

const DECISION = /\b(?:decided|decide|decision|will use|we'll use|going with|chose|choose|because|instead of|agreed|plan is)\b/i;
const CONSTRAINT = /\b(?:must|never|don't|do not|should|only|without|make sure|avoid|keep)\b/i;
const PROBLEM = /\b(?:error|errors|failed|failure|failing|fails|exception|traceback|panic|fatal|cannot|can't|missing|undefined|not found)\b/i;
const NEXT = /\b(?:next|then|remaining|todo|still|will|going to|need to|needs to|let me|i'll)\b/i;
/** Openers a model drops when it restates what an agent said. */
const FILLER =
  /^(?:(?:now|ok(?:ay)?|great|perfect|good|excellent|alright|so)[,!.]?\s+)*(?:let me|i'll|i will|i need to|i'm going to|i am going to|we need to)\s+/i;
/** Words of one item, at most; a summary restates, it does not quote whole paragraphs. */
const MAX_WORDS = 24;
/** Tool output lines read for problems, at most, per result (the first ones that report one). */
const PROBLEMS_PER_RESULT = 1;

/** Splits text into sentences (and lines), trimmed, with letters in them. */
function sentencesOf(text: string): string[] {
  return text
    .split(/\r?\n|(?<=[.!?])\s+/)
    .map((s) => s.replace(/^[\s#>*\-•\d.)]+/, '').trim())
    .filter((s) => /\p{L}{3,}/u.test(s) && !s.startsWith('```'));
}

/** A sentence restated, with what it states. */
interface Statement {
  text: string;
  decision: boolean;
  constraint: boolean;
  problem: boolean;
  next: boolean;
}

/** The sentences of one line, read when first asked for. */
export class LineReading {
  #statements: Statement[] | undefined;
  #problems: string[] | undefined;

  constructor(readonly sentences: readonly string[]) {}

  /** Every sentence restated and classified (a user's or an agent's line). */
  get statements(): readonly Statement[] {
    this.#statements ??= this.sentences.map((sentence) => ({
      text: restate(sentence),
      decision: DECISION.test(sentence),
      constraint: CONSTRAINT.test(sentence),
      problem: PROBLEM.test(sentence),
      next: NEXT.test(sentence),
    }));
    return this.#statements;
  }

  /** The sentences that report a problem, restated (a tool result's line: most report none). */
  get problems(): readonly string[] {
    this.#problems ??= this.sentences.filter((sentence) => PROBLEM.test(sentence)).map(restate);
    return this.#problems;
  }
}

/**
 * The reading of one line of a text. Sentences never span a line: cutting at every line break
 * first, then within each line, gives the same sentences as `sentencesOf` on the whole text (a
 * break ends a sentence there too, and the cuts differ only in white space, which every sentence
 * is stripped of).
 */
function readingOf(line: LineFacts): LineReading {
  return (line.reading ??= new LineReading(sentencesOf(line.text)));
}

/** A sentence restated: filler dropped, the first letter capitalised, cut at `MAX_WORDS` words. */
function restate(sentence: string): string {
  const plain = sentence.replace(FILLER, '').replace(/\s+/g, ' ').trim();
  const words = plain.split(' ');
  const cut = words.length > MAX_WORDS ? `${words.slice(0, MAX_WORDS).join(' ')} …` : plain;
  return cut.charAt(0).toUpperCase() + cut.slice(1);
}

/** A tool call as an action in the past tense: `ran npm test`, `edited a.ts`, `read_file b.py`. */
function describeCall(name: string, args: Record<string, unknown>): string {
  const command = args.command ?? args.cmd;
  if (typeof command === 'string') return `Ran ${command.split(/\s+/).slice(0, 8).join(' ')}`;
  const target = ['file_path', 'path', 'filePath', 'pattern', 'query', 'url'].map((key) => args[key]).find((v): v is string => typeof v === 'string');
  const verb = /edit|write|create|replace|patch|update/i.test(name)
    ? 'Changed'
    : /read|view|cat|open/i.test(name)
      ? 'Read'
      : /grep|search|glob|find|list|ls/i.test(name)
        ? 'Searched'
        : `Used ${name} on`;
  return target === undefined ? `Used ${name}` : `${verb} ${target}`;
}

/** What a message says; `lateNext` items are `next` among the last three messages of a history. */
export interface Said {
  kind: MaterialKind;
  text: string;
  lateNext?: boolean;
}

export type Voice = 'user' | 'tool' | 'assistant';

/**
 * What each message says, wherever it stands in a history: kept per message object, else per text
 * (a message re-sent at another position is another parsed copy of the same text, and a strategy's
 * rewrite of a history keeps most texts), else read line by line (text-facts.ts). Messages and
 * their tool calls are never changed once built.
 */
const saidOf = runWeakMap<ContextMessage, readonly Said[]>();
const saidOfCalls = runWeakMap<readonly ToolCall[], readonly Said[]>();

/** The material of a history, in order. */
export function gatherMaterial(messages: readonly ContextMessage[]): MaterialItem[] {
  const items: MaterialItem[] = [];
  const last = messages.length - 1;
  messages.forEach((message, order) => {
    for (const { kind, text, lateNext } of saidIn(message)) items.push({ kind: lateNext === true && order >= last - 2 ? 'next' : kind, text, order });
  });
  return items;
}

/** The material of one message, wherever it stands in the history; an agent's tool calls are what it did. */
function saidIn(message: ContextMessage): readonly Said[] {
  const known = saidOf.get(message);
  if (known !== undefined) return known;
  const { role } = message;
  let said: readonly Said[] = [];
  if (role !== 'system') {
    const facts = factsOf(message.text);
    said = (facts.said ??= {})[role] ??= readText(role, facts);
    const calls = role === 'assistant' ? (message.toolCalls ?? []) : [];
    if (calls.length > 0) said = [...said, ...saidByCalls(calls)];
  }
  saidOf.set(message, said);
  return said;
}

function saidByCalls(calls: readonly ToolCall[]): readonly Said[] {
  let said = saidOfCalls.get(calls);
  if (said === undefined) saidOfCalls.set(calls, (said = calls.map((call) => ({ kind: 'done', text: detachedCopy(describeCall(call.name, call.args)) }))));
  return said;
}

/** The material of a message's text as `role` says it. */
function readText(role: Voice, facts: TextFacts): Said[] {
  const said: Said[] = [];
  if (role === 'user') {
    for (const line of facts.lines) {
      for (const { text: sentence, constraint } of readingOf(line).statements) said.push({ kind: constraint ? 'constraint' : 'request', text: sentence });
    }
    return said;
  }
  if (role === 'tool') {
    for (const line of facts.lines) {
      for (const problem of readingOf(line).problems) if (said.length < PROBLEMS_PER_RESULT) said.push({ kind: 'problem', text: problem });
      if (said.length >= PROBLEMS_PER_RESULT) break;
    }
    return said;
  }
  let i = 0;
  for (const line of facts.lines) {
    for (const { text: sentence, decision, problem, next } of readingOf(line).statements) {
      if (decision) said.push({ kind: 'decision', text: sentence });
      else if (problem) said.push({ kind: 'problem', text: sentence });
      // A statement of intent is what comes next when it closes the history or follows a first sentence.
      else if (next) said.push(i > 0 ? { kind: 'next', text: sentence } : { kind: 'done', text: sentence, lateNext: true });
      else said.push({ kind: 'done', text: sentence });
      i += 1;
    }
  }
  return said;
}
