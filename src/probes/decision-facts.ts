import type { MessageEvent } from '../transcript/types.js';
import type { Fact } from './fact.js';
import { capText, cleanPhrase } from './fact.js';
import { readCjkDecisionFacts } from './cjk-decision-facts.js';

/**
 * Facts in what the assistant said: decisions ("I'll use X", "X instead of Y", "decided to",
 * "because") and announced next steps ("next, I'll …"); in Chinese prose, cjk-decision-facts.ts.
 */

const END = String.raw`(?=\s+(?:instead|rather|because|since|so that|so|to|for|as|which|and then)\b|[.,;:!?()]|$)`;
const CHOICE_VERB = String.raw`(?:use|using|go with|going with|switch(?:ing)? to|stick with|adopt|chose|choose|choosing|pick(?:ed|ing)?|opt(?:ed|ing)? for|prefer(?:ring)?)`;

const INSTEAD_OF = new RegExp(String.raw`\b${CHOICE_VERB}\s+(.+?)\s+instead of\s+(.+?)(?=\s+because\b|[.,;:!?()]|$)`, 'i');
const WILL_USE = new RegExp(String.raw`\b(?:I'll|I will|I'm going to|I am going to|let's|let me|we'll|we will|we should)\s+${CHOICE_VERB}\s+(.+?)${END}`, 'i');
const DECIDED_TO = new RegExp(String.raw`\b(?:decided|decide|chose|choose) to\s+(.+?)${END}`, 'i');
const BECAUSE = /^(.*?\w)\s*,?\s+because\s+(.+?)(?=[.;!?]|$)/i;
// A fronted reason: `Since the tests pass, I'll commit`, `Because X, Y`, `…, but since X, I can't Y`.
const SINCE = /(?:^|,\s*|\bbut\s+)(?:since|because)\s+([^,]+?),\s*(.+?)(?=[.;!?]|$)/i;
const NEXT_STEP =
  /\b(?:next|then|after that|afterwards),?\s+(?:I'll|I will|I need to|I should|we'll|we will|we need to|we should|let's|let me)\s+(.+?)(?=[.;:!?]|$)/i;

// What the assistant set out to do, said at the start of a sentence: `Let me run the tests`.
const SETTING_OUT = /^(?:now,?\s+|first,?\s+)?(?:let me|I'll|I will|I need to|I'm going to|I am going to)\s+(.+?)(?=[.;:!?]|$)/i;

const MAX_ANSWER_WORDS = 6;

/** Sentences of a text; a line break ends one too, as agents write lists. */
function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function readChoice(sentence: string, index: number): Fact | undefined {
  const instead = INSTEAD_OF.exec(sentence);
  const insteadAnswer = instead?.[1] === undefined ? undefined : cleanPhrase(instead[1], MAX_ANSWER_WORDS);
  if (instead !== null && insteadAnswer !== undefined) {
    const rejected = capText((instead[2] ?? '').trim(), 60);
    return { kind: 'decision', answer: insteadAnswer, index, question: `What did the assistant choose instead of ${rejected}?`, hintSources: [sentence] };
  }
  const use = WILL_USE.exec(sentence)?.[1];
  const useAnswer = use === undefined ? undefined : cleanPhrase(use, MAX_ANSWER_WORDS);
  if (useAnswer !== undefined) {
    return { kind: 'decision', answer: useAnswer, index, question: 'What did the assistant decide to use?', hintSources: [sentence] };
  }
  const decided = DECIDED_TO.exec(sentence)?.[1];
  const decidedAnswer = decided === undefined ? undefined : cleanPhrase(decided, MAX_ANSWER_WORDS);
  if (decidedAnswer === undefined) return undefined;
  return { kind: 'decision', answer: decidedAnswer, index, question: 'What did the assistant decide to do?', hintSources: [sentence] };
}

function readReason(sentence: string, index: number): Fact | undefined {
  const because = BECAUSE.exec(sentence);
  const since = because === null ? SINCE.exec(sentence) : null;
  const reason = because?.[2] ?? since?.[1];
  const answer = reason === undefined ? undefined : cleanPhrase(reason, 8);
  if (answer === undefined) return undefined;
  const decided = because?.[1] ?? since?.[2] ?? '';
  const clause = decided
    .split(/\s+/)
    .slice(because === null ? 0 : -12, because === null ? 12 : undefined)
    .join(' ');
  return { kind: 'decision', answer, index, question: `What reason did the assistant give for "${clause}"?`, hintSources: [sentence] };
}

function readNextStep(sentence: string, previous: string, index: number, calls: string): Fact | undefined {
  const next = NEXT_STEP.exec(sentence)?.[1];
  const step = next ?? SETTING_OUT.exec(sentence)?.[1];
  const answer = step === undefined ? undefined : cleanPhrase(step, MAX_ANSWER_WORDS);
  if (answer === undefined) return undefined;
  const question = next === undefined ? 'What was the assistant setting out to do?' : 'What did the assistant say it would do next?';
  // The calls it then made (a command, its description) say in other words what it was doing.
  return { kind: 'continuation', answer, index, question, hintSources: [sentence, previous, calls] };
}

/** The decision and next-step facts of an assistant message (its text, not its thinking). */
export function readDecisionFacts(message: MessageEvent, index: number): Fact[] {
  if (message.role !== 'assistant' || message.text === '') return [];
  const sentences = splitSentences(message.text);
  const calls = (message.toolCalls ?? []).flatMap((call) => Object.values(call.args).filter((v): v is string => typeof v === 'string')).join('\n');
  const english = sentences.flatMap((sentence, i) =>
    [readChoice(sentence, index), readReason(sentence, index), readNextStep(sentence, sentences[i - 1] ?? '', index, calls)].filter(
      (f): f is Fact => f !== undefined,
    ),
  );
  return [...english, ...readCjkDecisionFacts(message.text, index, calls)];
}
