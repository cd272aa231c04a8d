import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { parseInput, readDocument } from '../validate.js';
import type { CheckRules } from './types.js';

/** The rules a check uses when neither a config file nor a flag says otherwise. */
export const DEFAULT_CHECK_RULES: CheckRules = {
  maxTokenIncrease: 5,
  maxCostIncrease: 5,
  maxRecallDrop: 2,
  maxRetentionDrop: 2,
  allowNewCrash: false,
  allowMissing: false,
  decision: 'auto',
  confidence: 0.95,
  resamples: 2000,
  seed: 1,
  overrides: [],
};

const thresholds = {
  maxTokenIncrease: z.number().min(0).optional().describe('total tokens may rise by at most this many percent'),
  maxCostIncrease: z.number().min(0).optional().describe('cost in USD, net of prompt cache, may rise by at most this many percent'),
  maxRecallDrop: z.number().min(0).max(100).optional().describe('answer recall may fall by at most this many points'),
  maxRetentionDrop: z.number().min(0).max(100).optional().describe('retention may fall by at most this many points'),
  allowNewCrash: z.boolean().optional().describe('a unit may crash that did not in the baseline'),
};

/** A check config file (`check.yaml`): every field optional, defaults in DEFAULT_CHECK_RULES. */
const checkConfigSchema = z.strictObject({
  ...thresholds,
  allowMissing: z.boolean().optional().describe('a baseline unit may be missing from the run'),
  decision: z
    .enum(['auto', 'estimate', 'interval'])
    .optional()
    .describe('judge on the point estimate, the interval bound, or auto (estimate when both runs are mocked)'),
  confidence: z.number().gt(0).lt(1).optional().describe('confidence level of the bootstrap interval'),
  resamples: z.number().int().min(100).max(100_000).optional().describe('bootstrap resamples per measure'),
  seed: z.number().int().min(0).optional().describe('seed of the resampler'),
  overrides: z
    .array(z.strictObject({ scenario: z.string().min(1).optional(), strategy: z.string().min(1).optional(), ...thresholds }))
    .optional()
    .describe('thresholds for some scenarios or strategies; later entries win'),
});

export type CheckConfig = z.infer<typeof checkConfigSchema>;

/** Reads and validates a check config file; errors name the file, line and field (exit 2). */
export async function loadCheckConfig(file: string): Promise<CheckConfig> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError({ file }, `cannot read check config: ${error.code ?? error.message}`);
  });
  return parseCheckConfig(text, file);
}

export function parseCheckConfig(text: string, file: string): CheckConfig {
  const doc = readDocument(text, file);
  return parseInput(checkConfigSchema, doc.data ?? {}, { file, lineOf: doc.lineOf });
}

/** The rules of a check: the defaults, then the config file, then the command line. */
export function resolveCheckRules(config: CheckConfig = {}, flags: Partial<CheckRules> = {}): CheckRules {
  const rules: CheckRules = { ...DEFAULT_CHECK_RULES };
  for (const layer of [config, flags]) {
    for (const [key, value] of Object.entries(layer)) if (value !== undefined) Object.assign(rules, { [key]: value });
  }
  return rules;
}
