import type { Candidate, Recommendation, Verdict } from '../../src/metrics/recommendation.js';
import { summaryRow } from '../helpers/records.js';
import type { RunEvent } from '../../src/metrics/run-events.js';
import { applySavingVsFull, summarizeUnit } from '../../src/metrics/summarize.js';
import type { LogSummary, RunResult, SummaryRow, UnitResult } from '../../src/metrics/types.js';
import { strategyNames } from '../../src/strategies/index.js';
import { longRun } from './long-run.js';

/** USD per token in these fixtures: a cost proportional to tokens, enough to rank by. */
const USD_PER_TOKEN = 3e-7;

/**
 * A hand-made recommendation over a result's summary rows, as the recommender (issue 27) shapes
 * it: ranked by cost; `crashes` for a crashed strategy, `unsafe-recall` more than 5 points below
 * full, `dearer-than-full` costing more, the cheapest left `recommended`, the rest `acceptable`.
 */
function handMadeRecommendation(result: RunResult): Recommendation {
  const rows = result.units.map((unit) => unit.summary);
  const full = rows.find((row) => row.strategy === 'full');
  const cost = (row: SummaryRow) => row.cost_usd ?? row.total_tokens * USD_PER_TOKEN;
  const ranked = [...rows].sort((a, b) => cost(a) - cost(b));
  let recommended: SummaryRow | undefined;
  const candidates: Candidate[] = ranked.map((row, i) => {
    const crashes = row.crashed_logs ?? (row.crashed ? 1 : 0);
    const fullRecall = full?.answer_recall ?? 0;
    let verdict: Verdict = 'acceptable';
    let reason = `${Math.round((row.answer_recall ?? 0) * 100)} % recall, $${cost(row).toFixed(2)}`;
    if (crashes > 0) {
      verdict = 'crashes';
      reason = `crashed (${row.crash_kind ?? 'crash'} at step ${row.crash_step ?? '?'})`;
    } else if ((row.answer_recall ?? 0) < fullRecall - 0.05) {
      verdict = 'unsafe-recall';
      reason = `recall ${Math.round((row.answer_recall ?? 0) * 100)} % vs full's ${Math.round(fullRecall * 100)} %`;
    } else if (full !== undefined && row !== full && cost(row) > cost(full)) {
      verdict = 'dearer-than-full';
      reason = `$${cost(row).toFixed(2)} vs full's $${cost(full).toFixed(2)}`;
    } else if (recommended === undefined) {
      verdict = 'recommended';
      reason = 'cheapest that keeps recall within 5 points of full and does not crash';
      recommended = row;
    }
    return {
      strategy: row.strategy,
      settings: {},
      verdict,
      reason,
      rank: i + 1,
      costUsd: Number(cost(row).toFixed(6)),
      totalTokens: row.total_tokens,
      peakContextTokens: row.peak_context_tokens,
      answerRecall: row.answer_recall,
      crashes,
    };
  });
  const runnerUp = candidates.find((c) => c.verdict === 'acceptable');
  return {
    objective: 'cost',
    constraints: { minRecall: { kind: 'relative', points: 0.05 }, maxCrashes: 0 },
    aggregate: 'worst-case',
    strategy: recommended?.strategy ?? null,
    meetsFloor: recommended !== undefined,
    settings: {},
    reason: recommended === undefined ? 'every strategy crashes or loses recall' : 'the cheapest that keeps recall within 5 points of full and does not crash',
    runnerUp: runnerUp === undefined ? null : { strategy: runnerUp.strategy, settings: {} },
    candidates,
  };
}

/** The unit with every step priced in proportion to its tokens, its summary redone (cost columns filled). */
function priced(unit: UnitResult): UnitResult {
  const steps = unit.steps.map((s) => ({ ...s, costUsd: Number(((s.promptTokens + s.completionTokens) * USD_PER_TOKEN).toFixed(6)) }));
  const { summary } = unit;
  const probes = { retention: summary.retention, answerRecall: summary.answer_recall, count: summary.probes, unanswered: summary.unanswered };
  return {
    ...unit,
    steps,
    summary: summarizeUnit({ scenario: unit.scenario, strategy: unit.strategy, totalSteps: summary.steps, steps, events: unit.events, probes }),
  };
}

/** Ends a unit with a crash at `step`: later steps crashed, a crash event with its message, summary redone. */
function crashAt(unit: UnitResult, step: number, message: string): UnitResult {
  const steps = unit.steps.filter((s) => s.step <= step).map((s) => (s.step === step ? { ...s, status: 'crashed' as const } : s));
  const at = steps.at(-1)?.atMs ?? 0;
  const events: RunEvent[] = [...unit.events.filter((e) => e.step < step), { type: 'crash', step, atMs: at, kind: 'overflow', message }];
  const summary = summarizeUnit({
    scenario: unit.scenario,
    strategy: unit.strategy,
    totalSteps: unit.summary.steps,
    steps,
    events,
    probes: { retention: unit.summary.retention, answerRecall: unit.summary.answer_recall, count: unit.summary.probes, unanswered: 2 },
  });
  return { ...unit, steps, events, summary };
}

/**
 * Every registered strategy plus a second label of one (22), 40 steps, `tri-modal` crashed with
 * its reason in words, recall falling with the strategy's place, and a recommendation.
 */
export function wideDecisionRun(count = 120): RunResult {
  const base = longRun(count);
  const units = base.units
    .map(priced)
    .map((unit) =>
      unit.strategy === 'tri-modal'
        ? crashAt(unit, 93, 'the context of 1,210,400 tokens is over the 1,048,576-token window after the strategy prepared it')
        : unit,
    );
  const rolling = units.find((unit) => unit.strategy === 'rolling-window') as UnitResult;
  const extra = { ...rolling, strategy: 'rolling-window-short', summary: { ...rolling.summary, strategy: 'rolling-window-short', answer_recall: 0.41 } };
  const result: RunResult = { ...base, units: applySavingVsFull([...units, extra]) };
  return { ...result, recommendation: handMadeRecommendation(result) };
}

/** Three strategies of the same run: full, rolling-window and codex-rebuild. */
export function narrowDecisionRun(): RunResult {
  const base = longRun(120);
  const units = base.units.filter((unit) => ['full', 'rolling-window', 'codex-rebuild'].includes(unit.strategy)).map(priced);
  const result: RunResult = { ...base, units: applySavingVsFull(units) };
  return { ...result, recommendation: handMadeRecommendation(result) };
}

/** A deterministic stream of numbers in [0, 1). */
function stream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * A corpus of `logs` logs × every registered strategy as a run of ctxbench returns it past
 * `CORPUS_LOGS` (no per-probe curves): per-log summaries, the unit's row over them, and the crash
 * events of the logs that crashed (tri-modal on every 7th log). No per-step series is needed by
 * the report at this scale; the units carry none.
 */
export function corpusDecisionRun(logs = 500): RunResult {
  const names = strategyNames();
  const units: UnitResult[] = names.map((strategy, s) => {
    const next = stream(1000 + s);
    const events: RunEvent[] = [];
    let firstStep = 0;
    const perLog: LogSummary[] = Array.from({ length: logs }, (_, i) => {
      const steps = 20 + ((i * 7) % 40);
      const fullTokens = 40_000 * steps;
      const share = strategy === 'full' ? 1 : 0.35 + 0.5 * next() + s / 100;
      const crashed = strategy === 'tri-modal' && i % 7 === 3;
      if (crashed)
        events.push({ type: 'crash', step: firstStep + 12, atMs: 0, kind: 'overflow', message: `prepare() returned a context over the window at step 12` });
      const row = corpusRow(strategy, steps, Math.round(fullTokens * share), crashed, Math.max(0, Math.min(1, 0.85 - s / 60 + (next() - 0.5) / 4)));
      const log: LogSummary = {
        transcript: `corpus/log-${String(i).padStart(3, '0')}.traj.json`,
        id: `task-${String(i).padStart(3, '0')}`,
        firstStep,
        summary: row,
      };
      firstStep += steps;
      return log;
    });
    const sum = (pick: (row: SummaryRow) => number) => perLog.reduce((n, log) => n + pick(log.summary), 0);
    const crashedLogs = perLog.filter((log) => log.summary.crashed).length;
    const recalls = perLog.map((log) => log.summary.answer_recall ?? 0);
    const summary: SummaryRow = {
      ...corpusRow(
        strategy,
        sum((r) => r.steps),
        sum((r) => r.total_tokens),
        crashedLogs > 0,
        recalls.reduce((a, b) => a + b, 0) / recalls.length,
      ),
      steps_completed: sum((r) => r.steps_completed),
      peak_context_tokens: perLog.reduce((n, log) => Math.max(n, log.summary.peak_context_tokens), 0),
      logs,
      crashed_logs: crashedLogs,
    };
    return { scenario: 'swe-corpus', strategy, options: {}, summary, steps: [], events, logs: perLog };
  });
  const withSaving = units.map((unit) => {
    const full = units[0] as UnitResult;
    const saving = 1 - unit.summary.total_tokens / full.summary.total_tokens;
    const cost = (unit.summary.cost_usd ?? 0) / (full.summary.cost_usd ?? 1) - 1;
    return { ...unit, summary: { ...unit.summary, saving_vs_full: saving, cost_vs_full: cost } };
  });
  const result: RunResult = {
    schemaVersion: longRun(1).schemaVersion,
    tool: { name: 'ctxbench', version: '0.1.0' },
    seed: 42,
    mode: 'mock',
    scenarios: [
      {
        name: 'swe-corpus',
        file: 'corpus.yaml',
        transcript: 'corpus',
        provider: 'openai',
        model: 'gpt-4.1-mini',
        window: 1_047_576,
        steps: withSaving[0]?.summary.steps ?? 0,
        seed: 42,
        skippedLines: 0,
        logs,
      },
    ],
    units: withSaving,
  };
  return { ...result, recommendation: handMadeRecommendation(result) };
}

function corpusRow(strategy: string, steps: number, tokens: number, crashed: boolean, recall: number): SummaryRow {
  return summaryRow('swe-corpus', strategy, {
    steps,
    steps_completed: crashed ? 12 : steps,
    crashed,
    crash_kind: crashed ? 'overflow' : null,
    crash_step: crashed ? 12 : null,
    prompt_tokens: Math.round(tokens * 0.98),
    completion_tokens: tokens - Math.round(tokens * 0.98),
    total_tokens: tokens,
    peak_context_tokens: Math.round(tokens / Math.max(1, steps)) * 2,
    retention: recall,
    answer_recall: Number(recall.toFixed(4)),
    probes: 12,
    mean_context_tokens: Math.round(tokens / Math.max(1, steps)),
    cached_prefix_share: 0.9,
    unanswered: 0,
    cached_input_tokens: Math.round(tokens * 0.9),
    cost_usd: Number((tokens * USD_PER_TOKEN).toFixed(6)),
    invalid_asks: 0,
  });
}
