import { isStoredSummaryOnly } from './measures.js';
import { z } from 'zod';
import { InputError } from '../errors.js';
import type { RunResult } from '../metrics/types.js';
import { parseInput } from '../validate.js';

/** The summary columns every result has, each a finite number. */
const SUMMARY_REQUIRED = ['steps', 'steps_completed', 'total_tokens'] as const;

/** The summary columns `check` reads or shows where a result has them: a finite number, or null where the column is empty. */
const SUMMARY_NUMBERS = ['prompt_tokens', 'completion_tokens', 'overhead_tokens', 'peak_context_tokens', 'retention', 'answer_recall', 'cost_usd'] as const;

/** The step fields the paired token and cost measures add up. */
const stepShape = z.looseObject({
  step: z.number(),
  status: z.enum(['ok', 'crashed']),
  promptTokens: z.number(),
  completionTokens: z.number(),
  overheadTokens: z.number(),
  costUsd: z.number().optional(),
});

/**
 * What `check` compares, validated strictly (zod numbers are finite: `1e999` and `"NaN"` are
 * refused): at least one unit, every unit's summary figures and step tokens numbers. A baseline
 * that fails this would compare as "no regression" (Infinity tokens read as −100 %, no units as
 * nothing to compare), so it cannot be compared at all.
 */
const comparableShape = z.looseObject({
  units: z
    .array(
      z.looseObject({
        summary: z.looseObject({
          ...Object.fromEntries(SUMMARY_REQUIRED.map((column) => [column, z.number()])),
          ...Object.fromEntries(SUMMARY_NUMBERS.map((column) => [column, z.number().nullable().optional()])),
        }),
        steps: z.array(stepShape),
      }),
    )
    .min(1, 'holds no units: there is nothing to compare'),
});

/**
 * Refuses (InputError, exit 2, naming the file and the field) a result `check` cannot compare:
 * no units, a figure that is not a finite number, or a unit that completed steps but lists none
 * (its token rule would be skipped without a word).
 */
export function assertComparable(result: RunResult, file: string): void {
  parseInput(comparableShape, result, { file, what: 'cannot be compared' });
  result.units.forEach((unit, i) => {
    // A corpus's unit stored summary-only (result schema 2) is compared by log (measures.ts).
    if (unit.steps.length > 0 || unit.summary.steps_completed === 0 || isStoredSummaryOnly(unit)) return;
    throw new InputError(
      { file, field: `units.${i}.steps` },
      `cannot be compared: ${unit.scenario} × ${unit.strategy} completed ${unit.summary.steps_completed} steps but lists none`,
    );
  });
}
