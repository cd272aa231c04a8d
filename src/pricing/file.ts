import { readFileSync } from 'node:fs';
import { LineCounter, isNode, parseDocument } from 'yaml';
import { z } from 'zod';
import { InputError } from '../errors.js';
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
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax !== undefined) throw new InputError({ file, line: counter.linePos(syntax.pos[0]).line }, `not valid YAML/JSON: ${syntax.message.split('\n')[0]}`);
  const data: unknown = doc.toJS();
  // Judged against the shape it claims, so the error names the field that is wrong, not the union.
  const schema = typeof data === 'object' && data !== null && 'models' in data ? priceFileSchema.options[1] : priceFileSchema.options[0];
  const parsed = schema.safeParse(data ?? {});
  if (parsed.success) return parsed.data;
  // A misspelt key explains the missing one it was meant to be: name it first.
  const issue = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0];
  const path = (issue?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p)));
  const unknown = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const field = [...path, ...(unknown !== undefined ? [unknown] : [])];
  const hint = field.length === 0 ? ' (expected {input, output, cachedInput?, cacheWrite?} or {models: {<model>: {...}}})' : '';
  throw new InputError({ file, line: lineOf(doc, counter, field), field: field.join('.') || undefined }, `${issue?.message ?? 'invalid price file'}${hint}`);
}

/** The override a price file gives `model`, if any. */
export function priceOverrideFor(prices: PriceFile, model: string): PriceOverride | undefined {
  if (!('models' in prices)) return prices;
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: string | undefined;
  for (const key of Object.keys(prices.models)) if (name.startsWith(key.toLowerCase()) && (best === undefined || key.length > best.length)) best = key;
  return best === undefined ? undefined : prices.models[best];
}

/** The line of the deepest node of `path` that exists in the document. */
function lineOf(doc: ReturnType<typeof parseDocument>, counter: LineCounter, path: (string | number)[]): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node: unknown = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range !== undefined && node.range !== null) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}
