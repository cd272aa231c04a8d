import { describe, expect, it } from 'vitest';
import { extractQuestionTerms, extractTerms, trimToTokens } from '../../src/simulator/terms.js';

describe('extractTerms', () => {
  it('stems English words and splits compound tokens', () => {
    expect(extractTerms('Decided to edit src/auth.ts')).toEqual(['decid', 'edit', 'src/auth.ts', 'src', 'auth', 'ts']);
  });

  it('reads a CJK run, which has no word spaces, as its overlapping character pairs', () => {
    expect(extractTerms('讓我修改 go.mod 文件')).toEqual(['go.mod', 'go', 'mod', '讓我', '我修', '修改', '文件']);
    expect(extractQuestionTerms('What was the assistant setting out to do? (context: 我來幫)')).toEqual(['sett', '我來', '來幫']);
  });
});

describe('trimToTokens', () => {
  const count = (text: string): number => [...text].length;

  it('keeps whole words within the budget', () => {
    expect(trimToTokens('alpha beta gamma delta', 12, count)).toBe('alpha beta…');
  });

  it('cuts a word longer than the whole budget (a CJK clause has no spaces) to its head, rather than to nothing', () => {
    const clause = '我已經完成了專案的深入分析並根據發現的架構技術棧和開發規範產生了文件';
    const trimmed = trimToTokens(clause, 10, count);
    expect(trimmed).toBe('我已經完成了專案…');
    expect(count(trimmed)).toBeLessThanOrEqual(10);
  });
});
