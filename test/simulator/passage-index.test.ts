import { describe, expect, it } from 'vitest';
import { indexContext, passageAt, passageMemoSizes, scoreIndexed, textPassages } from '../../src/simulator/passage-index.js';
import { answerFromContext, rankPassages, readProbe, splitPassages } from '../../src/simulator/reader.js';
import { extractQuestionTerms, extractTerms } from '../../src/simulator/terms.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import type { MessageDraft } from '../../src/transcript/draft.js';
import { editedLists } from '../helpers/list-edits.js';

/** A small seeded generator, so that the varied sessions are the same at every run. */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const WORDS = [
  'server',
  'port',
  '5173',
  'redis',
  'cache',
  'session',
  'src/auth/login.ts',
  'max_retries',
  'failed',
  'tests',
  'deploy',
  'the',
  'is',
  'config.yaml',
  'npm',
  'run',
  'build',
];

function sessionOf(seed: number, size: number): ContextMessage[] {
  const next = lcg(seed);
  const pick = (): string => WORDS[Math.floor(next() * WORDS.length)] as string;
  const line = (): string => Array.from({ length: 1 + Math.floor(next() * 8) }, pick).join(' ');
  const text = (): string => Array.from({ length: 1 + Math.floor(next() * 4) }, line).join(next() < 0.2 ? '\\n' : '\n');
  return Array.from({ length: size }, (_, i): ContextMessage => {
    const role = (['user', 'assistant', 'tool'] as const)[i % 3] as ContextMessage['role'];
    const message: MessageDraft = { type: 'message', id: `m${i}`, role, text: next() < 0.1 ? '' : text() };
    if (role === 'assistant' && next() < 0.5) message.toolCalls = [{ id: `c${i}`, name: 'shell', args: { command: line() } }];
    if (role === 'assistant' && next() < 0.3) message.thinking = text();
    return message;
  });
}

const QUESTIONS = [
  'Which port is the server on?',
  'What failed in src/auth/login.ts?',
  'Which max_retries value did the config.yaml set?',
  'redis cache session',
  'nothing matches here',
];

describe('the passage index', () => {
  it('lists the same passages as splitPassages, by position', () => {
    for (const seed of [1, 2, 3]) {
      const messages = sessionOf(seed, 30);
      const passages = splitPassages(messages);
      const context = indexContext(messages);
      expect(context.count).toBe(passages.length);
      passages.forEach((passage, i) => expect(passageAt(context, i)).toEqual(passage));
      expect(passageAt(context, passages.length)).toBeUndefined();
      expect(passageAt(context, -1)).toBeUndefined();
    }
  });

  it('indexes a list read after others as from scratch, whatever the edits between reads (appends, cuts, swaps, earlier versions)', () => {
    const pool = sessionOf(13, 40);
    for (const messages of editedLists(pool, 300, 5)) {
      const context = indexContext(messages);
      const passages = splitPassages(messages);
      expect(context.count).toBe(passages.length);
      expect(context.totalLength).toBe(passages.reduce((n, p) => n + extractTerms(p.text).length, 0));
      passages.forEach((passage, i) => expect(passageAt(context, i)).toEqual(passage));
    }
  });

  it('scores a list read after others as from scratch, whatever the edits between reads (the texts holding a term are kept per list)', () => {
    const pool = sessionOf(15, 40);
    let scored = 0;
    for (const [n, messages] of [...editedLists(pool, 200, 6)].entries()) {
      const question = QUESTIONS[n % QUESTIONS.length] as string;
      const terms = [...new Set(extractQuestionTerms(question))];
      const expected = rankPassages(question, splitPassages(messages)).filter((p) => p.score > 0);
      expect(scoreIndexed(terms, indexContext(messages))).toEqual(expected);
      scored += expected.length;
    }
    expect(scored).toBeGreaterThan(0);
  });

  it('scores the matching passages exactly as the reader ranks the passage list', () => {
    for (const seed of [4, 5, 6, 7]) {
      const messages = sessionOf(seed, 40);
      const context = indexContext(messages);
      for (const question of QUESTIONS) {
        const terms = [...new Set(extractQuestionTerms(question))];
        const expected = rankPassages(question, splitPassages(messages)).filter((p) => p.score > 0);
        expect(scoreIndexed(terms, context)).toEqual(expected);
        // With a share, the prefix a reader reads before its first passage below that share of the best.
        const best = expected[0]?.score ?? 0;
        const cut = expected.findIndex((p) => p.score < best * 0.6);
        expect(scoreIndexed(terms, context, 0.6)).toEqual(cut < 0 ? expected : expected.slice(0, cut));
      }
    }
  });

  it('answers each question of a list read again, cut or extended in between as from scratch (the questions of an ask point share one index)', () => {
    const messages = sessionOf(14, 40);
    const reads = [30, 30, 12, 30, 40, 40, 30, 0, 40];
    for (const [n, length] of reads.entries()) {
      const question = QUESTIONS[n % QUESTIONS.length] as string;
      const list = [...messages.slice(0, length), { type: 'message', id: 'q', role: 'user', text: question } as ContextMessage];
      expect(readProbe(list, { maxTokens: 30 })).toEqual(readProbeByList(list));
    }
  });

  it('gives readProbe the answer answerFromContext reads from the split passages', () => {
    let found = 0;
    for (const seed of [8, 9, 10, 11, 12]) {
      const messages = sessionOf(seed, 25);
      for (const question of QUESTIONS) {
        const asked: ContextMessage = { type: 'message', id: 'q', role: 'user', text: question };
        const indexed = readProbe([...messages, asked], { maxTokens: 30 });
        expect(indexed).toEqual(readProbeByList([...messages, asked]));
        if (indexed.found) found++;
      }
    }
    // The inputs exercise both outcomes.
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThan(25);
  });

  it('keeps its text memo bounded by the characters it holds', () => {
    // 50 texts of 200,000 characters: 10 million, past the memo's 8 million.
    const line = (i: number) => `memo bound probe ${i} holds a line of words\n`.repeat(4_500).slice(0, 200_000);
    for (let i = 0; i < 50; i++) textPassages(line(i));
    expect(passageMemoSizes().texts).toBeLessThan(50);
  });
});

/** readProbe as it was written before the index: the last user message asked of every other message's passages. */
function readProbeByList(messages: readonly ContextMessage[]): ReturnType<typeof readProbe> {
  const questionIndex = messages.findLastIndex((m) => m.role === 'user');
  const question = messages[questionIndex]?.text ?? '';
  return answerFromContext(question, splitPassages(messages.filter((_, i) => i !== questionIndex)), { maxTokens: 30 });
}

describe('textPassages', () => {
  const line = (words: number, space: string): string => Array.from({ length: words }, (_, i) => `w${i}${i % 20 === 19 ? '.' : ''}`).join(space);

  it('keeps a line of up to 60 words whole and splits a longer one into its sentences', () => {
    for (const space of [' ', ' \t ', '\u00a0']) {
      expect(textPassages(`  ${line(60, space)}  `).pieces).toEqual([line(60, space)]);
      const long = line(61, space);
      expect(textPassages(long).pieces).toEqual(long.split(/(?<=[.!?])\s+/));
      expect(textPassages(long).pieces.length).toBe(4);
    }
  });
});
