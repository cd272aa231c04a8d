import { describe, expect, it } from 'vitest';
import { renderSweepTerminal } from '../../src/sweep/render.js';
import type { SweepPoint, SweepResult } from '../../src/sweep/run.js';
import type { RunResult } from '../../src/metrics/types.js';

const point = (index: number, totalTokens: number, costUsd: number | null): SweepPoint => ({
  index,
  label: `keep=${index}`,
  values: { keep: index },
  score: { totalTokens, answerRecall: 0.5, crashes: 0, waitMs: 0, costUsd },
  onFront: true,
  units: [],
});

const sweep = (points: SweepPoint[]): SweepResult => ({
  strategy: 'rolling-window',
  axes: [{ key: 'keep', flag: 'rolling-window.keep', values: points.map((p) => p.index) }],
  gridSize: points.length,
  sample: null,
  constraints: { maxCrashes: 0 },
  points,
  front: points.map((_, i) => i),
  recommendation: { position: 0, reason: 'the cheapest' },
  run: { scenarios: [{ name: 's' }] } as unknown as RunResult,
});

describe('renderSweepTerminal', () => {
  it('shows the cost of each front point when the points are priced', () => {
    // Fewer tokens, more dollars: both points are on the front because cost is an objective.
    const text = renderSweepTerminal(sweep([point(1, 900_000, 0.7403), point(8, 918_000, 0.7335)]));
    expect(text).toContain('waiting ↓, cost net of prompt cache ↓):');
    expect(text).toMatch(/ wait +cost\n/);
    expect(text).toMatch(/\* {2}keep=1 +900k +50\.0% +0 +0 +\$0\.7403\n/);
    expect(text).toMatch(/ {4}keep=8 +918k +50\.0% +0 +0 +\$0\.7335\n/);
  });

  it('leaves the column out when no point is priced', () => {
    const text = renderSweepTerminal(sweep([point(1, 900_000, null)]));
    expect(text).toContain('waiting ↓):');
    expect(text).not.toContain('cost');
  });
});
