import { describe, expect, it } from 'vitest';
import { DEFAULT_DECISION, recommend, type DecisionRow } from '../../src/metrics/recommend.js';
import type { SummaryRow } from '../../src/metrics/types.js';
import { summaryRow } from '../helpers/records.js';

/** A row that measured needed facts (40 of them): `lost` of them lost beyond recovery. */
function row(strategy: string, lost: number, figures: Partial<SummaryRow> = {}): SummaryRow {
  const needed = { needed_facts: 40, needed_lost: lost, needed_recall: 1 - lost, needed_recoverable: 0 };
  return { ...summaryRow('s', strategy, { answer_recall: 0.5, probes: 20, unanswered: 0, cost_usd: 1, cost_vs_full: 0, ...figures }), ...needed } as SummaryRow;
}

function decision(summary: SummaryRow): DecisionRow {
  return { label: summary.strategy, strategy: summary.strategy, settings: {}, summary, window: 100_000 };
}

const overflow = { crashed: true, crash_kind: 'overflow' as const, crash_step: 109, steps: 119 };

describe('recommend on needed facts', () => {
  it('ships the cheapest that loses at most 5 % of the needed facts, and says the floor in those words', () => {
    const rec = recommend([
      decision(row('full', 0, overflow)),
      decision(row('tri-modal', 0.4, { cost_usd: 0.5 })),
      decision(row('codex-rebuild', 0.04, { cost_usd: 0.9 })),
      decision(row('rolling-window', 0.02, { cost_usd: 1.4 })),
    ]);
    expect(rec.strategy).toBe('codex-rebuild');
    expect(rec.meetsFloor).toBe(true);
    expect(rec.reason).toContain('needed facts: 96 % held, 4 % lost');
    expect(rec.reason).toContain('at most 5 % of the needed facts lost beyond recovery');
    expect(rec.candidates.find((c) => c.strategy === 'tri-modal')?.reason).toBe('loses 40 % of the needed facts beyond recovery (floor: 5 %)');
  });

  it('always answers when something completes: the one losing the fewest needed facts, meetsFloor false, and the cheaper trade', () => {
    const rows = [
      decision(row('full', 0, overflow)),
      decision(row('openhands-condenser', 0.06, { cost_usd: 2.87 })),
      decision(row('gatekeeper', 0.2, { cost_usd: 2.0 })),
      decision(row('observation-masking', 0.3, { cost_usd: 7.52 })),
    ];
    const rec = recommend(rows);
    expect(rec.strategy).toBe('openhands-condenser');
    expect(rec.meetsFloor).toBe(false);
    expect(rec.runnerUp?.strategy).toBe('gatekeeper');
    expect(rec.reason).toMatch(
      /^nothing meets the floor \(at most 5 % of the needed facts lost beyond recovery\) at a 100k window: openhands-condenser keeps 94 % of the needed facts \(held or recoverable\) for \$2\.87; gatekeeper is 30 % cheaper at 80 %/,
    );
  });

  it('names no strategy only when nothing completes', () => {
    // Where every strategy crashed on a log the crash is excused (a quota nothing survives): still an answer.
    expect(recommend([decision(row('full', 0, overflow)), decision(row('recorded', 0, overflow))]).strategy).toBe('recorded');
    const rec = recommend([decision(row('full', 0, overflow))]);
    expect(rec.strategy).toBeNull();
    expect(rec.meetsFloor).toBe(false);
    expect(rec.reason).toMatch(/^nothing completes/);
  });

  it('never names a completing strategy another completing one beats on both cost and needed facts kept', () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let trial = 0; trial < 200; trial++) {
      const count = 2 + Math.floor(next() * 6);
      const rows = [decision(row('full', 0, next() < 0.5 ? overflow : {}))];
      for (let i = 0; i < count; i++) {
        const crashed = next() < 0.2;
        rows.push(decision(row(`s${i}`, Math.round(next() * 40) / 100, { cost_usd: Math.round(next() * 500) / 100 + 0.01, ...(crashed ? overflow : {}) })));
      }
      const floor = { kind: 'needed' as const, maxLost: next() * 0.2 };
      const rec = recommend(rows, { ...DEFAULT_DECISION, constraints: { maxCrashes: 0, minRecall: floor } });
      const completing = rec.candidates.filter((c) => c.verdict !== 'crashes');
      if (completing.length === 0) continue;
      const picked = rec.candidates.find((c) => c.verdict === 'recommended');
      expect(picked, `trial ${trial}`).toBeDefined();
      const dominating = completing.filter(
        (c) => c !== picked && (c.costUsd ?? Infinity) < (picked?.costUsd ?? 0) && (c.neededLost ?? 1) < (picked?.neededLost ?? 0),
      );
      expect(
        dominating.map((c) => c.strategy),
        `trial ${trial}: ${rec.reason}`,
      ).toEqual([]);
    }
  });

  it('falls back to answer recall where needed facts were not measured, and says so', () => {
    const plain = (strategy: string, figures: Partial<SummaryRow>): DecisionRow => ({
      label: strategy,
      strategy,
      settings: {},
      summary: summaryRow('s', strategy, { answer_recall: 0.85, probes: 20, unanswered: 0, cost_usd: 1, cost_vs_full: 0, ...figures }),
    });
    const rec = recommend([
      plain('full', {}),
      plain('tri-modal', { cost_usd: 0.3, answer_recall: 0.1 }),
      plain('rolling-window', { cost_usd: 0.7, answer_recall: 0.84 }),
    ]);
    expect(rec.strategy).toBe('rolling-window');
    expect(rec.reason).toContain('needed facts not measured: the floor is answer recall within 5 points of the reference');
  });
});

describe('settings in words', () => {
  it('names a pipeline by its stages, never as [object Object] or its whole JSON', async () => {
    const { describeChoice } = await import('../../src/metrics/recommend-words.js');
    const stages = [
      { strategy: 'observation-masking', options: { keepLast: 5 } },
      { strategy: 'tiered-truncation', options: {} },
    ];
    expect(describeChoice({ strategy: 'pipeline', settings: { stages } })).toBe('pipeline stages=observation-masking→tiered-truncation');
  });
});
