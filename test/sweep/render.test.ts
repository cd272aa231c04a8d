import { describe, expect, it } from 'vitest';
import { renderSweepFiles, renderSweepTerminal } from '../../src/sweep/render.js';
import type { SweepPoint, SweepResult } from '../../src/sweep/run.js';
import type { RunResult } from '../../src/metrics/types.js';
import type { Recommendation } from '../../src/metrics/recommendation.js';

const point = (label: string, strategy: string, values: Record<string, number>, figures: Partial<SweepPoint>): SweepPoint => ({
  index: 0,
  strategy,
  label,
  values,
  settings: values,
  score: { totalTokens: 900_000, answerRecall: 0.5, crashes: 0, waitMs: 0, costUsd: 0.74 },
  onFront: false,
  sameAs: null,
  verdict: 'acceptable',
  reason: '',
  rank: 1,
  units: [],
  ...figures,
});

const recommendation: Recommendation = {
  objective: 'cost',
  constraints: { minRecall: { kind: 'relative', points: 0.05 }, maxCrashes: 0 },
  aggregate: 'worst-case',
  strategy: 'rolling-window',
  meetsFloor: true,
  settings: { keep: 1 },
  reason: '$0.5000, 30 % cheaper than full',
  runnerUp: { strategy: 'full', settings: {} },
  candidates: [],
};

const points = [
  point('full', 'full', {}, { rank: 3, score: { totalTokens: 1_200_000, answerRecall: 0.5, crashes: 0, waitMs: 0, costUsd: 0.9 } }),
  point(
    'rolling-window keep=1',
    'rolling-window',
    { keep: 1 },
    { rank: 1, verdict: 'recommended', onFront: true, score: { totalTokens: 918_000, answerRecall: 0.5, crashes: 0, waitMs: 0, costUsd: 0.5 } },
  ),
  point(
    'rolling-window keep=2',
    'rolling-window',
    { keep: 2 },
    { rank: 1, verdict: 'recommended', sameAs: 'rolling-window keep=1', reason: 'the same results as rolling-window keep=1' },
  ),
  point(
    'tri-modal n=3',
    'tri-modal',
    { n: 3 },
    {
      rank: 2,
      verdict: 'unsafe-recall',
      reason: "recall 10 % vs full's 50 %",
      score: { totalTokens: 500_000, answerRecall: 0.1, crashes: 0, waitMs: 0, costUsd: 0.3 },
    },
  ),
];

const sweep: SweepResult = {
  strategies: ['rolling-window', 'tri-modal'],
  axes: [
    { strategy: 'rolling-window', key: 'keep', flag: 'rolling-window.keep=1,2', values: [1, 2] },
    { strategy: 'tri-modal', key: 'n', flag: 'tri-modal.n=3', values: [3] },
  ],
  gridSize: 3,
  sample: null,
  points,
  distinct: 3,
  frontAxis: 'cost',
  front: [1],
  recommended: 1,
  recommendation,
  run: { tool: { name: 'ctxbench', version: '0' }, seed: 1, mode: 'mock', scenarios: [{ name: 's' }] } as unknown as RunResult,
};

describe('sweep reports', () => {
  it('show a recommendation that does not meet the floor in a red box, not the green one', () => {
    const html = (rec: Recommendation): string => renderSweepFiles({ ...sweep, recommendation: rec }, '').find((f) => f.file === 'sweep.html')?.contents ?? '';
    expect(html(recommendation)).toContain('<p class="recommendation">');
    expect(html({ ...recommendation, meetsFloor: false })).toContain('<p class="recommendation not-met">');
  });

  it('lead with the recommendation, then rank the distinct points, counting repeats instead of listing them', () => {
    const text = renderSweepTerminal(sweep);
    expect(text).toMatch(
      /^sweep of rolling-window, tri-modal · 3 points and full × 1 scenario · 3 distinct results\n\nRecommendation: ship rolling-window keep=1\n/,
    );
    expect(text).toContain('f on the front (cost net of prompt cache ↓ × answer recall ↑: 1 of 3 distinct)');
    expect(text).toMatch(/\* +1 +rolling-window keep=1 \(\+1 identical\) +\$0\.5000 +918k +50\.0% +0 +0 +recommended\n/);
    expect(text).not.toContain('rolling-window keep=2');
  });

  it('write cost, recall, crashes, verdict and repeats in sweep.csv, and the recommendation object in sweep.json', () => {
    const files = renderSweepFiles(sweep, '/* chart */');
    const csv = files.find((f) => f.file === 'sweep.csv')?.contents ?? '';
    const [header, ...rows] = csv.trim().split('\n');
    expect(header).toBe('point,strategy,keep,n,total_tokens,answer_recall,crashes,wait_ms,cost_usd,on_front,recommended,rank,verdict,same_as,reason');
    expect(rows[0]).toBe('full,full,,,1200000,0.5,0,0,0.9,false,false,3,acceptable,,');
    expect(rows[2]).toBe(
      'rolling-window keep=2,rolling-window,2,,900000,0.5,0,0,0.74,false,false,1,recommended,rolling-window keep=1,the same results as rolling-window keep=1',
    );
    const json = JSON.parse(files.find((f) => f.file === 'sweep.json')?.contents ?? '{}') as { recommendation: Recommendation; recommended: string };
    expect(json.recommendation.strategy).toBe('rolling-window');
    expect(json.recommended).toBe('rolling-window keep=1');
    const html = files.find((f) => f.file === 'sweep.html')?.contents ?? '';
    expect(html).toContain('<th>cost</th>');
    expect(html).toContain('Recommendation: ship rolling-window keep=1');
  });
});
