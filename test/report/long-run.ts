import type { RunEvent, StepRecord } from '../../src/metrics/run-events.js';
import { applySavingVsFull, summarizeUnit } from '../../src/metrics/summarize.js';
import { RESULT_SCHEMA_VERSION, type RunResult, type UnitResult } from '../../src/metrics/types.js';
import { strategyNames } from '../../src/strategies/index.js';
import { stepRecord } from '../helpers/records.js';

function step(n: number, context: number): StepRecord {
  return stepRecord(n, context, { messageId: `a${n}`, atMs: n * 5000, completionTokens: 150, contextMessages: 2 + 2 * n });
}

/** A run of `count` steps through every registered strategy: full grows, the others compact every 50 + i steps. */
export function longRun(count: number, scenarios: readonly string[] = ['long']): RunResult {
  const units: UnitResult[] = scenarios.flatMap((scenario) =>
    strategyNames().map((strategy, i) => {
      const period = 50 + i;
      const steps = Array.from({ length: count }, (_, n) => step(n, strategy === 'full' ? 2000 + 40 * n : 2000 + 40 * (n % period)));
      const events: RunEvent[] =
        strategy === 'full'
          ? []
          : steps
              .filter((s) => s.step > 0 && s.step % period === 0)
              .map((s) => ({
                type: 'action',
                step: s.step,
                atMs: s.atMs,
                action: 'compact',
                reason: 'over the trigger',
                mode: 'standard',
                tokensBefore: 2000 + 40 * period,
                tokensAfter: 2000,
              }));
      const summary = summarizeUnit({
        scenario,
        strategy,
        totalSteps: count,
        steps,
        events,
        probes: { retention: 0.5, answerRecall: 0.5 + i / 50, count: 6, unanswered: 0 },
      });
      return { scenario, strategy, options: {}, summary, steps, events };
    }),
  );
  const info = (name: string) => ({
    name,
    file: `${name}.yaml`,
    transcript: `${name}.ctx.jsonl`,
    provider: 'gemini',
    model: 'gemini-2.5-flash',
    window: 1_048_576,
    steps: count,
    seed: 42,
    skippedLines: 0,
  });
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    tool: { name: 'ctxbench', version: '0.1.0' },
    seed: 42,
    mode: 'mock',
    scenarios: scenarios.map(info),
    units: applySavingVsFull(units),
  } as RunResult;
}
