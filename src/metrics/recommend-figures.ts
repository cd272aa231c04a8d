import type { SummaryRow } from './types.js';
import type { Objective } from './recommendation.js';

/** One candidate's result on one scenario: its summary row (and, over several logs, each log's). */
export interface DecisionRow {
  /** The unit's label: what identifies the candidate across scenarios (`full` is the reference). */
  label: string;
  strategy: string;
  settings: Record<string, unknown>;
  summary: SummaryRow;
  /** The per-log rows of a scenario of several logs, in replay order (the same for every label). */
  logs?: readonly SummaryRow[];
  /** Each log's name (its file's), in the order of `logs`: crash steps are said per log. */
  logNames?: readonly string[];
  /**
   * Set when every trigger the strategy declares (`thresholds`) is at or above the window: it
   * cannot act before the context overflows ("its trigger at 100k tokens is not below the 100k window").
   */
  neverActs?: string;
  /** The scenario's context window, for the words of a decision nothing meets ("at a 100k window"). */
  window?: number;
}

/** The label of the reference every relative constraint is measured against. */
export const REFERENCE = 'full';

/** A candidate's figures on one scenario. */
export interface Figures {
  scenario: string;
  row: DecisionRow;
  crashes: number;
  /** Crashes (units or logs) where some candidate completed; for `full` itself, its own. */
  excess: number;
  units: number;
  /** Of `excess`, the units (logs) `full` crashed on too. */
  excessWhereFullCrashed: number;
  recall: number | null;
  /** Share of the needed facts lost beyond recovery; null when the scenario has none measured. */
  neededLost: number | null;
  neededRecall: number | null;
  /**
   * The objective's change against `full` over the whole session ((+0.12 = 12 % dearer), only
   * where `full` completed every log of the scenario: a `full` that stopped early has a partial
   * cost no whole session can be compared with. Null otherwise.
   */
  change: number | null;
}

/** Whether `full` ran this scenario to the end, on every log. */
export function fullCompleted(full: DecisionRow | undefined): boolean {
  if (full === undefined) return false;
  return full.logs !== undefined && full.logs.length > 0 ? full.logs.every((log) => !log.crashed) : !full.summary.crashed;
}

export function figuresOf(row: DecisionRow, all: readonly DecisionRow[], objective: Objective): Figures {
  const full = all.find((other) => other.label === REFERENCE && other.summary.scenario === row.summary.scenario);
  const isFull = row.label === REFERENCE;
  const logs = row.logs ?? [];
  const crashes = logs.length > 0 ? logs.filter((log) => log.crashed).length : row.summary.crashed ? 1 : 0;
  // A crash counts where some candidate of the scenario completed that log: there, shipping one
  // that stops is a choice. Where every candidate crashed (a quota nothing survives), it is
  // excused, but still counted for the pick. `full` is held to its own crashes.
  const rivals = all.filter((other) => other.summary.scenario === row.summary.scenario);
  const counted = (crashed: (other: DecisionRow) => boolean): boolean => !isFull && !rivals.every(crashed);
  const excessUnits: boolean[] = isFull
    ? logs.length > 0
      ? logs.map((log) => log.crashed)
      : [row.summary.crashed]
    : logs.length > 0
      ? logs.map((log, i) => log.crashed && counted((other) => other.logs?.[i]?.crashed === true))
      : [row.summary.crashed && counted((other) => other.summary.crashed)];
  const fullCrashed = (i: number): boolean => (logs.length > 0 ? full?.logs?.[i]?.crashed === true : full?.summary.crashed === true);
  const needed = neededFigures(row.summary);
  return {
    scenario: row.summary.scenario,
    row,
    crashes,
    excess: excessUnits.filter(Boolean).length,
    units: Math.max(1, logs.length),
    excessWhereFullCrashed: isFull ? 0 : excessUnits.filter((crashed, i) => crashed && fullCrashed(i)).length,
    recall: row.summary.answer_recall,
    ...needed,
    change: isFull ? 0 : full === undefined || !fullCompleted(full) ? null : wholeSessionChange(row.summary, full.summary, objective),
  };
}

/** The needed-fact shares of a row; null when it measured none (no needed facts, or an older row). */
function neededFigures(summary: SummaryRow): { neededLost: number | null; neededRecall: number | null } {
  // `?? null`: a result.json written before needed facts existed has no such columns.
  if ((summary.needed_facts ?? 0) === 0) return { neededLost: null, neededRecall: null };
  return { neededLost: summary.needed_lost ?? null, neededRecall: summary.needed_recall ?? null };
}

/**
 * The objective's change against a `full` that completed, over the whole session: USD (or tokens)
 * of the candidate / full's − 1; the peak as it is.
 */
function wholeSessionChange(row: SummaryRow, full: SummaryRow, objective: Objective): number | null {
  if (objective === 'cost') return row.cost_usd === null || full.cost_usd === null || full.cost_usd === 0 ? null : row.cost_usd / full.cost_usd - 1;
  if (objective === 'tokens') return full.total_tokens === 0 ? null : row.total_tokens / full.total_tokens - 1;
  return full.peak_context_tokens === 0 ? null : row.peak_context_tokens / full.peak_context_tokens - 1;
}

/** The answer-recall reference of a scenario: `full`'s where it completed, else the best that completes. */
export interface AnswerReference {
  recall: number;
  /** `null`: `full`; else the label of the best strategy that completes (full crashed or did not run). */
  by: string | null;
  /** Why `full` is not the reference: it crashed, or it did not run. */
  fullMissing?: 'crashed' | 'absent';
}

/**
 * Each scenario's answer-recall reference. Where `full` completed, its recall. Where it crashed
 * (or did not run), the highest recall among the candidates that complete there, named: a
 * session that overflows is exactly the one that needs a strategy, and a reference must exist.
 */
export function answerReferences(figures: readonly Figures[], completes: (f: Figures) => boolean): Map<string, AnswerReference> {
  const out = new Map<string, AnswerReference>();
  for (const scenario of new Set(figures.map((f) => f.scenario))) {
    const here = figures.filter((f) => f.scenario === scenario);
    const full = here.find((f) => f.row.label === REFERENCE);
    if (full !== undefined && full.crashes === 0 && full.recall !== null) {
      out.set(scenario, { recall: full.recall, by: null });
      continue;
    }
    const best = here
      .filter((f) => f.row.label !== REFERENCE && f.recall !== null && completes(f))
      .reduce<Figures | undefined>((b, f) => (b === undefined || (f.recall as number) > (b.recall as number) ? f : b), undefined);
    if (best !== undefined) out.set(scenario, { recall: best.recall as number, by: best.row.label, fullMissing: full === undefined ? 'absent' : 'crashed' });
  }
  return out;
}
