import { describe, expect, it } from 'vitest';
import { NOT_FOUND_ANSWER, answerFromContext, rankPassages, readProbe, splitPassages } from '../../src/simulator/reader.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import { withRunMemos } from '../../src/memo.js';

const tokenizer = createTokenizer('o200k_base');
const count = (text: string) => tokenizer.count(text);

function message(id: string, role: ContextMessage['role'], text: string, extra: Partial<ContextMessage> = {}): ContextMessage {
  return { type: 'message', id, role, text, ...extra };
}

const session: ContextMessage[] = [
  message('u1', 'user', 'Set up the dev server for the dashboard and make the login tests pass.'),
  message('a1', 'assistant', 'Starting the dev server.', { toolCalls: [{ id: 'c1', name: 'shell', args: { command: 'npm run dev' } }] }),
  message('t1', 'tool', '> dashboard@0.3.1 dev\nDev server listening on port 5173 (http://localhost:5173/)\nwatching for file changes...'),
  message('a2', 'assistant', 'We decided to use Redis for the session cache because the in-memory map lost sessions on restart.'),
  message('t2', 'tool', 'FAIL test/auth/login.test.ts > rejects expired tokens\nAssertionError: expected 401 to be 403'),
  message('a3', 'assistant', 'The expired-token check returns 401; the spec wants 403. Editing src/auth/session.ts next.'),
];

describe('the lexical reader', () => {
  it('splits messages into line passages that keep their message id, tool calls included', () => {
    const passages = splitPassages(session);
    expect(passages).toContainEqual({ messageId: 't1', text: 'Dev server listening on port 5173 (http://localhost:5173/)' });
    expect(passages).toContainEqual({ messageId: 'a1', text: 'shell{"command":"npm run dev"}' });
    expect(passages.filter((p) => p.messageId === 't2')).toHaveLength(2);
  });

  it('answers from the passage that holds the evidence', () => {
    const port = answerFromContext('On which port is the dev server listening?', splitPassages(session), { count });
    expect(port.found).toBe(true);
    expect(port.answer).toContain('5173');
    expect(port.passages[0]?.messageId).toBe('t1');

    const decision = answerFromContext('What did we decide to use for the session cache, and why?', splitPassages(session), { count });
    expect(decision.passages[0]?.messageId).toBe('a2');
    expect(decision.answer).toContain('Redis');

    const failing = answerFromContext('Which assertion fails in the expired tokens login test?', splitPassages(session), { count });
    expect(failing.answer).toContain('expected 401 to be 403');
  });

  it('says "Not found in the context." when the evidence is absent', () => {
    const withoutDecision = splitPassages(session.filter((m) => m.id !== 'a2'));
    const answer = answerFromContext('What did we decide to use for the session cache, and why?', withoutDecision, { count });
    expect(answer).toEqual({ found: false, answer: NOT_FOUND_ANSWER, passages: [] });
    expect(answerFromContext('Which database migration tool was chosen?', splitPassages(session), { count }).answer).toBe(NOT_FOUND_ANSWER);
    expect(answerFromContext('anything at all?', [], { count }).answer).toBe(NOT_FOUND_ANSWER);
  });

  it('prefers the more recent of two equally good passages', () => {
    const passages = [
      { messageId: 'old', text: 'The API port is 3000.' },
      { messageId: 'new', text: 'The API port is 8080.' },
    ];
    const ranked = rankPassages('What is the API port?', passages);
    expect(ranked.map((p) => p.messageId)).toEqual(['new', 'old']);
    expect(answerFromContext('What is the API port?', passages).answer.split('\n')[0]).toBe('The API port is 8080.');
  });

  it('trims a long passage to the answer budget around the matching words', () => {
    const filler = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const passages = [{ messageId: 'log', text: `${filler} the migration failed with ERR_LOCK_TIMEOUT ${filler}` }];
    const answer = answerFromContext('Why did the migration fail?', passages, { count, maxTokens: 40 });
    expect(count(answer.answer)).toBeLessThanOrEqual(40);
    expect(answer.answer).toContain('ERR_LOCK_TIMEOUT');
  });

  it("reads probes within a run (each question's terms worked out once) as it reads each alone", () => {
    const questions = [
      'Which file will be edited next?',
      'On which port is the dev server listening?',
      'Which assertion fails in the expired tokens login test?',
    ];
    const reads = (): string[] =>
      [...questions, ...questions].flatMap((q, i) => [
        readProbe([...session, message(`q${i}`, 'user', q)], { count }).answer,
        readProbe([...session.slice(0, 3), message(`p${i}`, 'user', q)], { count }).answer,
      ]);
    const alone = reads();
    expect(withRunMemos({}, reads)).toEqual(alone);
    expect(alone[0]).toContain('src/auth/session.ts');
    expect(alone[2]).toContain('5173');
  });

  it('reads a probe: the question is the last user message, the rest is the context', () => {
    const probe = [...session, message('q', 'user', 'Which file will be edited next?')];
    expect(readProbe(probe, { count }).answer).toContain('src/auth/session.ts');
  });
});
