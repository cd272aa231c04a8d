import { describe, expect, it } from 'vitest';
import { previewText, truncateMiddleToTokens, truncateToTokens } from '../../../src/strategies/helpers/text-cuts.js';
import { createTokenizer } from '../../../src/tokens/tokenizer.js';

const count = (text: string): number => createTokenizer('o200k_base').count(text);
const text = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');

describe('text cuts', () => {
  it.each([0, 1, 17, 60])('truncateToTokens keeps the longest prefix within %i tokens', (max) => {
    const cut = truncateToTokens(text, max, count);
    expect(count(cut)).toBeLessThanOrEqual(max);
    expect(text.startsWith(cut)).toBe(true);
    expect(count(text.slice(0, cut.length + 1))).toBeGreaterThan(max);
  });

  it('truncateMiddleToTokens keeps both ends within the budget and says how much was cut', () => {
    const cut = truncateMiddleToTokens(text, 40, count);
    expect(count(cut)).toBeLessThanOrEqual(40);
    expect(cut.startsWith('word0 ')).toBe(true);
    expect(cut.endsWith('word199')).toBe(true);
    expect(cut).toMatch(/\[… \d+ characters truncated …\]/);
    expect(truncateMiddleToTokens('short', 40, count)).toBe('short');
  });

  it('previewText keeps head, middle and tail with markers, and short text whole', () => {
    const preview = previewText(text, 100);
    expect(preview.startsWith(text.slice(0, 40))).toBe(true);
    expect(preview.endsWith(text.slice(-40))).toBe(true);
    expect(preview.match(/\[… \d+ characters …\]/g)).toHaveLength(2);
    expect(preview).toContain(text.slice(Math.floor((text.length - 20) / 2), Math.floor((text.length - 20) / 2) + 20));
    expect(previewText('short', 100)).toBe('short');
  });
});
