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

/**
 * The result as `result.json` stores it: fractions rounded to the stored decimals. Every report
 * renders from this form, so a report rendered from a result read back from its file (`merge`,
 * `report`) has the same bytes as the run's own; rounding a raw mean to the CSV's 4 decimals and
 * a stored one gave 48522.0099 against 48522.01 (rounded twice).
 */
export function storedForm(result: RunResult): RunResult {
  return JSON.parse(JSON.stringify(result, roundFractions)) as RunResult;
}

function roundFractions(_key: string, value: unknown): unknown {
  if (typeof value !== 'number' || Number.isInteger(value) || !Number.isFinite(value)) return value;
  const rounded = Number(value.toFixed(DECIMALS));
  // toFixed can leave -0 for tiny negatives; JSON would print it as 0 anyway, keep it explicit.
  return Object.is(rounded, -0) ? 0 : rounded;
}

export const json = { name: 'json', render: renderJson } satisfies Reporter;
