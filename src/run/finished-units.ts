import type { UnitResult } from '../metrics/types.js';
import { pairSummaries } from '../metrics/summarize.js';
import { pairedFiguresOf, type PairedFigures } from '../metrics/paired-figures.js';
import { summaryOnly } from '../metrics/summary-only.js';

/**
 * The finished units of a run by plan index, each as the run keeps it: whole, or (`summaryOnly`) a
 * corpus's units summary-only beside the figures their pairing with `full` reads (in columns,
 * metrics/paired-figures.ts).
 */
export class FinishedUnits {
  private readonly kept = new Map<number, UnitResult>();
  private readonly pairing = new Map<number, PairedFigures>();

  constructor(private readonly summaryOnly: boolean) {}

  get size(): number {
    return this.kept.size;
  }

  has(index: number): boolean {
    return this.kept.has(index);
  }

  set(index: number, result: UnitResult): void {
    const kept = this.summaryOnly ? summaryOnly(result) : result;
    this.kept.set(index, kept);
    if (kept !== result) this.pairing.set(index, pairedFiguresOf(result));
  }

  /** The finished units of `units`, in their order, with `saving_vs_full`, `cost_vs_full` and the intervals filled in. */
  results(units: readonly { index: number }[]): UnitResult[] {
    const indices = units.map((unit) => unit.index).filter((index) => this.kept.has(index));
    const kept = indices.map((index) => this.kept.get(index) as UnitResult);
    const summaries = pairSummaries(indices.map((index, i) => this.pairing.get(index) ?? pairedFiguresOf(kept[i] as UnitResult)));
    return kept.map((unit, i) => ({ ...unit, summary: summaries[i] as UnitResult['summary'] }));
  }
}
