import { median } from '../stats.js';
import { SPECIFIC_KINDS, type SpecificKind } from '../simulator/specific-kinds.js';
import type { CompactionCalibration } from './calibrate.js';

/** The spread of one per-compaction ratio (simulated / real): lowest, median, highest. */
export interface Spread {
  min: number;
  median: number;
  max: number;
  /** Compactions where the ratio is defined (the real summary kept at least one). */
  of: number;
}

interface PooledKind {
  kind: SpecificKind;
  source: number;
  /** Kept over source, summed over the compactions. */
  real: number;
  simulated: number;
  /** simulated / real; null when the real summaries kept none. */
  ratio: number | null;
  spread: Spread | null;
}

export interface PooledCalibration {
  compactions: number;
  kinds: PooledKind[];
  /** Simulated tokens over real tokens, summed. */
  size: number;
  sizeSpread: Spread | null;
}

/** Pools calibrations: per kind, all the specifics kept over all the specifics there were; the size, summed; each with its spread across compactions. */
export function poolCalibrations(compactions: readonly CompactionCalibration[]): PooledCalibration {
  const kinds = SPECIFIC_KINDS.map((kind): PooledKind => {
    const rows = compactions.map((c) => c.kinds.find((k) => k.kind === kind)).filter((k) => k !== undefined);
    const source = rows.reduce((n, k) => n + k.source, 0);
    const realKept = rows.reduce((n, k) => n + k.realKept, 0);
    const simulatedKept = rows.reduce((n, k) => n + k.simulatedKept, 0);
    return {
      kind,
      source,
      real: source === 0 ? 0 : realKept / source,
      simulated: source === 0 ? 0 : simulatedKept / source,
      ratio: realKept === 0 ? null : simulatedKept / realKept,
      spread: spreadOf(rows.flatMap((k) => (k.realKept === 0 ? [] : [k.simulatedKept / k.realKept]))),
    };
  });
  const real = compactions.reduce((n, c) => n + c.summaryTokens, 0);
  const simulated = compactions.reduce((n, c) => n + c.simulatedTokens, 0);
  return {
    compactions: compactions.length,
    kinds,
    size: real === 0 ? 0 : simulated / real,
    sizeSpread: spreadOf(compactions.flatMap((c) => (c.summaryTokens === 0 ? [] : [c.simulatedTokens / c.summaryTokens]))),
  };
}

function spreadOf(ratios: readonly number[]): Spread | null {
  if (ratios.length === 0) return null;
  return { min: Math.min(...ratios), median: median(ratios), max: Math.max(...ratios), of: ratios.length };
}
