import { describe, expect, it } from 'vitest';
import { answerTokens, isAnswerToken, leakedTokens, leaksAnyToken } from '../../src/probes/leak.js';

describe('leakedTokens', () => {
  it.each([
    // A path counts by its last component: its folders may say where the file lives.
    ['Which file under images did `shell` mention?', 'images/release_page.png', []],
    ['Which file did `shell` mention? (context: page, release)', 'images/release_page.png', ['page', 'release']],
    ['Which file did the agent read with `Read`? (context: file_path, mod, home)', 'go.mod', ['mod']],
    // Anything else counts whole: a command, a phrase, a number.
    ['Which command did the agent run with `shell`? (context: sed, bash)', "sed -n '1,160p' README.md", ['sed']],
    ['What number of passed tests did `pytest` say?', '14', []],
    ['What did 14 tests do?', '14', ['14']],
    // Function words name nothing: a phrase answer may share them with its question.
    ['What reason did the assistant give for the change?', 'the tests use the old names', []],
    // CJK text has no word spaces: its tokens are its character pairs.
    ['What was the assistant setting out to do? (context: 我來幫)', '創建一個待辦清單來追蹤所有任務', []],
    ['What was the assistant setting out to do? (context: 所有任務)', '創建一個待辦清單來追蹤所有任務', ['所有', '有任', '任務']],
    ['Which file did the agent write with `Write`? (context: 中文)', '/repo/版本需求說明-繁體中文.md', ['中文']],
  ])('%s → %s', (question, answer, leaked) => {
    expect(leakedTokens(question, answer)).toEqual(leaked);
  });

  it('reads a Windows path by its last component too', () => {
    expect([...answerTokens('C:\\src\\app\\main.py')]).toEqual(['main', 'py']);
  });
});

describe('isAnswerToken', () => {
  it.each([
    // A hint word that inflects an answer token gives it away as well; a short one is compared whole.
    ['aliases', 'alias | grep -E "claude" | head -10', true],
    ['entries', 'cache_entry', true],
    ['tested', 'test_parse.py', true],
    ['uses', 'use_tls', false],
    ['parser', 'parse_args', true],
    ['config', 'configure', false],
    // A compound holding an answer token of four letters or more gives it away too.
    ['upperdir', '/var/lib/docker/overlay/upper', true],
    ['egrep', '/usr/bin/grep', true],
    ['sqlite3', 'db.sql', false],
  ])('%s of %s: %s', (word, answer, leaks) => {
    expect(isAnswerToken(word, answerTokens(answer))).toBe(leaks);
  });
});

describe('leaksAnyToken', () => {
  it.each([
    ['Which file did the agent edit?', 'src/probes/grade.ts'],
    ['Which grade file did the agent edit?', 'src/probes/grade.ts'],
    ['What did the test print?', '3 passed'],
    ['How many tests passed?', '3 passed'],
  ])('%s / %s: as leakedTokens says', (question, answer) => {
    expect(leaksAnyToken(question, answerTokens(answer))).toBe(leakedTokens(question, answer).length > 0);
  });
});
