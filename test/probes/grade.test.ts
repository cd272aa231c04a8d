import { describe, expect, it } from 'vitest';
import { containsNormalised, gradeAnswer, normaliseAnswer } from '../../src/probes/grade.js';
import type { ProbeExpectation } from '../../src/transcript/types.js';

describe('normaliseAnswer', () => {
  it.each([
    ['  The Port is   8437. ', 'the port is 8437'],
    ['`src/server/config.ts`', 'src/server/config.ts'],
    ['\u201CKeyError\u201D and \u2018x\u2019', 'keyerror and x'],
    ['src\\server\\config.ts', 'src/server/config.ts'],
    ['see ./src/app.py!?', 'see src/app.py'],
    ['"npm test"\n\t--watch', 'npm test --watch'],
    // CJK writing has no word spaces; fullwidth forms are their ASCII letters and punctuation.
    ['讓我修改 go.mod 文件：', '讓我修改go.mod文件'],
    ['「ＴＯＤＯ．ｍｄ」已刪除。', 'todo.md已刪除'],
    ['版本\u3000設定為 1.23', '版本設定為1.23'],
    // A lone tab, newline or no-break space is a space; trailing spaces and punctuation go together.
    ['a\tb\nc\u00a0d', 'a b c d'],
    ['done . ; ', 'done'],
    ['one space only', 'one space only'],
    ['findstr \\"Default Gateway\\"', 'findstr default gateway'],
    ['x=./run.sh', 'x=run.sh'],
    ['。', ''],
  ])('%j → %j', (input, expected) => {
    expect(normaliseAnswer(input)).toBe(expected);
  });
});

describe('containsNormalised', () => {
  it('does not find a number inside a longer number', () => {
    expect(containsNormalised('listening on 8080', '80')).toBe(false);
    expect(containsNormalised('13 passed', '3')).toBe(false);
    expect(containsNormalised('ports 8080 and 80', '80')).toBe(true);
  });

  it('finds words inside longer words (only numbers are guarded)', () => {
    expect(containsNormalised('the tests failed', 'fail')).toBe(true);
  });
});

const cases: { name: string; expected: ProbeExpectation; answer: string; correct: boolean }[] = [
  { name: 'exact value', expected: { anyOf: ['8437'] }, answer: 'The server listens on port 8437.', correct: true },
  { name: 'case', expected: { anyOf: ['KeyError'] }, answer: 'a KEYERROR was raised', correct: true },
  { name: 'quotes and backticks', expected: { anyOf: ['"npm test"'] }, answer: 'It ran `npm test`.', correct: true },
  { name: 'smart quotes', expected: { anyOf: ["KeyError: 'MIGRATION_TARGET'"] }, answer: 'KeyError: \u2018MIGRATION_TARGET\u2019', correct: true },
  { name: 'whitespace', expected: { anyOf: ['npm test -- --reporter=dot'] }, answer: 'npm   test --\n --reporter=dot', correct: true },
  { name: 'path separators', expected: { anyOf: ['src/server/config.ts'] }, answer: 'src\\server\\config.ts', correct: true },
  { name: 'any of several', expected: { anyOf: ['pg-mem', 'in-memory postgres'] }, answer: 'An in-memory Postgres.', correct: true },
  { name: 'a wrong value', expected: { anyOf: ['8437'] }, answer: 'Port 8080.', correct: false },
  { name: 'CJK, spaced otherwise', expected: { anyOf: ['修改 go.mod 文件'] }, answer: '助手說要修改go.mod文件。', correct: true },
  { name: 'CJK, fullwidth', expected: { anyOf: ['統一為 go 1.23'] }, answer: '它決定統一為 ｇｏ １.２３', correct: true },
  { name: 'CJK, another value', expected: { anyOf: ['統一為 go 1.23'] }, answer: '它決定統一為 go 1.24', correct: false },
  { name: 'a longer number is wrong', expected: { anyOf: ['843'] }, answer: 'Port 8437.', correct: false },
  { name: 'allOf, all present', expected: { allOf: ['CI', 'no database'] }, answer: 'Because the CI runners have no database.', correct: true },
  { name: 'allOf, one missing', expected: { allOf: ['CI', 'no database'] }, answer: 'Because the CI is slow.', correct: false },
  { name: 'regex, case-insensitive', expected: { regex: 'pool\\.test\\.ts::acquire_\\w+' }, answer: 'tests/db/POOL.test.ts::ACQUIRE_timeout', correct: true },
  { name: 'regex, no match', expected: { regex: '^v\\d+\\.\\d+' }, answer: 'version two', correct: false },
  { name: 'invalid regex is wrong, not a throw', expected: { regex: '(' }, answer: '(', correct: false },
  { name: 'every criterion must hold', expected: { anyOf: ['8437'], regex: 'port' }, answer: '8437', correct: false },
  { name: 'not in session: not mentioned', expected: { notInSession: true }, answer: 'The deploy token was never mentioned in the session.', correct: true },
  { name: 'not in session: not found', expected: { notInSession: true }, answer: 'Not found in the conversation.', correct: true },
  { name: "not in session: I don't know", expected: { notInSession: true }, answer: 'I don\u2019t know.', correct: true },
  { name: 'not in session: unknown', expected: { notInSession: true }, answer: 'Unknown.', correct: true },
  { name: "not in session: isn't in", expected: { notInSession: true }, answer: "That isn't in the transcript.", correct: true },
  { name: 'not in session: cannot find', expected: { notInSession: true }, answer: 'I cannot find any deploy token.', correct: true },
  { name: 'not in session: asserts a value', expected: { notInSession: true }, answer: 'It was not mentioned, but probably 8437.', correct: false },
  { name: 'not in session: asserts a path', expected: { notInSession: true }, answer: 'Unknown; maybe `deploy/token.txt`.', correct: false },
  { name: 'not in session: answers with a value', expected: { notInSession: true }, answer: 'The token is abc-123.', correct: false },
];

describe('gradeAnswer', () => {
  it.each(cases)('$name', ({ expected, answer, correct }) => {
    const grade = gradeAnswer(expected, answer);
    expect(grade.correct).toBe(correct);
    expect(grade.reason).not.toBe('');
  });

  it('names what matched and what is missing', () => {
    expect(gradeAnswer({ anyOf: ['8437'] }, 'port 8437').reason).toContain('8437');
    expect(gradeAnswer({ allOf: ['CI', 'no database'] }, 'CI').reason).toContain('"no database"');
    expect(gradeAnswer({ notInSession: true }, 'Unknown, 8437').reason).toContain('8437');
  });
});
