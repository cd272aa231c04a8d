import { describe, expect, it } from 'vitest';
import { DEFAULT_DECISION, recommend, type DecisionRow } from '../../src/metrics/recommend.js';
import { describeChoice } from '../../src/metrics/recommend-words.js';
import type { SummaryRow } from '../../src/metrics/types.js';
import { summaryRow } from '../helpers/records.js';

/** A row of a run that measured recall (85 % over 20 probes) and cost ($1), as the decision reads it. */
function row(strategy: string, figures: Partial<SummaryRow> = {}, scenario = 's'): SummaryRow {
  return summaryRow(scenario, strategy, { saving_vs_full: 0, answer_recall: 0.85, probes: 20, unanswered: 0, cost_usd: 1, cost_vs_full: 0, ...figures });
}

function decision(summary: SummaryRow, settings: Record<string, unknown> = {}): DecisionRow {
  return { label: summary.strategy, strategy: summary.strategy, settings, summary };
}

/** The run the issue describes: tri-modal saves the most tokens but loses recall; one strategy crashes. */
const RUN = [
  decision(row('full')),
  decision(row('tri-modal', { total_tokens: 400, saving_vs_full: 0.6, cost_usd: 0.3, cost_vs_full: -0.7, answer_recall: 0.1 })),
  decision(row('rolling-window', { total_tokens: 600, saving_vs_full: 0.4, cost_usd: 0.7, cost_vs_full: -0.3, answer_recall: 0.82 })),
  decision(row('observation-masking', { total_tokens: 700, saving_vs_full: 0.3, cost_usd: 0.6, cost_vs_full: -0.4, answer_recall: 0.85 })),
  decision(row('sigma', { crashed: true, crash_kind: 'overflow', crash_step: 4, cost_usd: 0.1, cost_vs_full: -0.2 })),
  decision(row('anchored-summary', { total_tokens: 900, saving_vs_full: 0.1, cost_usd: 3.4, cost_vs_full: 2.4 })),
];

describe('recommend', () => {
  it('ships the cheapest in dollars that keeps recall within 5 points of full and does not crash', () => {
    const rec = recommend(RUN);
    expect(rec.strategy).toBe('observation-masking');
    expect(rec.runnerUp?.strategy).toBe('rolling-window');
    expect(rec.objective).toBe('cost');
    const verdicts = Object.fromEntries(rec.candidates.map((c) => [c.strategy, c.verdict]));
    expect(verdicts).toEqual({
      full: 'acceptable',
      'tri-modal': 'unsafe-recall',
      'rolling-window': 'acceptable',
      'observation-masking': 'recommended',
      sigma: 'crashes',
      'anchored-summary': 'dearer-than-full',
    });
    const reasons = Object.fromEntries(rec.candidates.map((c) => [c.strategy, c.reason]));
    expect(reasons['tri-modal']).toBe("recall 10 % vs full's 85 %");
    expect(reasons.sigma).toBe('crashes where full does not: overflow at step 4 of 10');
    expect(reasons['anchored-summary']).toBe('240 % dearer than full');
    expect(rec.reason).toMatch(/^\$0\.6000, 40 % cheaper than full, recall 85 % vs full's 85 %/);
  });

  it('ranks every candidate by the objective, the cheapest first', () => {
    const rec = recommend(RUN);
    expect(rec.candidates.map((c) => [c.strategy, c.rank])).toEqual([
      ['sigma', 1],
      ['tri-modal', 2],
      ['observation-masking', 3],
      ['rolling-window', 4],
      ['full', 5],
      ['anchored-summary', 6],
    ]);
    expect(recommend(RUN, { ...DEFAULT_DECISION, objective: 'tokens' }).strategy).toBe('rolling-window');
  });

  it('takes an absolute recall floor and a crash allowance', () => {
    const rec = recommend(RUN, { ...DEFAULT_DECISION, constraints: { minRecall: { kind: 'absolute', value: 0.05 }, maxCrashes: 1 } });
    // Allowed, a crash still ranks after every strategy that does not crash.
    expect(rec.strategy).toBe('tri-modal');
    expect(rec.candidates.find((c) => c.strategy === 'sigma')?.verdict).toBe('acceptable');
    expect(recommend(RUN, { ...DEFAULT_DECISION, constraints: { minRecall: { kind: 'absolute', value: 0.84 }, maxCrashes: 0 } }).strategy).toBe(
      'observation-masking',
    );
  });

  it('says when recall was not measured rather than pretending', () => {
    const rec = recommend(RUN.map((r) => ({ ...r, summary: { ...r.summary, answer_recall: null, probes: null } })));
    expect(rec.strategy).toBe('tri-modal');
    expect(rec.reason).toContain('answer recall not measured (no probes)');
  });

  it('counts a crash full shares where another strategy completes, and never ships full when full itself crashes', () => {
    const crash = { crashed: true, crash_kind: 'overflow' as const, crash_step: 6 };
    const rows = [
      decision(row('full', { ...crash, cost_usd: 0.5 })),
      decision(row('rolling-window', { cost_usd: 0.9, cost_vs_full: -0.2, answer_recall: 0.83 })),
      decision(row('tri-modal', { ...crash, cost_usd: 0.4, cost_vs_full: -0.1, answer_recall: 0.84 })),
    ];
    const rec = recommend(rows);
    expect(rec.strategy).toBe('rolling-window');
    expect(rec.runnerUp).toBeNull();
    expect(rec.candidates.find((c) => c.strategy === 'full')?.verdict).toBe('crashes');
    expect(rec.candidates.find((c) => c.strategy === 'tri-modal')?.reason).toBe('crashes where others complete: overflow at step 6 of 10');
  });

  it('takes the best strategy that completes as the answer-recall reference where full crashed, and names it', () => {
    const crash = { crashed: true, crash_kind: 'overflow' as const, crash_step: 6 };
    const rows = [
      decision(row('full', { ...crash, cost_usd: 0.5 })),
      decision(row('recorded', { ...crash, cost_usd: 0.5, cost_vs_full: 0 })),
      decision(row('rolling-window', { cost_usd: 0.9, cost_vs_full: -0.2, answer_recall: 0.6 })),
      decision(row('tiered-truncation', { cost_usd: 0.95, cost_vs_full: -0.1, answer_recall: 0.7 })),
    ];
    const rec = recommend(rows, { ...DEFAULT_DECISION, constraints: { ...DEFAULT_DECISION.constraints, minRecall: { kind: 'relative', points: 0.05 } } });
    expect(rec.strategy).toBe('tiered-truncation');
    expect(rec.meetsFloor).toBe(true);
    expect(rec.candidates.find((c) => c.strategy === 'rolling-window')?.reason).toBe(
      'recall 60 % vs 70 % of tiered-truncation, the best that completes (full crashed)',
    );
    // Its cost is ranked among those that complete, never against full's partial cost.
    expect(rec.reason).toContain('cost ranked among the strategies that complete (full does not)');
    // Without probes nothing is measured, crash or not.
    const unprobed = rows.map((r) => ({ ...r, summary: { ...r.summary, answer_recall: null, probes: null, unanswered: null } }));
    expect(recommend(unprobed).reason).toContain('answer recall not measured');
  });

  it('compares costs over the whole session where full completed, never over the steps a crashed full survived', () => {
    // The held-out log: full survives 19 of 90 steps for $2.42; two strategies complete.
    const rows = [
      decision(row('full', { crashed: true, crash_kind: 'overflow', crash_step: 19, steps: 90, cost_usd: 2.42 })),
      decision(row('reactive-compress', { steps: 90, cost_usd: 10.26, cost_vs_full: 0, answer_recall: 0.85 })),
      decision(row('codex-rebuild', { steps: 90, cost_usd: 9.59, cost_vs_full: 0.13, answer_recall: 0.85 })),
    ];
    const rec = recommend(rows, { ...DEFAULT_DECISION, constraints: { maxCrashes: 0, minRecall: { kind: 'absolute', value: 0.2 } } });
    expect(rec.strategy).toBe('codex-rebuild');
    expect(rec.runnerUp?.strategy).toBe('reactive-compress');
    expect(rec.candidates.every((c) => c.verdict !== 'dearer-than-full')).toBe(true);
  });

  it('excuses a crash where every strategy crashed, and still ranks fewer crashes first', () => {
    const crash = { crashed: true, crash_kind: 'quota' as const, crash_step: 8 };
    const rows = [
      decision(row('full', { ...crash, cost_usd: 0.5 })),
      decision(row('rolling-window', { ...crash, cost_usd: 0.45, cost_vs_full: -0.1, answer_recall: 0.84 })),
      decision(row('tri-modal', { ...crash, cost_usd: 0.3, cost_vs_full: -0.4, answer_recall: 0.5 })),
    ];
    const rec = recommend(rows);
    expect(rec.strategy).toBe('rolling-window');
    expect(rec.reason).toContain('crashes only where every strategy does (1)');
    expect(rec.candidates.find((c) => c.strategy === 'tri-modal')?.verdict).toBe('unsafe-recall');
  });

  it('keeps full when nothing cheaper passes', () => {
    const rec = recommend(RUN.filter((r) => ['full', 'tri-modal', 'anchored-summary'].includes(r.label)));
    expect(rec.strategy).toBe('full');
    expect(rec.reason).toContain('nothing else passes');
  });

  it('ranks by tokens and says so when the model has no price', () => {
    const rec = recommend(RUN.map((r) => ({ ...r, summary: { ...r.summary, cost_usd: null, cost_vs_full: null } })));
    expect(rec.objective).toBe('tokens');
    expect(rec.strategy).toBe('rolling-window');
    expect(rec.reason).toContain('the model has no price');
  });

  it('aggregates scenarios by the worst case, or the mean, and keeps each scenario verdict', () => {
    const other = (strategy: string, figures: Partial<SummaryRow>): DecisionRow => decision(row(strategy, figures, 't'));
    const rows = [
      decision(row('full')),
      decision(row('rolling-window', { cost_usd: 0.5, cost_vs_full: -0.5, answer_recall: 0.84 })),
      other('full', {}),
      other('rolling-window', { cost_usd: 0.5, cost_vs_full: -0.5, answer_recall: 0.76 }),
    ];
    const worst = recommend(rows);
    const candidate = worst.candidates.find((c) => c.strategy === 'rolling-window');
    expect(candidate?.verdict).toBe('unsafe-recall');
    expect(candidate?.reason).toBe("recall 76 % vs full's 85 % on t");
    expect(candidate?.perScenario?.map((p) => [p.scenario, p.verdict])).toEqual([
      ['s', 'recommended'],
      ['t', 'unsafe-recall'],
    ]);
    expect(worst.strategy).toBe('full');
    const mean = recommend(rows, { ...DEFAULT_DECISION, aggregate: 'mean' });
    expect(mean.strategy).toBe('rolling-window');
    expect(mean.aggregate).toBe('mean');
  });

  it('counts crashes per log of a scenario of several logs, excused only on a log every strategy crashed on', () => {
    const logsOf = (crashed: boolean[]): SummaryRow[] => crashed.map((c) => row('x', { crashed: c }));
    const rows: DecisionRow[] = [
      { ...decision(row('full', { crashed: true, logs: 3, crashed_logs: 1 })), logs: logsOf([true, false, false]) },
      {
        ...decision(row('rolling-window', { crashed: true, logs: 3, crashed_logs: 1, cost_usd: 0.5, cost_vs_full: -0.5 })),
        logs: logsOf([true, false, false]),
      },
      { ...decision(row('tri-modal', { crashed: true, logs: 3, crashed_logs: 3, cost_usd: 0.2, cost_vs_full: -0.8 })), logs: logsOf([true, true, true]) },
    ];
    const rec = recommend(rows);
    expect(rec.strategy).toBe('rolling-window');
    const survivor = rows.map((r) => (r.label === 'tri-modal' ? { ...r, logs: logsOf([false, true, true]) } : r));
    expect(recommend(survivor).candidates.find((c) => c.strategy === 'rolling-window')?.reason).toBe('crashes where others complete: crashed on 1 of 3 logs');
    expect(rec.candidates.find((c) => c.strategy === 'tri-modal')?.reason).toBe('crashes where full does not: crashed on 2 of 3 logs');
  });

  it('names settings of sweep points', () => {
    const rows = [decision(row('full')), decision(row('codex-rebuild', { cost_usd: 0.5, cost_vs_full: -0.5 }), { trigger: 0.5 })];
    const rec = recommend(rows);
    expect(rec.settings).toEqual({ trigger: 0.5 });
    expect(describeChoice(rec.candidates.find((c) => c.verdict === 'recommended') ?? rec.candidates[0]!)).toBe('codex-rebuild trigger=0.5');
  });
});
