import { LineCounter, isNode, parseDocument, visit, type Document } from 'yaml';
import type { z } from 'zod';
import { InputError } from './errors.js';

/** A path into a document: object keys and array indexes, outermost first. */
export type FieldPath = readonly (string | number)[];

/** What is wrong with a value, as a reader fixes it: the field (dotted path) and the problem. */
export interface SchemaProblem {
  path: (string | number)[];
  field: string;
  message: string;
}

/** The part of a zod error this module reads; a validate function's own failure has the same shape. */
interface IssueList {
  issues: readonly { path: readonly PropertyKey[]; message: string; code?: string; keys?: readonly string[] }[];
}

/**
 * The one problem of a failed validation a reader should fix first. A misspelt key explains the
 * missing one it was meant to be, so an unknown key comes first; zod reports an unknown key on its
 * parent, so the key itself is added to the path (it is the field to remove or rename).
 */
export function describeSchemaError(error: IssueList, fallback = 'invalid'): SchemaProblem {
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  const path = (issue?.path ?? []).map((key) => (typeof key === 'number' ? key : String(key)));
  const unknown = issue?.code === 'unrecognized_keys' ? issue.keys?.[0] : undefined;
  if (unknown !== undefined) path.push(unknown);
  return { path, field: path.join('.'), message: issue?.message ?? fallback };
}

/** Where a validated value came from, for the InputError its failure raises. */
export interface InputSource {
  file: string;
  /** The value's line (a JSONL record); overridden by `lineOf` when that finds one. */
  line?: number;
  /** The value's own path inside the file, put before the problem's path in the field. */
  at?: FieldPath;
  /** The line of a path inside the file (a YAML or JSON document read with `readDocument`). */
  lineOf?: (path: FieldPath) => number | undefined;
  /** Put before the problem in the message: what the value was expected to be. */
  what?: string;
}

/**
 * Validates `value` at the boundary: the parsed value, or an InputError (exit code 2) naming the
 * file, the line where the source has one, and the field of the first problem.
 */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, source: InputSource): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw inputErrorOf(parsed.error, source);
}

/** The InputError of a failed validation of a value from `source` (see parseInput). */
function inputErrorOf(error: IssueList, source: InputSource): InputError {
  const problem = describeSchemaError(error, 'unexpected shape');
  const path = [...(source.at ?? []), ...problem.path];
  const line = source.lineOf?.(path) ?? source.line;
  const field = path.join('.');
  return new InputError(
    { file: source.file, line, field: field === '' ? undefined : field },
    source.what === undefined ? problem.message : `${source.what}: ${problem.message}`,
  );
}

/** A YAML (or JSON) document read with its positions: its value, and the line of any path in it. */
export interface LocatedDocument {
  data: unknown;
  lineOf: (path: FieldPath) => number | undefined;
}

/**
 * Parses YAML or JSON text keeping positions, so a later validation can name the line of a field.
 * @throws InputError at the line of the first syntax error.
 */
export function readDocument(text: string, file: string): LocatedDocument {
  const counter = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  } catch (error) {
    throw tooDeep(file, error);
  }
  const syntax = doc.errors[0];
  if (syntax !== undefined) {
    throw new InputError({ file, line: counter.linePos(syntax.pos[0]).line }, `not valid YAML/JSON: ${syntax.message.split('\n')[0] ?? ''}`);
  }
  return { data: toValue(doc, counter, file), lineOf: (path) => lineOfPath(doc, counter, path) };
}

/**
 * Aliases a document may expand: a scenario, a price file or a check config has no use for
 * more, and nine levels of nine (a "billion laughs") would take the memory of the machine.
 */
const MAX_ALIAS_COUNT = 100;

/** The document's value; an alias bomb or a nesting deeper than the stack is an InputError. */
function toValue(doc: Document, counter: LineCounter, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (!(error instanceof ReferenceError) || !/alias/i.test(error.message)) throw tooDeep(file, error);
    let line: number | undefined;
    visit(doc, {
      Alias(_key, node) {
        line = node.range === undefined || node.range === null ? undefined : counter.linePos(node.range[0]).line;
        return visit.BREAK;
      },
    });
    throw new InputError({ file, line }, `its aliases expand to more than ${MAX_ALIAS_COUNT} copies (a "billion laughs"?): write the values out`);
  }
}

function tooDeep(file: string, error: unknown): unknown {
  if (!(error instanceof RangeError)) return error;
  return new InputError({ file }, 'nests deeper than ctxbench reads (maximum call stack size exceeded)');
}

/** The line of the deepest node of `path` that exists in the document. */
function lineOfPath(doc: Document, counter: LineCounter, path: FieldPath): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node: unknown = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range !== undefined && node.range !== null) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}
