import { describe, expect, it } from 'vitest';
import { extractQuestionTerms, extractTerms } from '../../src/simulator/terms.js';

describe('extractTerms', () => {
  it('stems English words and splits compound tokens', () => {
    expect(extractTerms('Decided to edit src/auth.ts')).toEqual(['decid', 'edit', 'src/auth.ts', 'src', 'auth', 'ts']);
  });

  it('reads a CJK run, which has no word spaces, as its overlapping character pairs', () => {
    expect(extractTerms('讓我修改 go.mod 文件')).toEqual(['go.mod', 'go', 'mod', '讓我', '我修', '修改', '文件']);
    expect(extractQuestionTerms('What was the assistant setting out to do? (context: 我來幫)')).toEqual(['sett', '我來', '來幫']);
  });
});
