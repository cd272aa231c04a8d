import { describe, expect, it } from 'vitest';
import { callArgumentText, extractSpecifics, measureSurvival } from '../../src/simulator/specific-kinds.js';

describe('the three kinds of specifics', () => {
  it('finds paths, 3+ digit numbers and code identifiers', () => {
    const found = extractSpecifics(
      'Edited src/a/b.ts and /home/u/vsla/paper.tex (see https://x.io/a/b.js) on port 8437, v0.43, Cheng2011; countTokens, read_file, HarnessError, ok_',
    );
    expect([...found.paths]).toEqual(['src/a/b.ts', '/home/u/vsla/paper.tex']);
    expect([...found.numbers]).toEqual(['8437', '2011']);
    expect([...found.identifiers]).toEqual(['countTokens', 'read_file', 'HarnessError']);
  });

  it('counts a tool call by its argument values, not its schema keys', () => {
    expect(callArgumentText({ name: 'Edit', args: { file_path: 'src/x.ts', old_string: 'a', replace_all: false } })).toBe('src/x.ts\na\nfalse');
  });

  it('counts the values of nested arguments, not their keys (a TodoWrite list, MultiEdit edits)', () => {
    const todo = { name: 'TodoWrite', args: { todos: [{ content: 'Fix parseLine', status: 'in_progress', activeForm: 'Fixing parseLine' }] } };
    expect(callArgumentText(todo)).toBe('Fix parseLine\nin_progress\nFixing parseLine');
    const edits = { name: 'MultiEdit', args: { file_path: 'a.ts', edits: [{ old_string: 'x', new_string: 'y' }] } };
    expect([...extractSpecifics(callArgumentText(edits)).identifiers]).toEqual([]);
  });

  it('measures survival as the share of distinct source specifics the summary repeats', () => {
    const survival = measureSurvival('src/a.ts src/b.ts src/a.ts 1234 5678 fooBar', 'Changed src/a.ts; 1234 stays; foo bar');
    expect(survival).toEqual({
      paths: { source: 2, kept: 1, share: 0.5 },
      numbers: { source: 2, kept: 1, share: 0.5 },
      identifiers: { source: 1, kept: 0, share: 0 },
    });
    expect(measureSurvival('no specifics here', 'none').paths.share).toBeNull();
  });
});
