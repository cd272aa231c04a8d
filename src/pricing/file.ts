import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { describeSchemaError, readDocument } from '../validate.js';
import type { PriceOverride } from './resolve.js';

/**
 * A `--prices <file>` (issue 14): USD per million tokens overriding the price table for a whole
 * run, YAML or JSON. Either one price for every scenario's model, as the scenario field `prices`
 * takes it, or a `models` map from a model name (prefix; the longest that the model's name starts
 * with wins, as in the table) to its price. A model the map does not name keeps its scenario's
 * `prices` or the table's figures.
 */
const price = z.strictObject({
  input: z.number().min(0),
  cachedInput: z.number().min(0).optional(),
  cacheWrite: z.number().min(0).optional(),
  output: z.number().min(0),
});

const priceFileSchema = z.union([price, z.strictObject({ models: z.record(z.string().min(1), price) })]);

export type PriceFile = z.infer<typeof priceFileSchema>;

/** Reads and validates a price file; errors name the file, line and field (exit 2). */
export function loadPriceFile(file: string): PriceFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError({ file }, `cannot read price file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return parsePriceFile(text, file);
}

export function parsePriceFile(text: string, file: string): PriceFile {
  const doc = readDocument(text, file);
  const data = doc.data ?? {};
  // Judged against the shape it claims, so the error names the field that is wrong, not the union.
  const claimsModels = typeof data === 'object' && data !== null && 'models' in data;
  const schema = claimsModels ? priceFileSchema.options[1] : priceFileSchema.options[0];
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problem = describeSchemaError(parsed.error, 'invalid price file');
  const hint = problem.field === '' ? ' (expected {input, output, cachedInput?, cacheWrite?} or {models: {<model>: {...}}})' : '';
  throw new InputError({ file, line: doc.lineOf(problem.path), field: problem.field || undefined }, `${problem.message}${hint}`);
}

/** The override a price file gives `model`, if any. */
export function priceOverrideFor(prices: PriceFile, model: string): PriceOverride | undefined {
  if (!('models' in prices)) return prices;
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: string | undefined;
  for (const key of Object.keys(prices.models)) if (name.startsWith(key.toLowerCase()) && (best === undefined || key.length > best.length)) best = key;
  return best === undefined ? undefined : prices.models[best];
}

/**
 * The `models` keys of a price file that price none of `models` (a typo, or a model the run did
 * not use): keys no model's name starts with, and keys a longer key wins over for every model.
 * A single price for every model leaves none out.
 */
export function unmatchedPriceKeys(prices: PriceFile, models: readonly string[]): string[] {
  if (!('models' in prices)) return [];
  const used = new Set(models.map((model) => priceOverrideFor(prices, model)));
  return Object.entries(prices.models)
    .filter(([, override]) => !used.has(override))
    .map(([key]) => key);
}
