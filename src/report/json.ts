import type { RunResult } from '../metrics/types.js';
import type { ReportFile, Reporter } from './types.js';

/** Fractional numbers keep this many decimals, so float noise never changes the bytes. */
const DECIMALS = 6;

/**
 * `result.json`: the versioned result, keys in the order they were built, 2-space indent and a
 * trailing newline, so that two runs with the same seed give byte-identical files.
 */
export function renderJson(result: RunResult): ReportFile[] {
  return [{ file: 'result.json', contents: `${JSON.stringify(result, roundFractions, 2)}\n` }];
}

function roundFractions(_key: string, value: unknown): unknown {
  if (typeof value !== 'number' || Number.isInteger(value) || !Number.isFinite(value)) return value;
  const rounded = Number(value.toFixed(DECIMALS));
  // toFixed can leave -0 for tiny negatives; JSON would print it as 0 anyway, keep it explicit.
  return Object.is(rounded, -0) ? 0 : rounded;
}

export const json = { name: 'json', render: renderJson } satisfies Reporter;
