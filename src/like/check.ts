import type { RunResult } from '../metrics/types.js';
import { runSuite } from '../run/run-suite.js';
import { spearman } from './spearman.js';

/**
 * `generate --like A --check B` (docs/scenarios.md, "Does it rank as real logs do?"): the
 * strategies run on the real logs A the fit saw, on the real logs B it did not see, and on the
 * sessions generated like A; their rankings by saving and by needed recall are compared with
 * Spearman's rank correlation. Generated-like-A against B should come as close to 1 as real A
 * against B does.
 */

/** Ten strategies of different kinds: windows, cuts by age, maskings, summaries, production policies. */
const CHECK_STRATEGIES = [
  'rolling-window',
  'tiered-truncation',
  'state-anchor',
  'codex-rebuild',
  'observation-masking',
  'llm-summary-every-n',
  'clear-tool-results',
  'claude-code-autocompact',
  'gemini-cli-compress',
  'surgical-eviction',
] as const;

const CHECK_WINDOW = 32_000;

export interface CheckOptions {
  /** Folders of logs: the real logs the fit saw, real logs it did not see, and the generated sessions. */
  readonly realA: string;
  readonly realB: string;
  readonly generated: string;
  readonly window?: number;
  readonly strategies?: readonly string[];
  readonly seed?: number;
  readonly workers?: number;
}

/** One strategy's figures on the three sets. */
interface CheckRow {
  readonly strategy: string;
  readonly saving: { readonly realA: number | null; readonly realB: number | null; readonly generated: number | null };
  readonly neededRecall: { readonly realA: number | null; readonly realB: number | null; readonly generated: number | null };
}

export interface CheckResult {
  readonly window: number;
  readonly rows: readonly CheckRow[];
  /** Spearman over the strategies measured on both sets; null when fewer than 3 are. */
  readonly saving: { readonly realAvsB: number | null; readonly generatedVsB: number | null };
  readonly neededRecall: { readonly realAvsB: number | null; readonly generatedVsB: number | null };
}

/** Runs `full` and the strategies over the three folders (mocked providers, one run) and compares the rankings. */
export async function checkLike(options: CheckOptions): Promise<CheckResult> {
  const window = options.window ?? CHECK_WINDOW;
  const strategies = [...(options.strategies ?? CHECK_STRATEGIES)];
  const result = await runSuite({
    scenarios: [options.realA, options.realB, options.generated],
    overrides: { window, strategies: ['full', ...strategies], seed: options.seed ?? 42, tpm: null, rpm: null, lenient: true },
    workers: options.workers ?? 1,
    summaryOnlyCorpus: true,
  });
  const [a, b, g] = result.scenarios.map((s) => s.name);
  const rows = strategies.map((strategy): CheckRow => {
    const figure = (scenario: string | undefined, pick: (r: RunResult['units'][number]['summary']) => number | null): number | null => {
      const unit = result.units.find((u) => u.scenario === scenario && u.strategy === strategy);
      return unit === undefined ? null : pick(unit.summary);
    };
    const saving = (s: string | undefined): number | null => figure(s, (r) => r.saving_vs_full);
    const needed = (s: string | undefined): number | null => figure(s, (r) => r.needed_recall);
    return {
      strategy,
      saving: { realA: saving(a), realB: saving(b), generated: saving(g) },
      neededRecall: { realA: needed(a), realB: needed(b), generated: needed(g) },
    };
  });
  return { window, rows, saving: rankAgreement(rows, (r) => r.saving), neededRecall: rankAgreement(rows, (r) => r.neededRecall) };
}

/** Spearman of real A and of the generated sessions against real B, on one figure of each row. */
function rankAgreement(rows: readonly CheckRow[], figure: (r: CheckRow) => CheckRow['saving']): { realAvsB: number | null; generatedVsB: number | null } {
  return { realAvsB: againstB(rows, figure, 'realA'), generatedVsB: againstB(rows, figure, 'generated') };
}

/** Spearman of one set's figure against real B's, over the strategies measured on both. */
function againstB(rows: readonly CheckRow[], figure: (r: CheckRow) => CheckRow['saving'], set: 'realA' | 'generated'): number | null {
  const pairs = rows.flatMap((r) => {
    const { [set]: a, realB: b } = figure(r);
    return a === null || b === null ? [] : [[a, b] as const];
  });
  return spearman(
    pairs.map((p) => p[0]),
    pairs.map((p) => p[1]),
  );
}
