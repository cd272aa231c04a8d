import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/md.js';
import { renderTerminalRecommendation } from '../../src/report/terminal-recommendation.js';
import { recommendRun } from '../../src/run/recommend-run.js';
import { buildRunResult } from './run-result.js';

// full overflows at step 2; rolling-window compacts and finishes.
const result = buildRunResult();
const withDecision = { ...result, recommendation: recommendRun(result.units) };

describe('the recommendation block', () => {
  it('leads summary.md: ship what, why, what was excluded and why', () => {
    const md = renderMarkdown(withDecision)[0]?.contents ?? '';
    const blockAt = md.indexOf('### Recommendation: ship rolling-window');
    expect(blockAt).toBeGreaterThan(0);
    expect(blockAt).toBeLessThan(md.indexOf('### long-session'));
    expect(md).toContain('- excluded: full: crashes itself: overflow at step 2 of 3');
    // No recommendation, no block (results written before it).
    expect(renderMarkdown(result)[0]?.contents).not.toContain('Recommendation');
  });

  it('is a few lines on a terminal, excluded strategies counted beyond five', () => {
    const text = renderTerminalRecommendation(withDecision.recommendation, { color: false });
    expect(text.split('\n')[0]).toBe('Recommendation: ship rolling-window');
    expect(text).toMatch(/\n {2}why: .*no crash where another strategy completes/);
    expect(text).toContain('  excluded: full: crashes itself: overflow at step 2 of 3\n');
    const many = {
      ...withDecision.recommendation,
      candidates: Array.from({ length: 8 }, (_, i) => ({ ...withDecision.recommendation.candidates[0]!, strategy: `s${i}`, verdict: 'crashes' as const })),
    };
    expect(renderTerminalRecommendation(many, { color: false })).toContain('and 3 more (summary.md)');
  });
});
