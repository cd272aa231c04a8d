import type { ContextMessage } from '../../transcript/types.js';

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

/** The material of a history, in order. */
export function gatherMaterial(messages: readonly ContextMessage[]): MaterialItem[] {
  const items: MaterialItem[] = [];
  const last = messages.length - 1;
  messages.forEach((message, order) => {
    const push = (kind: MaterialKind, text: string): void => {
      items.push({ kind, text, order });
    };
    if (message.role === 'system') return;
    if (message.role === 'user') {
      for (const sentence of sentencesOf(message.text)) push(CONSTRAINT.test(sentence) ? 'constraint' : 'request', restate(sentence));
      return;
    }
    if (message.role === 'tool') {
      for (const line of sentencesOf(message.text)
        .filter((s) => PROBLEM.test(s))
        .slice(0, PROBLEMS_PER_RESULT))
        push('problem', restate(line));
      return;
    }
    const sentences = sentencesOf(message.text);
    sentences.forEach((sentence, i) => {
      const kind: MaterialKind = DECISION.test(sentence)
        ? 'decision'
        : PROBLEM.test(sentence)
          ? 'problem'
          : (order >= last - 2 || i > 0) && NEXT.test(sentence)
            ? 'next'
            : 'done';
      push(kind, restate(sentence));
    });
    for (const call of message.toolCalls ?? []) push('done', describeCall(call.name, call.args));
  });
  return items;
}
